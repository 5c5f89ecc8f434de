// Reading impact metrics: one metric over a time range, per step and over the whole range, across the series its label
// selectors choose. Read from the database only: what instances gathered shows after their next flush.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { HistogramBuckets } from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import { addBuckets, histogramQuantile } from './quantile.js';

type SafeguardImpactMetric = components['schemas']['SafeguardImpactMetric'];
type ImpactMetricSeries = components['schemas']['ImpactMetricSeries'];
type Aggregation = components['schemas']['ImpactAggregation'];
export type MetricType = ImpactMetricSeries['type'];
export type TimeRange = SafeguardImpactMetric['timeRange'];
export type LabelSelectors = SafeguardImpactMetric['labelSelectors'];
type Point = number | null;

const MINUTE_MS = 60_000;
const STEPS: Record<TimeRange, { stepMs: number; points: number }> = {
  hour: { stepMs: MINUTE_MS, points: 60 },
  day: { stepMs: 15 * MINUTE_MS, points: 96 },
  week: { stepMs: 60 * MINUTE_MS, points: 168 },
  month: { stepMs: 1440 * MINUTE_MS, points: 30 },
};

/** The aggregations each type of metric answers; the first is the default. */
export const AGGREGATIONS: Record<MetricType, readonly Aggregation[]> = {
  counter: ['rps', 'count', 'sum'],
  gauge: ['last', 'avg'],
  histogram: ['p95', 'p50', 'p99', 'avg', 'count', 'sum'],
};

const QUANTILES: Partial<Record<Aggregation, number>> = { p50: 0.5, p95: 0.95, p99: 0.99 };
const UNLEASH_PREFIX = /^unleash_(counter|gauge|histogram)_(.+)$/;

/** The stored metric `name` stands for, as reported or with Unleash's prefix of its type; undefined when none is stored. */
export async function findMetric(db: Db, name: string): Promise<{ name: string; type: MetricType } | undefined> {
  const prefixed = UNLEASH_PREFIX.exec(name);
  const candidates: [string, string | undefined][] = [[name, undefined], ...(prefixed ? [[prefixed[2]!, prefixed[1]] as [string, string]] : [])];
  for (const [candidate, type] of candidates) {
    const [row] = await db.select({ type: t.impactMetricSeries.type }).from(t.impactMetricSeries).where(eq(t.impactMetricSeries.name, candidate)).limit(1);
    if (row && (type === undefined || row.type === type)) return { name: candidate, type: row.type };
  }
  return undefined;
}

interface Window {
  start: number;
  end: number;
  stepMs: number;
  points: number;
}

/** The range's steps: the last one holds `now`, the first starts `points - 1` steps before it. */
function windowOf(range: TimeRange, now: Date): Window {
  const { stepMs, points } = STEPS[range];
  const last = Math.floor(now.getTime() / stepMs) * stepMs;
  return { start: last - (points - 1) * stepMs, end: now.getTime(), stepMs, points };
}

/** The minutes of `name` in the window whose series each selector accepts. */
function chosen(name: string, selectors: LabelSelectors, window: Window): SQL {
  const accepted = Object.entries(selectors).map(
    ([label, values]) => sql` and s.labels->>${label} in (select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`,
  );
  return sql`m.name = ${name} and m.minute >= ${new Date(window.start).toISOString()}::timestamptz
    and m.labels_key in (select s.labels_key from impact_metric_series s where s.name = ${name}${sql.join(accepted)})`;
}

const stepOf = (window: Window) => sql.raw(`(floor(extract(epoch from m.minute) * 1000 / ${window.stepMs}) * ${window.stepMs})::float8`);

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

interface Evaluated {
  /** Each step's value, by the step's start (ms). */
  steps: Map<number, number | null>;
  value: Point;
}

async function counter(db: Db, where: SQL, window: Window, aggregation: Aggregation): Promise<Evaluated> {
  const found = await rows<{ step: number; value: number }>(db, sql`select ${stepOf(window)} as step, sum(m.value)::float8 as value
    from impact_metric_minutes m where ${where} group by 1`);
  const perSecond = (increase: number, ms: number) => (aggregation === 'rps' ? increase / (ms / 1000) : increase);
  const steps = new Map(found.map((r) => [Number(r.step), perSecond(r.value, window.stepMs)]));
  const total = found.length === 0 ? null : found.reduce((sum, r) => sum + r.value, 0);
  return { steps, value: total === null ? null : perSecond(total, window.end - window.start) };
}

/** Gauges: per series the latest value (`last`) or the mean of its minutes (`avg`), summed across series. */
async function gauge(db: Db, where: SQL, window: Window, aggregation: Aggregation): Promise<Evaluated> {
  const found = await rows<{ step: number; key: string; mean: number; n: number; last: number }>(
    db,
    sql`select ${stepOf(window)} as step, m.labels_key as key, avg(m.value)::float8 as mean, count(*)::int as n,
      (array_agg(m.value order by m.minute desc))[1]::float8 as last
    from impact_metric_minutes m where ${where} group by 1, 2 order by 1`,
  );
  const steps = new Map<number, number>();
  const series = new Map<string, { weighted: number; n: number; last: number }>();
  for (const r of found) {
    const step = Number(r.step);
    steps.set(step, (steps.get(step) ?? 0) + (aggregation === 'last' ? r.last : r.mean));
    const s = series.get(r.key) ?? { weighted: 0, n: 0, last: 0 };
    series.set(r.key, { weighted: s.weighted + r.mean * r.n, n: s.n + r.n, last: r.last });
  }
  if (series.size === 0) return { steps, value: null };
  const value = [...series.values()].reduce((sum, s) => sum + (aggregation === 'last' ? s.last : s.weighted / s.n), 0);
  return { steps, value };
}

interface Observations {
  count: number;
  sum: number;
  buckets: HistogramBuckets;
}

function ofObservations({ count, sum, buckets }: Observations, aggregation: Aggregation): Point {
  const q = QUANTILES[aggregation];
  if (q !== undefined) return histogramQuantile(q, buckets);
  if (aggregation === 'avg') return count > 0 ? sum / count : null;
  return aggregation === 'sum' ? sum : count;
}

async function histogram(db: Db, where: SQL, window: Window, aggregation: Aggregation): Promise<Evaluated> {
  const [totals, buckets] = await Promise.all([
    rows<{ step: number; count: number; sum: number }>(
      db,
      sql`select ${stepOf(window)} as step, sum(m.value)::float8 as count, sum(m.sum)::float8 as sum from impact_metric_minutes m where ${where} group by 1`,
    ),
    rows<{ step: number; le: string; count: number }>(
      db,
      sql`select ${stepOf(window)} as step, b.key as le, sum(b.value::float8)::float8 as count
        from impact_metric_minutes m cross join lateral jsonb_each_text(coalesce(m.buckets, '{}'::jsonb)) b where ${where} group by 1, 2`,
    ),
  ]);
  const perStep = new Map<number, Observations>(totals.map((r) => [Number(r.step), { count: r.count, sum: r.sum, buckets: {} }]));
  for (const r of buckets) addBuckets(perStep.get(Number(r.step))?.buckets ?? {}, { [r.le]: r.count });
  const all: Observations = { count: 0, sum: 0, buckets: {} };
  for (const o of perStep.values()) {
    all.count += o.count;
    all.sum += o.sum;
    addBuckets(all.buckets, o.buckets);
  }
  const steps = new Map([...perStep].map(([step, o]) => [step, ofObservations(o, aggregation)]));
  return { steps, value: perStep.size === 0 ? null : ofObservations(all, aggregation) };
}

const EVALUATE = { counter, gauge, histogram };

async function evaluate(db: Db, metric: { name: string; type: MetricType }, aggregation: Aggregation, selectors: LabelSelectors, window: Window) {
  return EVALUATE[metric.type](db, chosen(metric.name, selectors, window), window, aggregation);
}

/**
 * What a safeguard watches: the aggregation of the metric over the last `timeRange` (from the start of the step
 * `timeRange`'s steps begin with) up to `now`, across the series `labelSelectors` choose. Null without data, for a
 * metric not stored, or an aggregation its type does not have.
 */
export async function impactMetricValue(db: Db, metric: SafeguardImpactMetric, now?: Date): Promise<number | null> {
  const found = await findMetric(db, metric.metricName);
  if (!found || !AGGREGATIONS[found.type].includes(metric.aggregationMode)) return null;
  return (await evaluate(db, found, metric.aggregationMode, metric.labelSelectors, windowOf(metric.timeRange, now ?? new Date()))).value;
}

/** The metric per step over `range` (getImpactMetricSeries); the aggregation must be one of AGGREGATIONS of its type. */
export async function impactMetricSeries(
  db: Db,
  metric: { name: string; type: MetricType },
  range: TimeRange,
  aggregation: Aggregation,
  selectors: LabelSelectors,
  now = new Date(),
): Promise<ImpactMetricSeries> {
  const window = windowOf(range, now);
  const { steps, value } = await evaluate(db, metric, aggregation, selectors, window);
  const data = Array.from({ length: window.points }, (_, i): [number, Point] => {
    const step = window.start + i * window.stepMs;
    return [step / 1000, steps.get(step) ?? null];
  });
  return {
    metricName: metric.name,
    type: metric.type,
    aggregationMode: aggregation,
    start: new Date(window.start).toISOString(),
    end: new Date(window.end).toISOString(),
    step: window.stepMs / 1000,
    value,
    data,
  };
}
