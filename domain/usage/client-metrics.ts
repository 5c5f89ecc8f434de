import type { Logger } from 'pino';
import { gte } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import { systemCaller } from '../../shared/caller.js';
import { describeWrite, isRefusedData, MAX_COUNT, writeReports, type ReportWrite } from './client-metrics-write.js';
import type { EventLog } from '../events/event-log.js';
import { RequestCounts, REQUEST_COUNTS_KEPT_MS, type RequestCount } from '../../kernel/request-counts.js';
import { DEFAULT_RELEASE_CONFIG } from '../../kernel/config.js';
import { ImpactGatherer, type ImpactOrigin, type ImpactSettings } from '../impact-metrics/ingest.js';

/** Who writes what SDKs report (and the service's request counts): the service itself. */

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

/** Adds counts to a pending count, each sum capped at MAX_COUNT (one SDK may send up to 10^12 per report). */
function addCounts(into: Pick<PendingCount, 'yes' | 'no' | 'variants'>, added: Pick<PendingCount, 'yes' | 'no' | 'variants'>): void {
  into.yes = Math.min(into.yes + added.yes, MAX_COUNT);
  into.no = Math.min(into.no + added.no, MAX_COUNT);
  for (const [variant, n] of Object.entries(added.variants)) into.variants[variant] = Math.min((into.variants[variant] ?? 0) + n, MAX_COUNT);
}

/** The start of the hour `time` is in: SDK counts are kept per hour. */
export const hourOf = (time: Date) => new Date(Math.floor(time.getTime() / 3_600_000) * 3_600_000);

const EARLIEST_BUCKET = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;
/** How often a flush also deletes the request counts older than REQUEST_COUNTS_KEPT_MS. */
const EXPIRE_REQUESTS_EVERY_MS = 3_600_000;

/**
 * When an SDK's bucket ended; now for a stop that is not a date or lies outside 2000 … tomorrow, since
 * the database would refuse a date out of its range and the count would be lost.
 */
export function bucketStop(stop: string | number): Date {
  const time = new Date(stop).getTime();
  return time >= EARLIEST_BUCKET && time <= Date.now() + DAY_MS ? new Date(time) : new Date();
}

/**
 * What SDKs report, and the request counts of `requests`, gathered in memory and written in one transaction
 * per interval (and at shutdown), never one per SDK request. A record the database refuses is dropped alone
 * (see writeIsolating).
 */
export class ClientMetricsStore {
  private applications = new Map<string, Set<string>>();
  private instances = new Map<string, PendingInstance>();
  private counts = new Map<string, PendingCount>();
  private seen = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private requestsExpiredAt = 0;
  /** Called before each flush to hand over counts gathered elsewhere (OFREP evaluations) as reports. */
  private readonly collectors: (() => void)[] = [];
  private readonly impact: ImpactGatherer;

  constructor(
    private readonly db: Db,
    private readonly events: EventLog,
    private readonly log: Logger,
    /** Told of every failed write (the Prometheus counter of flush failures). */
    private readonly onFlushFailure: () => void = () => {},
    private readonly requests = new RequestCounts(),
    impactSettings: ImpactSettings = DEFAULT_RELEASE_CONFIG,
  ) {
    this.impact = new ImpactGatherer(impactSettings, log);
  }

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

  /** `origin` says which route the report came by (the `origin` label of its impact metrics). */
  report(report: MetricsReport, environment: string, clientIp: string, origin: ImpactOrigin = 'sdk'): void {
    this.noteInstance(report.appName, report.instanceId, environment, report.sdkVersion, clientIp);
    const hour = hourOf(bucketStop(report.bucket.stop));
    for (const [featureName, toggle] of Object.entries(report.bucket.toggles)) {
      const yes = toggle.yes ?? 0;
      const no = toggle.no ?? 0;
      if (yes + no === 0) continue;
      const key = JSON.stringify([featureName, report.appName, environment, hour.getTime()]);
      const count = this.counts.get(key) ?? { featureName, appName: report.appName, environment, hour, yes: 0, no: 0, variants: {} };
      addCounts(count, { yes, no, variants: toggle.variants ?? {} });
      this.counts.set(key, count);
      this.seen.set(JSON.stringify([featureName, environment]), new Date());
    }
    if (report.impactMetrics) this.impact.add(report.impactMetrics, { appName: report.appName, environment, origin });
  }

  /** Writes everything gathered so far; runs one at a time. On failure the data is kept for the next try. */
  flush(): Promise<void> {
    for (const collect of this.collectors) collect();
    return this.betweenFlushes(() => this.write());
  }

  /** `collect` reports what it gathered (through `report`) before every flush, the last one at shutdown included. */
  addCollector(collect: () => void): void {
    this.collectors.push(collect);
  }

  /**
   * The request counts of the buckets from `since` on: those stored (by every replica) plus this one's not yet
   * written. Read between flushes, so that no count is in both places or in neither.
   */
  requestCountsSince(since: Date): Promise<RequestCount[]> {
    return this.betweenFlushes(async () => {
      const unwritten = this.requests.counted(since.getTime());
      const stored = await this.db
        .select({ bucket: t.requestCounts.bucket, appName: t.requestCounts.appName, endpoint: t.requestCounts.endpoint, count: t.requestCounts.count })
        .from(t.requestCounts)
        .where(gte(t.requestCounts.bucket, since));
      return [...stored, ...unwritten];
    });
  }

  /** Runs `work` after the flush under way, and holds the next one until it is done. */
  private betweenFlushes<T>(work: () => Promise<T>): Promise<T> {
    const done = this.flushing.then(work);
    this.flushing = done.then(
      () => {},
      () => {},
    );
    return done;
  }

  private async write(): Promise<void> {
    if (this.applications.size === 0 && this.counts.size === 0 && this.requests.isEmpty() && this.impact.isEmpty()) return;
    const failures: unknown[] = [];
    const writes = this.takeWrites();
    const unwritten = await this.writeIsolating(writes, failures);
    this.impact.logDrops(writes.filter((w) => !unwritten.includes(w)));
    if (failures.length > 0) this.onFlushFailure();
    if (unwritten.length > 0) {
      this.log.warn({ err: failures.at(-1), kept: unwritten.length }, 'could not write client metrics; keeping them for the next try');
      this.restore(unwritten);
    }
  }

  /**
   * Writes in one transaction. When the database refuses some of the values, the writes are tried again
   * in halves, down to the single writes it refuses: those alone are dropped (and logged), so one bad
   * record cannot take the other SDKs' reports with it. Answers what failed for another reason (a lost
   * connection, a deadlock), which is kept for the next flush, with everything not tried yet.
   */
  private async writeIsolating(writes: ReportWrite[], failures: unknown[]): Promise<ReportWrite[]> {
    try {
      await this.events.change(systemCaller, (tx, record) => writeReports(tx, record, writes));
      return [];
    } catch (error) {
      failures.push(error);
      if (!isRefusedData(error)) return writes;
      if (writes.length === 1) {
        this.log.error({ err: error, dropped: describeWrite(writes[0]!) }, 'an SDK report the database refuses was dropped');
        return [];
      }
      const middle = Math.ceil(writes.length / 2);
      const unwritten = await this.writeIsolating(writes.slice(0, middle), failures);
      if (unwritten.length > 0) return [...unwritten, ...writes.slice(middle)];
      return this.writeIsolating(writes.slice(middle), failures);
    }
  }

  /** Everything gathered so far as writes, applications first (instances refer to them), and empty maps for what comes next. */
  private takeWrites(): ReportWrite[] {
    const lastSeen = new Map<string, Date>();
    for (const instance of this.instances.values()) {
      const known = lastSeen.get(instance.appName);
      if (!known || instance.lastSeen > known) lastSeen.set(instance.appName, instance.lastSeen);
    }
    const writes: ReportWrite[] = [
      ...[...this.applications].map(([appName, strategies]): ReportWrite => ({ kind: 'application', appName, strategies, lastSeen: lastSeen.get(appName) ?? new Date() })),
      ...[...this.instances.values()].map((instance): ReportWrite => ({ kind: 'instance', ...instance })),
      ...[...this.counts.values()].map((count): ReportWrite => ({ kind: 'count', ...count })),
      ...[...this.seen].map(([key, at]): ReportWrite => {
        const [featureName, environment] = JSON.parse(key) as [string, string];
        return { kind: 'seen', featureName, environment, at };
      }),
      ...this.requests.take().map((count): ReportWrite => ({ kind: 'requests', ...count })),
      ...this.impact.take(),
    ];
    if (Date.now() - this.requestsExpiredAt >= EXPIRE_REQUESTS_EVERY_MS) {
      this.requestsExpiredAt = Date.now();
      writes.push({ kind: 'expire-requests', before: new Date(this.requestsExpiredAt - REQUEST_COUNTS_KEPT_MS) });
    }
    this.applications = new Map();
    this.instances = new Map();
    this.counts = new Map();
    this.seen = new Map();
    return writes;
  }

  /** Puts writes that could not be made back with what came in meanwhile. */
  private restore(writes: ReportWrite[]) {
    for (const write of writes) {
      switch (write.kind) {
        case 'application': {
          const current = this.applications.get(write.appName) ?? new Set<string>();
          for (const s of write.strategies) current.add(s);
          this.applications.set(write.appName, current);
          break;
        }
        case 'instance': {
          const { kind: _kind, ...instance } = write;
          const key = JSON.stringify([instance.appName, instance.instanceId, instance.environment]);
          if (!this.instances.has(key)) this.instances.set(key, instance);
          break;
        }
        case 'count': {
          const { kind: _kind, ...count } = write;
          const key = JSON.stringify([count.featureName, count.appName, count.environment, count.hour.getTime()]);
          const current = this.counts.get(key);
          if (current) addCounts(current, count);
          else this.counts.set(key, count);
          break;
        }
        case 'seen': {
          const key = JSON.stringify([write.featureName, write.environment]);
          if (!this.seen.has(key)) this.seen.set(key, write.at);
          break;
        }
        case 'requests':
          this.requests.restore(write);
          break;
        case 'expire-requests':
          this.requestsExpiredAt = 0;
          break;
        case 'impact':
        case 'expire-impact':
          this.impact.restore(write);
          break;
      }
    }
  }
}
