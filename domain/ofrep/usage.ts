// OFREP evaluations counted in the flags' usage, as the SDKs' own reports are: tallied per environment, application
// and answer (one increment per answer, at the answer's number), and handed to the usage store as reports before each
// of its flushes (so the last ones at shutdown too).
import type { SdkReports } from '../handler-context.js';

/** What is counted of one answer. */
export interface CountedAnswer {
  readonly key: string;
  readonly enabled: boolean;
  readonly variant?: string | undefined;
}

/** Answers by their number: what the indexes of a tally mean. */
export type AnswerTable = readonly CountedAnswer[];

type Counts = { yes: number; no: number; variants: Record<string, number> };

/** environment → application → answer table → how often each of its answers was given, since `since`. */
class PendingEvaluations {
  private tallies = new Map<string, Map<string, Map<AnswerTable, number[]>>>();
  private since = new Date();
  /** The address of the latest caller, for the application's instance. */
  private clientIp = '';

  constructor(private readonly store: SdkReports) {
    store.addCollector(() => this.handOver());
  }

  count(environment: string, appName: string, clientIp: string, table: AnswerTable, answers: readonly number[]): void {
    this.clientIp = clientIp;
    let byApp = this.tallies.get(environment);
    if (!byApp) this.tallies.set(environment, (byApp = new Map()));
    let byTable = byApp.get(appName);
    if (!byTable) byApp.set(appName, (byTable = new Map()));
    let tally = byTable.get(table);
    if (!tally) byTable.set(table, (tally = []));
    while (tally.length < table.length) tally.push(0);
    for (let i = 0; i < answers.length; i++) tally[answers[i]!]!++;
  }

  private handOver(): void {
    const start = this.since.toISOString();
    this.since = new Date();
    const stop = this.since.toISOString();
    const tallies = this.tallies;
    this.tallies = new Map();
    for (const [environment, byApp] of tallies) {
      for (const [appName, byTable] of byApp) {
        const toggles: Record<string, Counts> = {};
        for (const [table, tally] of byTable) {
          tally.forEach((times, slot) => {
            if (times > 0) add((toggles[table[slot]!.key] ??= { yes: 0, no: 0, variants: {} }), table[slot]!, times);
          });
        }
        this.store.report({ appName, instanceId: 'ofrep', sdkVersion: 'ofrep', bucket: { start, stop, toggles } }, environment, this.clientIp);
      }
    }
  }
}

function add(counts: Counts, answer: CountedAnswer, times: number): void {
  if (answer.enabled) counts.yes += times;
  else counts.no += times;
  if (answer.variant !== undefined) counts.variants[answer.variant] = (counts.variants[answer.variant] ?? 0) + times;
}

const pendingOf = new WeakMap<SdkReports, PendingEvaluations>();

/** Counts the answers one request got, each a number in `table`. */
export function countEvaluations(store: SdkReports, environment: string, appName: string, clientIp: string, table: AnswerTable, answers: readonly number[]): void {
  let pending = pendingOf.get(store);
  if (!pending) pendingOf.set(store, (pending = new PendingEvaluations(store)));
  pending.count(environment, appName, clientIp, table, answers);
}
