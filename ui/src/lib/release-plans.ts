// A release plan said in words: how far the active milestone is, what a safeguard watches, and what a fired one did.
import type { components } from '../../../generated/api.js';

type Milestone = components['schemas']['ReleasePlanMilestone'];
type Safeguard = components['schemas']['ReleasePlanSafeguard'];
type TimeRange = components['schemas']['SafeguardImpactMetric']['timeRange'];

export const timeRanges: { value: TimeRange; label: string }[] = [
  { value: 'hour', label: 'the last hour' },
  { value: 'day', label: 'the last day' },
  { value: 'week', label: 'the last week' },
  { value: 'month', label: 'the last month' },
];

export const rangeLabel = (range: TimeRange) => timeRanges.find((r) => r.value === range)?.label ?? range;

/** "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function describeMinutes(minutes: number): string {
  if (minutes < 1) return `${Math.round(minutes * 60)} s`;
  if (minutes < 60) return `${Math.floor(minutes)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h${minutes % 60 >= 1 ? ` ${Math.floor(minutes % 60)} min` : ''}`;
  return `${Math.floor(hours / 24)} d${hours % 24 ? ` ${hours % 24} h` : ''}`;
}

export interface Progress {
  /** Minutes the milestone has run, not counting time paused. */
  elapsed: number;
  /** Minutes after which it hands over to the next; undefined when it waits for a user. */
  interval: number | undefined;
  /** 0 … 100, of the interval. */
  percent: number | undefined;
  paused: boolean;
}

/** How far an active milestone is at `now`: a paused one stands still at its pause. */
export function progressOf(milestone: Milestone, now: number): Progress | undefined {
  if (!milestone.startedAt) return undefined;
  const until = milestone.pausedAt ? Date.parse(milestone.pausedAt) : now;
  const elapsed = Math.max(0, (until - Date.parse(milestone.startedAt)) / 60_000);
  const interval = milestone.transitionCondition?.intervalMinutes;
  const percent = interval === undefined ? undefined : Math.min(100, (elapsed / interval) * 100);
  return { elapsed, interval, percent, paused: Boolean(milestone.pausedAt) };
}

const labelsOf = (selectors: Record<string, string[]>) =>
  Object.entries(selectors)
    .filter(([, values]) => values.length > 0)
    .map(([name, values]) => `${name} ${values.length === 1 ? `= ${values[0]}` : `in ${values.join(', ')}`}`);

/** "checkout_errors (count over the last hour, appName = shop) > 10". */
export function describeSafeguard(safeguard: Safeguard): string {
  const metric = safeguard.impactMetric;
  const details = [`${metric.aggregationMode} over ${rangeLabel(metric.timeRange)}`, ...labelsOf(metric.labelSelectors)].join(', ');
  return `${metric.metricName} (${details}) ${safeguard.triggerCondition.operator} ${safeguard.triggerCondition.threshold}`;
}

export const actionLabel = (type: Safeguard['action']['type']) =>
  type === 'disableFeatureEnvironment' ? 'Pause the plan and turn the flag off' : 'Pause the plan';

/** A fired safeguard in words: when, the value against the threshold, what it did, and what to do now. */
export function firedExplanation(safeguard: Safeguard, environment: string): string | undefined {
  if (!safeguard.triggeredAt) return undefined;
  const { operator, threshold } = safeguard.triggerCondition;
  const side = operator === '>' ? 'above' : 'below';
  const value = safeguard.triggeredValue ?? 'unknown';
  const did =
    safeguard.action.type === 'disableFeatureEnvironment' ? `paused the release plan and turned the flag off in ${environment}` : 'paused the release plan';
  return (
    `Fired ${new Date(safeguard.triggeredAt).toLocaleString()}: ${safeguard.impactMetric.metricName} was ${value}, ${side} the threshold ${threshold}. ` +
    `It ${did}. Resume the plan once the cause is dealt with${safeguard.action.type === 'disableFeatureEnvironment' ? ', and turn the flag on again' : ''}: the milestones will not advance until then.`
  );
}
