import { inArray, lt, Param, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { RecordEvent } from '../events/event-log.js';
import type { RequestCount } from '../../kernel/request-counts.js';
import type { ImpactSeriesWrite, ImpactWrite } from '../impact-metrics/ingest.js';
import { expireImpact, writeImpactSeries } from '../impact-metrics/write.js';

/** One row (or update) of what SDKs reported or the service counted: the unit that a failed flush retries and, if the database refuses it, drops. */
export type ReportWrite =
  | { kind: 'application'; appName: string; strategies: Set<string>; lastSeen: Date }
  | { kind: 'instance'; appName: string; instanceId: string; environment: string; sdkVersion: string | null; clientIp: string | null; lastSeen: Date }
  | { kind: 'count'; featureName: string; appName: string; environment: string; hour: Date; yes: number; no: number; variants: Record<string, number> }
  | { kind: 'seen'; featureName: string; environment: string; at: Date }
  | ({ kind: 'requests' } & RequestCount)
  | { kind: 'expire-requests'; before: Date }
  | ImpactWrite;

/** The largest count kept: sums stop there rather than overflow bigint or lose precision in JavaScript. */
export const MAX_COUNT = Number.MAX_SAFE_INTEGER;

const hourly = '"client_metrics_hourly"';
const capped = (expression: string) => `least(${expression}, ${MAX_COUNT})::bigint`;
/** Adds the variant counts of the new row to those of the stored one, key by key, capped like the totals. */
const sumVariants = sql.raw(
  `(select coalesce(jsonb_object_agg(k, ${capped(`coalesce((${hourly}.variants->>k)::numeric, 0) + coalesce((excluded.variants->>k)::numeric, 0)`)}), '{}'::jsonb)` +
    ` from jsonb_object_keys(${hourly}.variants || excluded.variants) as k)`,
);

/**
 * SQLSTATE classes that say the values are wrong (21 cardinality, 22 data exception, 23 integrity
 * constraint, 42 a value the statement cannot use, 54 beyond a limit such as an index row's size):
 * retrying the same rows cannot help. Anything else (a lost connection, a deadlock) may pass next time.
 */
export function isRefusedData(error: unknown): boolean {
  for (let e: any = error; e; e = e.cause) {
    if (typeof e.code === 'string' && /^(21|22|23|42|54)[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  return false;
}

/** What a dropped write was about, for the log line (no counts, nothing secret). */
export function describeWrite(write: ReportWrite): Record<string, string> {
  switch (write.kind) {
    case 'application':
      return { kind: write.kind, appName: write.appName };
    case 'instance':
      return { kind: write.kind, appName: write.appName, instanceId: write.instanceId, environment: write.environment };
    case 'count':
      return { kind: write.kind, appName: write.appName, featureName: write.featureName, environment: write.environment, hour: write.hour.toISOString() };
    case 'seen':
      return { kind: write.kind, featureName: write.featureName, environment: write.environment };
    case 'requests':
      return { kind: write.kind, appName: write.appName, endpoint: write.endpoint, bucket: write.bucket.toISOString() };
    case 'expire-requests':
    case 'expire-impact':
      return { kind: write.kind, before: write.before.toISOString() };
    case 'impact':
      return { kind: write.kind, name: write.name, labels: write.labelsKey };
  }
}

/** Writes, in one transaction, what `writes` hold; records `application-created` for applications new to the database. */
export async function writeReports(tx: Db, record: RecordEvent, writes: readonly ReportWrite[]): Promise<void> {
  const applications = writes.filter((w) => w.kind === 'application');
  const existing = new Set(
    applications.length === 0
      ? []
      : (
          await tx
            .select({ appName: t.clientApplications.appName })
            .from(t.clientApplications)
            .where(inArray(t.clientApplications.appName, applications.map((a) => a.appName)))
        ).map((a) => a.appName),
  );
  for (const write of writes) {
    switch (write.kind) {
      case 'application': {
        const strategies = [...write.strategies];
        await tx
          .insert(t.clientApplications)
          // Seen when its instances last reported, not when the report was written; the latest of every replica's.
          .values({ appName: write.appName, strategies, createdAt: write.lastSeen, lastSeen: write.lastSeen })
          .onConflictDoUpdate({
            target: t.clientApplications.appName,
            set: { lastSeen: sql`greatest(${t.clientApplications.lastSeen}, excluded.last_seen)`, ...(strategies.length > 0 && { strategies }) },
          });
        if (!existing.has(write.appName)) await record({ type: 'application-created', data: { appName: write.appName, strategies } });
        break;
      }
      case 'instance': {
        const { kind: _kind, ...instance } = write;
        await tx
          .insert(t.clientInstances)
          .values(instance)
          .onConflictDoUpdate({
            target: [t.clientInstances.appName, t.clientInstances.instanceId, t.clientInstances.environment],
            set: { lastSeen: instance.lastSeen, clientIp: instance.clientIp, ...(instance.sdkVersion && { sdkVersion: instance.sdkVersion }) },
          });
        break;
      }
      case 'count':
      case 'seen':
      case 'requests':
      case 'impact':
        break; // below, many rows to a statement
      case 'expire-requests':
        await tx.delete(t.requestCounts).where(lt(t.requestCounts.bucket, write.before));
        break;
      case 'expire-impact':
        await expireImpact(tx, write.before);
        break;
    }
  }
  await addHourlyCounts(tx, writes.filter((w): w is CountWrite => w.kind === 'count'));
  await markSeen(tx, writes.filter((w): w is SeenWrite => w.kind === 'seen'));
  await addRequestCounts(tx, writes.flatMap(({ kind, ...count }) => (kind === 'requests' ? [count as RequestCount] : [])));
  await writeImpactSeries(tx, writes.filter((w): w is ImpactSeriesWrite => w.kind === 'impact'));
}

/** Rows per statement (at most 7 parameters each, well below PostgreSQL's 65,535). */
const ROWS_PER_STATEMENT = 1000;

type CountWrite = Extract<ReportWrite, { kind: 'count' }>;
type SeenWrite = Extract<ReportWrite, { kind: 'seen' }>;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Chunks of at most ROWS_PER_STATEMENT. */
const chunks = <T>(rows: T[]): T[][] => Array.from({ length: Math.ceil(rows.length / ROWS_PER_STATEMENT) }, (_, i) => rows.slice(i * ROWS_PER_STATEMENT, (i + 1) * ROWS_PER_STATEMENT));

/** Adds the flags' counts to those other flushes and replicas wrote, many rows to a statement, in key order (as below). */
async function addHourlyCounts(tx: Db, writes: CountWrite[]): Promise<void> {
  writes.sort(
    (a, b) => byText(a.featureName, b.featureName) || byText(a.appName, b.appName) || byText(a.environment, b.environment) || a.hour.getTime() - b.hour.getTime(),
  );
  for (const chunk of chunks(writes)) {
    await tx
      .insert(t.clientMetricsHourly)
      .values(chunk.map(({ kind: _kind, ...count }) => count))
      .onConflictDoUpdate({
        target: [t.clientMetricsHourly.featureName, t.clientMetricsHourly.appName, t.clientMetricsHourly.environment, t.clientMetricsHourly.hour],
        set: { yes: sql.raw(capped(`${hourly}.yes::numeric + excluded.yes`)), no: sql.raw(capped(`${hourly}.no::numeric + excluded.no`)), variants: sumVariants },
      });
  }
}

/** When each flag was last seen, per environment and in all: one statement for each, whatever the number of flags. */
async function markSeen(tx: Db, writes: SeenWrite[]): Promise<void> {
  writes.sort((a, b) => byText(a.featureName, b.featureName) || byText(a.environment, b.environment));
  for (const chunk of chunks(writes)) {
    const seen = sql`unnest(${new Param(chunk.map((w) => w.featureName))}::text[], ${new Param(chunk.map((w) => w.environment))}::text[], ${new Param(chunk.map((w) => w.at.toISOString()))}::timestamptz[]) as seen(feature_name, environment, at)`;
    await tx.execute(
      sql`update feature_environments set last_seen_at = seen.at from ${seen} where feature_environments.feature_name = seen.feature_name and feature_environments.environment = seen.environment`,
    );
    await tx.execute(
      sql`update features set last_seen_at = latest.at from (select feature_name, max(at) as at from ${seen} group by feature_name) as latest where features.name = latest.feature_name`,
    );
  }
}

const countOrder = (a: RequestCount, b: RequestCount) =>
  a.bucket.getTime() - b.bucket.getTime() || (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : a.appName < b.appName ? -1 : a.appName > b.appName ? 1 : 0);

/**
 * Adds the counts to those of the same bucket, application and endpoint group that other flushes and replicas
 * wrote; in key order, so that two replicas adding to the same rows lock them in the same order.
 */
async function addRequestCounts(tx: Db, counts: RequestCount[]): Promise<void> {
  counts.sort(countOrder);
  for (let i = 0; i < counts.length; i += ROWS_PER_STATEMENT) {
    await tx
      .insert(t.requestCounts)
      .values(counts.slice(i, i + ROWS_PER_STATEMENT))
      .onConflictDoUpdate({
        target: [t.requestCounts.bucket, t.requestCounts.appName, t.requestCounts.endpoint],
        set: { count: sql.raw(capped('"request_counts".count::numeric + excluded.count')) },
      });
  }
}
