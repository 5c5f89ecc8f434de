// What the edge's SDKs report (registrations, evaluation counts, OFREP evaluations), summed in memory and forwarded to
// the upstream in one batch per environment (POST /api/client/metrics/bulk). A batch the upstream does not take is
// kept and sent again; what is kept is bounded, and past the bound new entries are dropped and counted.
import type { Logger } from 'pino';
import type { components } from '../../generated/api.js';
import type { SdkReports } from '../handler-context.js';
import { bucketStop, hourOf } from '../usage/client-metrics.js';
import type { BulkMetrics, Upstream } from './upstream.js';

type Registration = components['schemas']['ClientRegistration'];
type MetricsReport = components['schemas']['ClientMetrics'];
type BulkRegistration = components['schemas']['BulkRegistration'];
type MetricsEntry = components['schemas']['ClientMetricsEnv'];
type ImpactEntry = NonNullable<BulkMetrics['impactMetrics']>[number];

/** Counts kept (per flag, application, environment and hour) and instances kept, at most, while the upstream is away. */
export const MAX_PENDING_COUNTS = 100_000;
export const MAX_PENDING_INSTANCES = 10_000;
/** Impact metrics kept, at most: as many as one bulk report may carry. */
export const MAX_PENDING_IMPACT = 10_000;

export class EdgeReports implements SdkReports {
  private counts = new Map<string, MetricsEntry & { yes: number; no: number; variants: Record<string, number> }>();
  private instances = new Map<string, BulkRegistration>();
  /** The SDKs' impact metrics as reported, each with its application and environment, forwarded as they came. */
  private impact: ImpactEntry[] = [];
  private readonly collectors: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();
  /** Entries dropped because the bound was reached. */
  dropped = 0;

  constructor(
    private readonly upstream: Upstream | undefined,
    /** A client token of the environment, to send its batch with; undefined when the edge knows none. */
    private readonly credentialFor: (environment: string) => string | undefined,
    private readonly log: Logger,
  ) {}

  get pending(): number {
    return this.counts.size + this.instances.size + this.impact.length;
  }

  register(registration: Registration, environment: string): void {
    this.noteInstance({
      appName: registration.appName,
      instanceId: registration.instanceId || 'default',
      environment,
      sdkVersion: registration.sdkVersion ?? null,
      strategies: registration.strategies.filter((s): s is string => typeof s === 'string'),
      started: typeof registration.started === 'string' ? registration.started : new Date().toISOString(),
      interval: typeof registration.interval === 'number' ? registration.interval : 0,
    });
  }

  report(report: MetricsReport, environment: string): void {
    this.noteInstance({ appName: report.appName, instanceId: report.instanceId || 'default', environment, sdkVersion: report.sdkVersion ?? null });
    const timestamp = hourOf(bucketStop(report.bucket.stop)).toISOString();
    for (const [featureName, toggle] of Object.entries(report.bucket.toggles)) {
      const key = JSON.stringify([featureName, report.appName, environment, timestamp]);
      let count = this.counts.get(key);
      if (!count) {
        if (this.counts.size >= MAX_PENDING_COUNTS) {
          this.dropped++;
          continue;
        }
        this.counts.set(key, (count = { featureName, appName: report.appName, environment, timestamp, yes: 0, no: 0, variants: {} }));
      }
      count.yes += toggle.yes ?? 0;
      count.no += toggle.no ?? 0;
      for (const [variant, n] of Object.entries(toggle.variants ?? {})) count.variants[variant] = (count.variants[variant] ?? 0) + n;
    }
    for (const metric of report.impactMetrics ?? []) this.keepImpact({ ...metric, appName: report.appName, environment } as ImpactEntry);
  }

  private keepImpact(entry: ImpactEntry): void {
    if (this.impact.length < MAX_PENDING_IMPACT) this.impact.push(entry);
    else this.dropped++;
  }

  addCollector(collect: () => void): void {
    this.collectors.push(collect);
  }

  private noteInstance(instance: BulkRegistration): void {
    const key = JSON.stringify([instance.appName, instance.instanceId, instance.environment]);
    const known = this.instances.get(key);
    if (!known && this.instances.size >= MAX_PENDING_INSTANCES) {
      this.dropped++;
      return;
    }
    this.instances.set(key, { ...known, ...instance, sdkVersion: instance.sdkVersion ?? known?.sdkVersion ?? null });
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Sends what was gathered, one batch per environment; what the upstream does not take is kept for the next time. */
  flush(): Promise<void> {
    for (const collect of this.collectors) collect();
    this.sending = this.sending.then(() => this.send());
    return this.sending;
  }

  private async send(): Promise<void> {
    if (!this.upstream || this.pending === 0) return;
    const counts = this.counts;
    const instances = this.instances;
    const impact = this.impact;
    this.counts = new Map();
    this.instances = new Map();
    this.impact = [];
    const environmentOf = (entry: ImpactEntry) => (entry as { environment: string }).environment;
    const environments = new Set([...counts.values(), ...instances.values()].map((c) => c.environment).concat(impact.map(environmentOf)));
    for (const environment of environments) {
      const impactMetrics = impact.filter((m) => environmentOf(m) === environment);
      const batch: BulkMetrics = {
        applications: [...instances.values()].filter((i) => i.environment === environment),
        metrics: [...counts.values()].filter((c) => c.environment === environment),
        ...(impactMetrics.length > 0 && { impactMetrics }),
      };
      const token = this.credentialFor(environment);
      const sent = token !== undefined && (await this.upstream.sendReports(token, batch).catch(() => false));
      if (sent) continue;
      if (token !== undefined) this.log.warn({ environment, entries: batch.metrics.length }, 'edge: the upstream did not take the SDK reports; kept for the next try');
      this.keep(counts, instances, environment);
      for (const entry of impactMetrics) this.keepImpact(entry);
    }
  }

  /** Puts an environment's unsent entries back, summed with what arrived meanwhile, within the bounds. */
  private keep(counts: EdgeReports['counts'], instances: EdgeReports['instances'], environment: string): void {
    for (const [key, count] of counts) {
      if (count.environment !== environment) continue;
      const now = this.counts.get(key);
      if (now) {
        now.yes += count.yes;
        now.no += count.no;
        for (const [variant, n] of Object.entries(count.variants)) now.variants[variant] = (now.variants[variant] ?? 0) + n;
      } else if (this.counts.size < MAX_PENDING_COUNTS) this.counts.set(key, count);
      else this.dropped++;
    }
    for (const [key, instance] of instances) {
      if (instance.environment !== environment || this.instances.has(key)) continue;
      if (this.instances.size < MAX_PENDING_INSTANCES) this.instances.set(key, instance);
      else this.dropped++;
    }
  }
}
