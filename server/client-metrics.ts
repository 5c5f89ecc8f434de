import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import type { components } from '../generated/api.js';
import * as t from '../db/schema.js';
import { systemCaller } from './caller.js';
import type { EventLog } from './events.js';

/** Who writes what SDKs report: the service itself. */

interface PendingInstance {
  appName: string;
  instanceId: string;
  environment: string;
  sdkVersion: string | null;
  clientIp: string | null;
  lastSeen: Date;
}

interface PendingCount {
  featureName: string;
  appName: string;
  environment: string;
  hour: Date;
  yes: number;
  no: number;
  variants: Record<string, number>;
}

type Registration = components['schemas']['ClientRegistration'];
type MetricsReport = components['schemas']['ClientMetrics'];

const hourly = '"client_metrics_hourly"';
/** Adds the variant counts of the new row to those of the stored one, key by key. */
const sumVariants = sql.raw(
  `(select coalesce(jsonb_object_agg(k, coalesce((${hourly}.variants->>k)::bigint, 0) + coalesce((excluded.variants->>k)::bigint, 0)), '{}'::jsonb)` +
    ` from jsonb_object_keys(${hourly}.variants || excluded.variants) as k)`,
);

/** SQLSTATE class 22 (data exception): the values themselves are wrong, not the connection. */
function isDataError(error: unknown): boolean {
  for (let e: any = error; e; e = e.cause) if (typeof e.code === 'string' && e.code.startsWith('22')) return true;
  return false;
}

const hourOf = (time: Date) => new Date(Math.floor(time.getTime() / 3_600_000) * 3_600_000);

const EARLIEST_BUCKET = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;

/**
 * When an SDK's bucket ended; now for a stop that is not a date or lies outside 2000 … tomorrow, since
 * one value the database refuses would lose the whole batch it is written in.
 */
function bucketStop(stop: string | number): Date {
  const time = new Date(stop).getTime();
  return time >= EARLIEST_BUCKET && time <= Date.now() + DAY_MS ? new Date(time) : new Date();
}

/**
 * What SDKs report, gathered in memory and written in one transaction per interval (and at shutdown),
 * never one per SDK request.
 */
export class ClientMetricsStore {
  private applications = new Map<string, Set<string>>();
  private instances = new Map<string, PendingInstance>();
  private counts = new Map<string, PendingCount>();
  private seen = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly events: EventLog,
    private readonly log: Logger,
    /** Told of every failed write (the Prometheus counter of flush failures). */
    private readonly onFlushFailure: () => void = () => {},
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  private noteInstance(appName: string, instanceId: string | null | undefined, environment: string, sdkVersion: string | null | undefined, clientIp: string) {
    const id = instanceId || 'default';
    const strategies = this.applications.get(appName) ?? new Set<string>();
    this.applications.set(appName, strategies);
    const key = JSON.stringify([appName, id, environment]);
    const known = this.instances.get(key);
    this.instances.set(key, { appName, instanceId: id, environment, sdkVersion: sdkVersion ?? known?.sdkVersion ?? null, clientIp, lastSeen: new Date() });
    return strategies;
  }

  register(registration: Registration, environment: string, clientIp: string): void {
    const strategies = this.noteInstance(registration.appName, registration.instanceId, environment, registration.sdkVersion, clientIp);
    for (const s of registration.strategies) if (typeof s === 'string') strategies.add(s);
  }

  report(report: MetricsReport, environment: string, clientIp: string): void {
    this.noteInstance(report.appName, report.instanceId, environment, report.sdkVersion, clientIp);
    const hour = hourOf(bucketStop(report.bucket.stop));
    for (const [featureName, toggle] of Object.entries(report.bucket.toggles)) {
      const yes = toggle.yes ?? 0;
      const no = toggle.no ?? 0;
      if (yes + no === 0) continue;
      const key = JSON.stringify([featureName, report.appName, environment, hour.getTime()]);
      const count = this.counts.get(key) ?? { featureName, appName: report.appName, environment, hour, yes: 0, no: 0, variants: {} };
      count.yes += yes;
      count.no += no;
      for (const [variant, n] of Object.entries(toggle.variants ?? {})) count.variants[variant] = (count.variants[variant] ?? 0) + n;
      this.counts.set(key, count);
      this.seen.set(JSON.stringify([featureName, environment]), new Date());
    }
  }

  /** Writes everything gathered so far; runs one at a time. On failure the data is kept for the next try. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.applications.size === 0 && this.counts.size === 0) return;
    const batch = { applications: this.applications, instances: this.instances, counts: this.counts, seen: this.seen };
    this.applications = new Map();
    this.instances = new Map();
    this.counts = new Map();
    this.seen = new Map();
    try {
      await this.events.change(systemCaller, async (tx, record) => {
        const names = [...batch.applications.keys()];
        const existing = new Set(
          (await tx.select({ appName: t.clientApplications.appName }).from(t.clientApplications).where(inArray(t.clientApplications.appName, names))).map((a) => a.appName),
        );
        for (const [appName, strategies] of batch.applications) {
          await tx
            .insert(t.clientApplications)
            .values({ appName, strategies: [...strategies], lastSeen: new Date() })
            .onConflictDoUpdate({
              target: t.clientApplications.appName,
              set: { lastSeen: new Date(), ...(strategies.size > 0 && { strategies: [...strategies] }) },
            });
          if (!existing.has(appName)) await record({ type: 'application-created', data: { appName, strategies: [...strategies] } });
        }
        for (const instance of batch.instances.values()) {
          await tx
            .insert(t.clientInstances)
            .values(instance)
            .onConflictDoUpdate({
              target: [t.clientInstances.appName, t.clientInstances.instanceId, t.clientInstances.environment],
              set: { lastSeen: instance.lastSeen, clientIp: instance.clientIp, ...(instance.sdkVersion && { sdkVersion: instance.sdkVersion }) },
            });
        }
        for (const count of batch.counts.values()) {
          await tx
            .insert(t.clientMetricsHourly)
            .values(count)
            .onConflictDoUpdate({
              target: [t.clientMetricsHourly.featureName, t.clientMetricsHourly.appName, t.clientMetricsHourly.environment, t.clientMetricsHourly.hour],
              set: { yes: sql.raw(`${hourly}.yes + excluded.yes`), no: sql.raw(`${hourly}.no + excluded.no`), variants: sumVariants },
            });
        }
        for (const [key, at] of batch.seen) {
          const [featureName, environment] = JSON.parse(key) as [string, string];
          await tx
            .update(t.featureEnvironments)
            .set({ lastSeenAt: at })
            .where(and(eq(t.featureEnvironments.featureName, featureName), eq(t.featureEnvironments.environment, environment)));
          await tx.update(t.features).set({ lastSeenAt: at }).where(eq(t.features.name, featureName));
        }
      });
    } catch (error) {
      this.onFlushFailure();
      if (isDataError(error)) {
        // Retrying cannot help: the same rows would fail again and hold back every later report.
        this.log.error({ err: error }, 'client metrics the database refuses were dropped');
        return;
      }
      this.log.warn({ err: error }, 'could not write client metrics; keeping them for the next try');
      this.restore(batch);
    }
  }

  private restore(batch: { applications: Map<string, Set<string>>; instances: Map<string, PendingInstance>; counts: Map<string, PendingCount>; seen: Map<string, Date> }) {
    for (const [app, strategies] of batch.applications) {
      const current = this.applications.get(app) ?? new Set<string>();
      for (const s of strategies) current.add(s);
      this.applications.set(app, current);
    }
    for (const [key, instance] of batch.instances) if (!this.instances.has(key)) this.instances.set(key, instance);
    for (const [key, count] of batch.counts) {
      const current = this.counts.get(key);
      if (!current) this.counts.set(key, count);
      else {
        current.yes += count.yes;
        current.no += count.no;
        for (const [v, n] of Object.entries(count.variants)) current.variants[v] = (current.variants[v] ?? 0) + n;
      }
    }
    for (const [key, at] of batch.seen) if (!this.seen.has(key)) this.seen.set(key, at);
  }
}
