// Impact metrics in tests: what to expect of a histogram (Prometheus' histogram_quantile, written here from its
// definition rather than taken from the service), the real Node SDK reporting metrics, and the read operations.
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import type { components } from '../../generated/api.js';
import type { TestApp } from './app.js';
import { afterFile } from './file-end.js';
import { ok } from './fixtures.js';
import { stopSdk } from './sdk-changes.js';

type Aggregation = components['schemas']['ImpactAggregation'];
export type ImpactMetric = Record<string, unknown>;

/** Cumulative bucket counts of `observations` at each upper bound, `+Inf` last. */
export function cumulativeBuckets(observations: number[], bounds: number[]): { le: number; count: number }[] {
  return [...bounds, Infinity].map((le) => ({ le, count: observations.filter((o) => o <= le).length }));
}

/**
 * The q-quantile Prometheus' histogram_quantile gives: find the first bucket whose cumulative count reaches q × total,
 * interpolate linearly between its lower and upper bound; in the +Inf bucket, the highest finite bound.
 */
export function expectedQuantile(q: number, buckets: { le: number; count: number }[]): number {
  const total = buckets.at(-1)!.count;
  const rank = q * total;
  const index = buckets.findIndex((b) => b.count >= rank);
  if (buckets[index]!.le === Infinity) return buckets[index - 1]!.le;
  const lower = index === 0 ? 0 : buckets[index - 1]!.le;
  const below = index === 0 ? 0 : buckets[index - 1]!.count;
  return lower + (buckets[index]!.le - lower) * ((rank - below) / (buckets[index]!.count - below));
}

/** The real Node SDK against `url`, sending its metrics every 200 ms; ready (synchronized) when answered. */
export async function reportingSdk(url: string, token: string, appName: string, instanceId: string): Promise<Unleash> {
  const sdk = new Unleash({
    url: `${url}/api/`,
    appName,
    instanceId,
    refreshInterval: 1000,
    metricsInterval: 200,
    metricsJitter: 0,
    customHeaders: { Authorization: token },
    storageProvider: new InMemStorageProvider(),
  });
  sdk.on(UnleashEvents.Error, () => {});
  sdk.on(UnleashEvents.Warn, () => {});
  afterFile(async () => stopSdk(sdk));
  await new Promise<void>((resolve) => sdk.once(UnleashEvents.Synchronized, () => resolve()));
  return sdk;
}

export interface SeriesQuery {
  range?: 'hour' | 'day' | 'week' | 'month';
  aggregationMode?: Aggregation;
  labels?: string;
}

/** GET /api/admin/impact-metrics/{metricName}: the typed answer. */
export const seriesOf = (app: TestApp, metricName: string, query: SeriesQuery = {}) =>
  app.admin.GET('/api/admin/impact-metrics/{metricName}', { params: { path: { metricName }, query } });

/** The metric as GET /api/admin/impact-metrics lists it; undefined when it is not there. */
export const listedMetric = async (app: TestApp, name: string) => (await ok(app.admin.GET('/api/admin/impact-metrics'))).find((m) => m.name === name);

/** A counter as the SDK reports it: its increases since the last report, by labels. */
export const counter = (name: string, samples: { value: number; labels?: Record<string, string> }[]): ImpactMetric => ({ name, help: `${name} help`, type: 'counter', samples });

export const gauge = (name: string, samples: { value: number; labels?: Record<string, string> }[]): ImpactMetric => ({ name, help: `${name} help`, type: 'gauge', samples });

/** A metrics report (POST /api/client/metrics or the frontend's) with impact metrics and the given flag counts. */
export const reportWith = (appName: string, impactMetrics: ImpactMetric[], toggles: Record<string, { yes: number; no: number }> = {}) => ({
  appName,
  instanceId: `${appName}-1`,
  bucket: { start: new Date(Date.now() - 10_000).toISOString(), stop: new Date().toISOString(), toggles },
  impactMetrics,
});

/** The value of the Prometheus sample `name{labels}` in the text, undefined when absent. */
export function sampleValue(text: string, name: string, labels: Record<string, string>): number | undefined {
  const labelText = Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([label, value]) => `${label}="${value}"`)
    .join(',');
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labelText}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}
