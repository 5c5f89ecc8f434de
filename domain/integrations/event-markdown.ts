import type { components } from '../../generated/api.js';
import type { events } from '../../db/schema.js';

export type EventRow = typeof events.$inferSelect;
type EventType = components['schemas']['EventType'];

/** What the event did to the flag (given as a markdown link); the environment and project are said after it. */
type Phrase = (flag: string, event: EventRow) => string;

const field = (value: unknown, key: string) =>
  typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[key] === 'string'
    ? ((value as Record<string, unknown>)[key] as string)
    : undefined;

const strategy = (value: unknown) => {
  const name = field(value, 'name');
  return name ? `strategy *${name}*` : 'a strategy';
};

const tag = (value: unknown) => {
  const [type, name] = [field(value, 'type'), field(value, 'value')];
  return type && name ? `*${type}:${name}*` : 'a tag';
};

const phrases: Partial<Record<EventType, Phrase>> = {
  'feature-created': (flag) => `created ${flag}`,
  'feature-updated': (flag) => `updated ${flag}`,
  'feature-deleted': (flag) => `deleted ${flag}`,
  'feature-archived': (flag) => `archived ${flag}`,
  'feature-revived': (flag) => `revived ${flag}`,
  'feature-metadata-updated': (flag) => `updated the metadata of ${flag}`,
  'feature-type-updated': (flag) => `changed the type of ${flag}`,
  'feature-stale-on': (flag) => `marked ${flag} as stale`,
  'feature-stale-off': (flag) => `removed the stale marking of ${flag}`,
  'feature-potentially-stale-on': (flag) => `marked ${flag} as potentially stale`,
  'feature-completed': (flag) => `marked ${flag} as completed`,
  'feature-uncompleted': (flag) => `marked ${flag} as not completed`,
  'feature-environment-enabled': (flag) => `*enabled* ${flag}`,
  'feature-environment-disabled': (flag) => `*disabled* ${flag}`,
  'feature-strategy-add': (flag, event) => `added ${strategy(event.data)} to ${flag}`,
  'feature-strategy-update': (flag, event) => `updated ${strategy(event.data ?? event.preData)} of ${flag}`,
  'feature-strategy-remove': (flag, event) => `removed ${strategy(event.preData)} from ${flag}`,
  'feature-variants-updated': (flag) => `updated the variants of ${flag}`,
  'feature-environment-variants-updated': (flag) => `updated the variants of ${flag}`,
  'feature-project-change': (flag, event) => {
    const from = field(event.data, 'oldProject');
    return `moved ${flag}${from ? ` from project *${from}*` : ''}`;
  },
  'feature-tagged': (flag, event) => `tagged ${flag} with ${tag(event.data)}`,
  'feature-untagged': (flag, event) => `removed ${tag(event.preData)} from ${flag}`,
  'release-plan-added': (flag, event) => `added the release plan *${field(event.data, 'name') ?? '?'}* to ${flag}`,
  'release-plan-removed': (flag, event) => `removed the release plan *${field(event.preData, 'name') ?? '?'}* from ${flag}`,
  'release-plan-milestone-started': (flag, event) => `started the milestone *${activeMilestone(event.data) ?? '?'}* of the release plan of ${flag}`,
  'release-plan-progressions-paused': (flag) => `paused the release plan of ${flag}`,
  'release-plan-progressions-resumed': (flag) => `resumed the release plan of ${flag}`,
  'safeguard-triggered': (flag, event) => safeguardFired(flag, event.data),
};

/** The name of a plan's active milestone. */
function activeMilestone(plan: unknown): string | undefined {
  const { activeMilestoneId, milestones } = (plan ?? {}) as { activeMilestoneId?: unknown; milestones?: unknown };
  if (!Array.isArray(milestones)) return undefined;
  return field(
    milestones.find((m) => field(m, 'id') === activeMilestoneId),
    'name',
  );
}

function safeguardFired(flag: string, data: unknown): string {
  const { metricName, operator, threshold, value, flagTurnedOff } = (data ?? {}) as Record<string, unknown>;
  const outcome = flagTurnedOff === true ? 'the release plan is paused and the flag *turned off*' : 'the release plan is paused';
  return `fired a safeguard of ${flag}: *${String(metricName)}* at ${String(value)} (${String(operator)} ${String(threshold)}); ${outcome}`;
}

/** Where the flag's page is, for the flag the event is about; none for an event about no flag. */
export function featureLink(event: EventRow, publicUrl: string): string | undefined {
  if (!event.featureName || !event.project) return undefined;
  return `${publicUrl}/projects/${encodeURIComponent(event.project)}/features/${encodeURIComponent(event.featureName)}`;
}

/** One markdown line saying who did what to which flag, in which environment and project (bold is `*x*`). */
export function eventMarkdown(event: EventRow, publicUrl: string): string {
  const link = featureLink(event, publicUrl);
  const flag = event.featureName ? (link ? `[${event.featureName}](${link})` : `*${event.featureName}*`) : undefined;
  const phrase = phrases[event.type];
  const what = phrase && flag ? phrase(flag, event) : `recorded ${event.type}${flag ? ` for ${flag}` : ''}`;
  const environment = event.environment ? ` in *${event.environment}*` : '';
  const project = event.project ? ` ${event.type === 'feature-project-change' ? 'to' : 'in'} project *${event.project}*` : '';
  return `*${event.createdBy}* ${what}${environment}${project}`;
}
