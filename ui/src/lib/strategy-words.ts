// A strategy in words, as its card reads it: the strategy's human name ("Gradual rollout"), and the conditions a
// context must meet, one clause each (segments, constraints, then what the strategy's parameters ask), joined by AND.
// Pure: the card renders the clauses; a segment clause is rendered as its preview.
import type { components } from '../../../generated/api.js';
import { describeConstraint } from './constraints.js';

type FeatureStrategy = components['schemas']['FeatureStrategy'];
type Definition = Pick<components['schemas']['Strategy'], 'name' | 'title' | 'displayName' | 'parameters'>;

/** Unleash's names for its built-in strategies, whatever a definition's title says. */
const builtInNames: Record<string, string> = {
  flexibleRollout: 'Gradual rollout',
  default: 'Standard',
  userWithId: 'User IDs',
  remoteAddress: 'IPs',
  applicationHostname: 'Hosts',
  gradualRolloutUserId: 'Gradual rollout (userId)',
  gradualRolloutSessionId: 'Gradual rollout (sessionId)',
  gradualRolloutRandom: 'Random rollout',
};

/** The strategy's name for people: a built-in one's, else its definition's title, else the definition's name. */
export function strategyKind(name: string, definitions: Definition[] | undefined): string {
  const definition = definitions?.find((d) => d.name === name);
  return builtInNames[name] ?? definition?.title ?? definition?.displayName ?? name;
}

/** One condition of a strategy: a segment (by id, shown with its contents) or a clause in words. */
export type Clause = { kind: 'segment'; id: number } | { kind: 'words'; text: string };

/** A comma-separated parameter as a list in words: `a, b` ; empty when it holds nothing. */
const listed = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .join(', ');

/** A gradual rollout's share in words: `25% of users, by userId, group my-flag`. */
export function rolloutWords(parameters: Record<string, string>): string {
  const stickiness = parameters.stickiness || 'default';
  const by = stickiness === 'default' ? 'default stickiness' : stickiness;
  const group = parameters.groupId ? `, group ${parameters.groupId}` : '';
  return `${parameters.rollout ?? '100'}% of users, by ${by}${group}`;
}

/** What the strategy's own parameters ask, in words; undefined when they ask nothing (the Standard strategy). */
export function parameterWords(strategy: Pick<FeatureStrategy, 'name' | 'parameters'>, definitions: Definition[] | undefined): string | undefined {
  const p = strategy.parameters;
  switch (strategy.name) {
    case 'default':
      return undefined;
    case 'flexibleRollout':
      return rolloutWords(p);
    case 'userWithId':
      return `userId is one of ${listed(p.userIds) || 'nothing'}`;
    case 'remoteAddress':
      return `IP is one of ${listed(p.IPs) || 'nothing'}`;
    case 'applicationHostname':
      return `hostname is one of ${listed(p.hostNames) || 'nothing'}`;
    case 'gradualRolloutUserId':
      return `${p.percentage ?? '0'}% of users, by userId${p.groupId ? `, group ${p.groupId}` : ''}`;
    case 'gradualRolloutSessionId':
      return `${p.percentage ?? '0'}% of users, by sessionId${p.groupId ? `, group ${p.groupId}` : ''}`;
    case 'gradualRolloutRandom':
      return `${p.percentage ?? '0'}% of users, at random`;
  }
  const names = definitions?.find((d) => d.name === strategy.name)?.parameters.map((d) => d.name) ?? Object.keys(p);
  const words = names.filter((name) => (p[name] ?? '') !== '').map((name) => `${name} is ${p[name]}`);
  return words.length > 0 ? words.join(', ') : undefined;
}

/** The strategy in one line, its name then what its parameters ask: `Gradual rollout: 25% of users, by userId`. */
export function strategyHeadline(strategy: Pick<FeatureStrategy, 'name' | 'parameters'>, definitions: Definition[] | undefined): string {
  const parameters = parameterWords(strategy, definitions);
  return `${strategyKind(strategy.name, definitions)}${parameters ? `: ${parameters}` : ''}`;
}

/**
 * The conditions a context must meet for the strategy to apply, in the order SDKs check them: its segments, its
 * constraints, then its parameters. "On for everyone" when there are none.
 */
export function strategyClauses(strategy: Pick<FeatureStrategy, 'name' | 'parameters' | 'constraints' | 'segments'>, definitions: Definition[] | undefined): Clause[] {
  const clauses: Clause[] = [
    ...strategy.segments.map((id): Clause => ({ kind: 'segment', id })),
    ...strategy.constraints.map((c): Clause => ({ kind: 'words', text: describeConstraint(c) })),
  ];
  const parameters = parameterWords(strategy, definitions);
  if (parameters) clauses.push({ kind: 'words', text: parameters });
  return clauses.length > 0 ? clauses : [{ kind: 'words', text: 'On for everyone' }];
}

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** How long ago an instant was, in words: `3 minutes ago`, `2 days ago`, `just now` under a minute. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  for (const [unit, size] of units) {
    if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  }
  return 'just now';
}
