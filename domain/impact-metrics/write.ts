// Writing gathered impact metrics (ingest.ts), inside the flush's transaction: per minute and series summed with what
// other flushes and replicas wrote, each name's series held to its bound under a lock, so replicas cannot pass it together.
import { lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { INSERT_BATCH } from '../../db/batches.js';
import * as t from '../../db/schema.js';
import type { HistogramBuckets } from '../../db/schema.js';
import { addBuckets } from './quantile.js';
import type { ImpactMetricType, ImpactSeriesWrite } from './ingest.js';

/** Adds the buckets of the row being inserted to those stored, `le` by `le`. */
const sumBuckets = (table: string) =>
  sql.raw(
    `(select jsonb_object_agg(k, coalesce((${table}.buckets->>k)::float8, 0) + coalesce((excluded.buckets->>k)::float8, 0))` +
      ` from jsonb_object_keys(coalesce(${table}.buckets, '{}'::jsonb) || coalesce(excluded.buckets, '{}'::jsonb)) as k)`,
  );
const added = (table: string, column: string) => sql.raw(`${table}.${column} + excluded.${column}`);
const replaced = (column: string) => sql.raw(`excluded.${column}`);

/** How a stored row takes a new one: gauges the new value, counters and histograms summed. */
function combined(table: string, type: ImpactMetricType, total: string): Record<string, SQL> {
  if (type === 'gauge') return { [total]: replaced(total) };
  if (type === 'counter') return { [total]: added(`"${table}"`, total) };
  return { [total]: added(`"${table}"`, total), sum: added(`"${table}"`, 'sum'), buckets: sumBuckets(`"${table}"`) };
}

/** The series' totals from its minutes: a counter's increase, a histogram's observations, a gauge's latest value. */
function totals(write: ImpactSeriesWrite) {
  if (write.type === 'gauge') return { total: write.minutes.at(-1)?.value ?? 0, sum: 0, buckets: null };
  const buckets: HistogramBuckets = {};
  for (const m of write.minutes) if (m.buckets) addBuckets(buckets, m.buckets);
  return {
    total: write.minutes.reduce((n, m) => n + m.value, 0),
    sum: write.minutes.reduce((n, m) => n + m.sum, 0),
    buckets: write.type === 'histogram' ? buckets : null,
  };
}

/**
 * Marks the writes not to store (`refused`): of a type other than the name's, or of a new label set once the name has
 * `limit` series in the database. Answers those to store.
 */
async function admitted(tx: Db, name: string, writes: ImpactSeriesWrite[]): Promise<ImpactSeriesWrite[]> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`impact_metric_series:${name}`}))`);
  const stored = await tx
    .select({ labelsKey: t.impactMetricSeries.labelsKey, type: t.impactMetricSeries.type })
    .from(t.impactMetricSeries)
    .where(sql`${t.impactMetricSeries.name} = ${name}`);
  const known = new Set(stored.map((s) => s.labelsKey));
  const type = stored[0]?.type ?? writes[0]?.type;
  let room = (writes[0]?.limit ?? 0) - known.size;
  return writes.filter((write) => {
    write.refused = undefined;
    if (write.type !== type) write.refused = 'type';
    else if (!known.has(write.labelsKey) && room-- <= 0) write.refused = 'bound';
    return write.refused === undefined;
  });
}

async function upsert(tx: Db, type: ImpactMetricType, writes: ImpactSeriesWrite[]) {
  const updatedAt = new Date();
  for (let i = 0; i < writes.length; i += INSERT_BATCH) {
    const chunk = writes.slice(i, i + INSERT_BATCH);
    await tx
      .insert(t.impactMetricSeries)
      .values(chunk.map((w) => ({ name: w.name, labelsKey: w.labelsKey, type: w.type, help: w.help, labels: w.labels, updatedAt, ...totals(w) })))
      .onConflictDoUpdate({
        target: [t.impactMetricSeries.name, t.impactMetricSeries.labelsKey],
        set: { help: replaced('help'), updatedAt: replaced('updated_at'), ...combined('impact_metric_series', type, 'total') },
      });
  }
  const minutes = writes.flatMap((w) => w.minutes.map((m) => ({ name: w.name, labelsKey: w.labelsKey, ...m })));
  for (let i = 0; i < minutes.length; i += INSERT_BATCH) {
    await tx
      .insert(t.impactMetricMinutes)
      .values(minutes.slice(i, i + INSERT_BATCH))
      .onConflictDoUpdate({
        target: [t.impactMetricMinutes.name, t.impactMetricMinutes.labelsKey, t.impactMetricMinutes.minute],
        set: combined('impact_metric_minutes', type, 'value'),
      });
  }
}

/** Stores the series' minutes and totals, name by name and in key order (so replicas lock in the same order). */
export async function writeImpactSeries(tx: Db, writes: ImpactSeriesWrite[]): Promise<void> {
  const byName = new Map<string, ImpactSeriesWrite[]>();
  for (const write of writes) {
    const named = byName.get(write.name);
    if (named) named.push(write);
    else byName.set(write.name, [write]);
  }
  for (const name of [...byName.keys()].sort()) {
    const kept = await admitted(tx, name, byName.get(name)!.sort((a, b) => (a.labelsKey < b.labelsKey ? -1 : a.labelsKey > b.labelsKey ? 1 : 0)));
    if (kept.length > 0) await upsert(tx, kept[0]!.type, kept);
  }
}

/** Deletes the minutes older than `before`, and the series none reported since. */
export async function expireImpact(tx: Db, before: Date): Promise<void> {
  await tx.delete(t.impactMetricMinutes).where(lt(t.impactMetricMinutes.minute, before));
  await tx.delete(t.impactMetricSeries).where(lt(t.impactMetricSeries.updatedAt, before));
}
