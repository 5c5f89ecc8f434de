// Impact metrics of SDK reports: each metric checked alone against the contract, its samples gathered in memory per
// series (name and labels) and minute until the next flush writes them (write.ts).
import type { Logger } from 'pino';
import type { HistogramBuckets } from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import { AppError } from '../../kernel/errors.js';
import type { ReleaseConfig } from '../../kernel/config.js';
import { assertMatchesSchema } from '../../kernel/schema-check.js';
import { addBuckets } from './quantile.js';

type ImpactMetric = components['schemas']['ImpactMetric'];
type Sample = components['schemas']['ImpactMetricSample'];
type HistogramSample = components['schemas']['ImpactHistogramSample'];
export type ImpactMetricType = ImpactMetric['type'];
/** Which route a report came by: `/api/client/metrics`, the frontend API, or an Edge's bulk report. */
export type ImpactOrigin = 'sdk' | 'frontend' | 'edge';
export type ImpactSettings = Pick<ReleaseConfig, 'impactSeriesLimit' | 'impactRetentionMs'>;

/** Who sent a report: the labels the service sets on every sample of it. */
export interface ImpactSource {
  appName: string;
  environment: string;
  origin: ImpactOrigin;
}

export interface ImpactMinute {
  minute: Date;
  /** A counter's increase, a gauge's latest value, a histogram's count of observations. */
  value: number;
  sum: number;
  buckets: HistogramBuckets | null;
}

/** One series with its minutes gathered since the last flush: the unit written, retried or dropped. */
export interface ImpactSeriesWrite {
  kind: 'impact';
  name: string;
  labelsKey: string;
  labels: Record<string, string>;
  type: ImpactMetricType;
  help: string;
  minutes: ImpactMinute[];
  /** At most this many series of the name may be stored. */
  limit: number;
  /** Set by the write: not stored, since the name has `limit` series, or another type. */
  refused?: 'bound' | 'type';
}

export type ImpactWrite = ImpactSeriesWrite | { kind: 'expire-impact'; before: Date };

const MINUTE_MS = 60_000;
/** How often, at most, a flush deletes the minutes and series older than the retention. */
const EXPIRE_EVERY_MS = 5 * MINUTE_MS;
/** Dropped label sets counted per metric and flush, at most (the count in the log line stops there). */
const MAX_COUNTED_DROPS = 100_000;

/** Labels in name order, as JSON: the same set always has the same key. */
export const labelsKeyOf = (labels: Record<string, string>) =>
  JSON.stringify(Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));

const labelsOf = (sample: { labels?: Record<string, string | number> }, source: ImpactSource): Record<string, string> => ({
  ...Object.fromEntries(Object.entries(sample.labels ?? {}).map(([name, value]) => [name, String(value)])),
  appName: source.appName,
  environment: source.environment,
  origin: source.origin,
});

/** The metrics that match the contract's ImpactMetric; each other one dropped with a warning. */
function matching(metrics: readonly unknown[], source: ImpactSource, log: Logger): ImpactMetric[] {
  return metrics.filter((metric, i): metric is ImpactMetric => {
    try {
      assertMatchesSchema('ImpactMetric', metric, `impactMetrics[${i}]`);
      return true;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const name = (metric as { name?: unknown } | null)?.name;
      log.warn({ appName: source.appName, metric: typeof name === 'string' ? name.slice(0, 200) : undefined, reason: error.message }, 'an impact metric that does not match the contract was dropped; the rest of the report was kept');
      return false;
    }
  });
}

/** What reports brought since the last flush, by series; past a name's bound new series are dropped and counted. */
export class ImpactGatherer {
  private series = new Map<string, ImpactSeriesWrite>();
  private typeOf = new Map<string, { type: ImpactMetricType; series: number }>();
  /** Per metric since the last flush: the label sets dropped at the bound, the samples dropped for their type. */
  private dropped = new Map<string, { bound: Set<string>; type: number }>();
  private expiredAt = 0;

  constructor(
    private readonly settings: ImpactSettings,
    private readonly log: Logger,
  ) {}

  private get expireEveryMs() {
    return Math.min(EXPIRE_EVERY_MS, this.settings.impactRetentionMs);
  }

  /** Nothing to write, and no expiry due. */
  isEmpty(): boolean {
    return this.series.size === 0 && Date.now() - this.expiredAt < this.expireEveryMs;
  }

  add(metrics: readonly unknown[], source: ImpactSource): void {
    const minute = new Date(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS);
    for (const metric of matching(metrics, source, this.log)) {
      for (const sample of metric.samples as (Sample | HistogramSample)[]) {
        const series = this.seriesFor(metric, labelsOf(sample, source));
        if (series) addSample(series, minute, sample);
      }
    }
  }

  private drop(name: string, labelsKey: string | undefined) {
    const dropped = this.dropped.get(name) ?? { bound: new Set<string>(), type: 0 };
    if (labelsKey === undefined) dropped.type++;
    else if (dropped.bound.size < MAX_COUNTED_DROPS) dropped.bound.add(labelsKey);
    this.dropped.set(name, dropped);
  }

  private seriesFor({ name, type, help }: ImpactMetric, labels: Record<string, string>): ImpactSeriesWrite | undefined {
    const labelsKey = labelsKeyOf(labels);
    const key = JSON.stringify([name, labelsKey]);
    const known = this.typeOf.get(name);
    if (known && known.type !== type) return void this.drop(name, undefined);
    const series = this.series.get(key);
    if (series) {
      series.help = help;
      return series;
    }
    if (known && known.series >= this.settings.impactSeriesLimit) return void this.drop(name, labelsKey);
    this.typeOf.set(name, { type, series: (known?.series ?? 0) + 1 });
    const added: ImpactSeriesWrite = { kind: 'impact', name, labelsKey, labels, type, help, minutes: [], limit: this.settings.impactSeriesLimit };
    this.series.set(key, added);
    return added;
  }

  /** Everything gathered as writes (and the expiry when due), leaving nothing behind. */
  take(): ImpactWrite[] {
    const writes: ImpactWrite[] = [...this.series.values()];
    if (Date.now() - this.expiredAt >= this.expireEveryMs) {
      this.expiredAt = Date.now();
      writes.push({ kind: 'expire-impact', before: new Date(this.expiredAt - this.settings.impactRetentionMs) });
    }
    this.series = new Map();
    this.typeOf = new Map();
    return writes;
  }

  /** Puts back a write that could not be made, with what came in meanwhile. */
  restore(write: ImpactWrite): void {
    if (write.kind === 'expire-impact') {
      this.expiredAt = 0;
      return;
    }
    const key = JSON.stringify([write.name, write.labelsKey]);
    const current = this.series.get(key);
    if (!current) {
      this.series.set(key, { ...write, refused: undefined });
      const known = this.typeOf.get(write.name);
      this.typeOf.set(write.name, { type: known?.type ?? write.type, series: (known?.series ?? 0) + 1 });
      return;
    }
    if (current.type !== write.type) return;
    for (const minute of write.minutes) mergeMinute(current, minute, true);
  }

  /** One warning per metric whose samples were dropped since the last flush: past the bound, or of another type. */
  logDrops(written: readonly { kind: string }[]): void {
    for (const write of written as ImpactWrite[]) if (write.kind === 'impact' && write.refused) this.drop(write.name, write.refused === 'bound' ? write.labelsKey : undefined);
    for (const [metric, { bound, type }] of this.dropped) {
      const limit = this.settings.impactSeriesLimit;
      if (bound.size > 0) this.log.warn({ metric, limit, dropped: bound.size }, `impact metric "${metric}" has reached its bound of ${limit} label sets: ${bound.size} new label sets were dropped (IMPACT_METRICS_SERIES_LIMIT)`);
      if (type > 0) this.log.warn({ metric, dropped: type }, `impact metric "${metric}" was reported as another type than it has: ${type} samples were dropped`);
    }
    this.dropped = new Map();
  }
}

function addSample(series: ImpactSeriesWrite, minute: Date, sample: Sample | HistogramSample) {
  if ('buckets' in sample) {
    const buckets: HistogramBuckets = {};
    for (const { le, count } of sample.buckets) buckets[String(le)] = (buckets[String(le)] ?? 0) + count;
    mergeMinute(series, { minute, value: sample.count, sum: sample.sum, buckets }, false);
  } else mergeMinute(series, { minute, value: sample.value, sum: 0, buckets: null }, false);
}

/** Adds a minute to the series' own: a gauge takes the later value (`older`: the one added is not the later). */
function mergeMinute(series: ImpactSeriesWrite, added: ImpactMinute, older: boolean) {
  const current = series.minutes.find((m) => m.minute.getTime() === added.minute.getTime());
  if (!current) {
    series.minutes.push({ ...added, buckets: added.buckets && { ...added.buckets } });
    series.minutes.sort((a, b) => a.minute.getTime() - b.minute.getTime());
    return;
  }
  if (series.type === 'gauge') {
    if (!older) current.value = added.value;
    return;
  }
  current.value += added.value;
  current.sum += added.sum;
  if (added.buckets) current.buckets = addBuckets(current.buckets ?? {}, added.buckets);
}
