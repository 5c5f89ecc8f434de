// A flag's hourly counts (GET /api/admin/client-metrics/features/{featureName}/raw?hoursBack=N) as the usage view
// shows them for one environment and period: the chart's bars (several hours to a bar over long periods, applications
// added up, bars without reports at zero), the totals, and the counts per application and per variant.
import type { components } from '../../../generated/api.js';

export type Metric = components['schemas']['FeatureUsage']['metrics'][number];

const HOUR = 3_600_000;

/** The periods one can choose: how many hours (the current one included) and how many hours go to one bar. */
export const PERIODS = {
  '1h': { label: '1 h', hours: 1, hoursPerBar: 1, words: 'This hour' },
  '24h': { label: '24 h', hours: 24, hoursPerBar: 1, words: 'Last 24 hours' },
  '48h': { label: '48 h', hours: 48, hoursPerBar: 2, words: 'Last 48 hours' },
  '7d': { label: '7 d', hours: 168, hoursPerBar: 6, words: 'Last 7 days' },
} as const;

export type Period = keyof typeof PERIODS;

export interface Bar {
  /** Start of the bar's first hour, in milliseconds. */
  start: number;
  yes: number;
  no: number;
}

export interface Share {
  name: string;
  yes: number;
  no: number;
}

export interface Usage {
  bars: Bar[];
  /** Times an SDK found the flag on. */
  yes: number;
  /** Times an SDK found the flag off. */
  no: number;
  /** Per application, most evaluations first. */
  applications: Share[];
  /** Per variant, the times it was chosen, most first. */
  variants: { name: string; count: number }[];
}

/** Of the flag's hourly counts, those of `environment` in the `hours` ending with the current hour, in `bars` of `hoursPerBar`. */
export function usageOf(metrics: Metric[], environment: string, period: { hours: number; hoursPerBar: number }, now: number): Usage {
  const { hours, hoursPerBar } = period;
  const last = Math.floor(now / HOUR) * HOUR;
  const first = last - (hours - 1) * HOUR;
  const bars: Bar[] = Array.from({ length: Math.ceil(hours / hoursPerBar) }, (_, i) => ({ start: first + i * hoursPerBar * HOUR, yes: 0, no: 0 }));
  const applications = new Map<string, Share>();
  const variants = new Map<string, number>();
  let yes = 0;
  let no = 0;
  for (const metric of metrics) {
    if (metric.environment !== environment) continue;
    const hour = Math.floor(Date.parse(metric.timestamp) / HOUR) * HOUR;
    if (hour < first || hour > last) continue;
    const bar = bars[Math.floor((hour - first) / (hoursPerBar * HOUR))]!;
    bar.yes += metric.yes;
    bar.no += metric.no;
    yes += metric.yes;
    no += metric.no;
    const application = applications.get(metric.appName) ?? { name: metric.appName, yes: 0, no: 0 };
    application.yes += metric.yes;
    application.no += metric.no;
    applications.set(metric.appName, application);
    for (const [variant, count] of Object.entries(metric.variants)) variants.set(variant, (variants.get(variant) ?? 0) + count);
  }
  const byCount = (a: number, b: number, nameA: string, nameB: string) => b - a || nameA.localeCompare(nameB);
  return {
    bars,
    yes,
    no,
    applications: [...applications.values()].sort((a, b) => byCount(a.yes + a.no, b.yes + b.no, a.name, b.name)),
    variants: [...variants].map(([name, count]) => ({ name, count })).sort((a, b) => byCount(a.count, b.count, a.name, b.name)),
  };
}

/** "1 time", "3 times". */
export const times = (n: number) => `${n.toLocaleString('en-GB')} time${n === 1 ? '' : 's'}`;

/** What a chart of the period shows, in words: "Last 24 hours: 3 times on, 1 time off". */
export const summaryOf = (words: string, yes: number, no: number) => `${words}: ${times(yes)} on, ${times(no)} off`;

/** `part` of `whole` as a percentage with at most one decimal ("62.5%"); a dash when there is no whole. */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '–';
  return `${Math.round((part / whole) * 1000) / 10}%`;
}

/**
 * The time the view counts from: the browser's clock, or the newest hour the service answered when that is later (a
 * browser clock a little behind the service's would otherwise leave the current hour out).
 */
export function nowFor(metrics: Metric[], clock: number): number {
  return Math.max(clock, ...metrics.map((m) => Date.parse(m.timestamp)));
}
