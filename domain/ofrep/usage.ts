// OFREP evaluations counted in the flags' usage, as the SDKs' own reports are: gathered per environment,
// application and flag with a few increments per answer, and handed to the usage store as reports before each of
// its flushes (so the last ones at shutdown too).
import type { ClientMetricsStore } from '../usage/client-metrics.js';

/** What is counted of one answer. */
export interface CountedAnswer {
  readonly key: string;
  readonly enabled: boolean;
  readonly variant?: string | undefined;
}

type Counts = { yes: number; no: number; variants: Record<string, number> };

/** environment → application → flag → counts, since `since`. */
class PendingEvaluations {
  private counts = new Map<string, Map<string, Map<string, Counts>>>();
  private since = new Date();
  /** The address of the latest caller, for the application's instance. */
  private clientIp = '';

  constructor(private readonly store: ClientMetricsStore) {
    store.addCollector(() => this.handOver());
  }

  count(environment: string, appName: string, clientIp: string, answers: readonly CountedAnswer[]): void {
    this.clientIp = clientIp;
    let byApp = this.counts.get(environment);
    if (!byApp) this.counts.set(environment, (byApp = new Map()));
    let toggles = byApp.get(appName);
    if (!toggles) byApp.set(appName, (toggles = new Map()));
    for (const answer of answers) {
      let counts = toggles.get(answer.key);
      if (!counts) toggles.set(answer.key, (counts = { yes: 0, no: 0, variants: {} }));
      if (answer.enabled) counts.yes++;
      else counts.no++;
      if (answer.variant !== undefined) counts.variants[answer.variant] = (counts.variants[answer.variant] ?? 0) + 1;
    }
  }

  private handOver(): void {
    const start = this.since.toISOString();
    this.since = new Date();
    const stop = this.since.toISOString();
    const counts = this.counts;
    this.counts = new Map();
    for (const [environment, byApp] of counts) {
      for (const [appName, toggles] of byApp) {
        this.store.report({ appName, instanceId: 'ofrep', sdkVersion: 'ofrep', bucket: { start, stop, toggles: Object.fromEntries(toggles) } }, environment, this.clientIp);
      }
    }
  }
}

const pendingOf = new WeakMap<ClientMetricsStore, PendingEvaluations>();

/** Counts the answers one request got. */
export function countEvaluations(store: ClientMetricsStore, environment: string, appName: string, clientIp: string, answers: readonly CountedAnswer[]): void {
  let pending = pendingOf.get(store);
  if (!pending) pendingOf.set(store, (pending = new PendingEvaluations(store)));
  pending.count(environment, appName, clientIp, answers);
}
