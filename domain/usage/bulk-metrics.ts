// What Unleash Edge reports in bulk, as the reports and registrations single SDKs send (POST /api/client/metrics and
// /api/client/register), each with the environment it is counted in.
import type { components } from '../../generated/api.js';
import { MAX_COUNT } from './client-metrics-write.js';

type BulkMetrics = components['schemas']['BulkMetrics'];
type BulkRegistration = components['schemas']['BulkRegistration'];
type ClientMetricsEnv = components['schemas']['ClientMetricsEnv'];
type Registration = components['schemas']['ClientRegistration'];
type MetricsReport = components['schemas']['ClientMetrics'];
type Toggles = MetricsReport['bucket']['toggles'];

const HOUR_MS = 3_600_000;

/** When an entry's counts were taken: its timestamp, or now when it has none (or one that is no date). */
function timeOf(entry: ClientMetricsEnv): number {
  const time = entry.timestamp === undefined ? Number.NaN : Date.parse(entry.timestamp);
  return Number.isNaN(time) ? Date.now() : time;
}

const key = (...parts: (string | number)[]) => JSON.stringify(parts);

const capped = (a: number, b: number) => Math.min(a + b, MAX_COUNT);

/** Each registration whose environment `readable` accepts, as an SDK would have sent it, with its environment. */
export function bulkRegistrations(applications: BulkRegistration[], readable: (environment: string) => boolean) {
  return applications
    .filter((application) => readable(application.environment))
    .map((application) => {
      const registration: Registration = {
        appName: application.appName,
        instanceId: application.instanceId,
        sdkVersion: application.sdkVersion ?? null,
        strategies: application.strategies ?? [],
        started: application.started ?? new Date().toISOString(),
        interval: application.interval ?? 0,
      };
      return { environment: application.environment, registration };
    });
}

interface Group {
  environment: string;
  appName: string;
  start: number;
  stop: number;
  toggles: Toggles;
}

/** The first registration of each application and environment: the instance its entries are noted on. */
function instancesOf(applications: BulkRegistration[]) {
  const instances = new Map<string, BulkRegistration>();
  for (const application of applications) {
    const at = key(application.appName, application.environment);
    if (!instances.has(at)) instances.set(at, application);
  }
  return instances;
}

/**
 * The metrics entries whose environment `readable` accepts, as SDK reports: one per application, environment and hour,
 * its bucket spanning the entries' timestamps, the same flag's counts summed. Each report names the instance of the same
 * application and environment among the registrations, if one is there (the entries name none).
 */
export function bulkReports(body: Pick<BulkMetrics, 'applications' | 'metrics'>, readable: (environment: string) => boolean) {
  const groups = new Map<string, Group>();
  for (const entry of body.metrics) {
    if (!readable(entry.environment)) continue;
    const time = timeOf(entry);
    const groupKey = key(entry.appName, entry.environment, Math.floor(time / HOUR_MS));
    let group = groups.get(groupKey);
    if (!group) groups.set(groupKey, (group = { environment: entry.environment, appName: entry.appName, start: time, stop: time, toggles: {} }));
    if (time < group.start) group.start = time;
    if (time > group.stop) group.stop = time;
    const counts = (group.toggles[entry.featureName] ??= { yes: 0, no: 0, variants: {} });
    counts.yes = capped(counts.yes ?? 0, entry.yes ?? 0);
    counts.no = capped(counts.no ?? 0, entry.no ?? 0);
    const variants = (counts.variants ??= {});
    for (const [variant, n] of Object.entries(entry.variants ?? {})) variants[variant] = capped(variants[variant] ?? 0, n);
  }
  const instances = instancesOf(body.applications);
  return [...groups.values()].map(({ environment, appName, start, stop, toggles }) => {
    const instance = instances.get(key(appName, environment));
    const report: MetricsReport = {
      appName,
      instanceId: instance?.instanceId ?? null,
      sdkVersion: instance?.sdkVersion ?? null,
      bucket: { start: new Date(start).toISOString(), stop: new Date(stop).toISOString(), toggles },
    };
    return { environment, report };
  });
}

/**
 * The impact metrics entries as SDK reports without counts, one per application and environment: an entry counts in
 * its `environment` when it names one (ignored alone when `readable` refuses it), else in `fallback` (the token's own,
 * undefined for an all-environments token: such an entry is ignored); one without an `appName` is ignored.
 */
export function bulkImpactReports(body: Pick<BulkMetrics, 'applications' | 'impactMetrics'>, readable: (environment: string) => boolean, fallback: string | undefined) {
  const groups = new Map<string, { appName: string; environment: string; metrics: NonNullable<MetricsReport['impactMetrics']> }>();
  for (const entry of body.impactMetrics ?? []) {
    const { appName, environment: named } = entry as { appName?: unknown; environment?: unknown };
    const environment = typeof named === 'string' ? (readable(named) ? named : undefined) : fallback;
    if (environment === undefined || typeof appName !== 'string' || appName.length === 0 || appName.length > 200) continue;
    const groupKey = key(appName, environment);
    const group = groups.get(groupKey) ?? { appName, environment, metrics: [] };
    group.metrics.push(entry);
    groups.set(groupKey, group);
  }
  const instances = instancesOf(body.applications);
  const now = new Date().toISOString();
  return [...groups.values()].map(({ appName, environment, metrics }) => {
    const instance = instances.get(key(appName, environment));
    const report: MetricsReport = {
      appName,
      instanceId: instance?.instanceId ?? null,
      sdkVersion: instance?.sdkVersion ?? null,
      bucket: { start: now, stop: now, toggles: {} },
      impactMetrics: metrics,
    };
    return { environment, report };
  });
}
