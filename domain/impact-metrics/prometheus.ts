// Every stored impact metric series in Prometheus' text format 0.0.4, with Unleash's names: counters and histograms
// their totals since first reported, gauges their latest value.
import { asc } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { sortedBuckets } from './quantile.js';

export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

const escapeHelp = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
const escapeValue = (text: string) => escapeHelp(text).replaceAll('"', '\\"');
const number = (n: number) => (n === Infinity ? '+Inf' : n === -Infinity ? '-Inf' : String(n));

function labelText(labels: Record<string, string>, extra: Record<string, string> = {}): string {
  const all = Object.entries({ ...labels, ...extra }).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${all.map(([name, value]) => `${name}="${escapeValue(value)}"`).join(',')}}`;
}

export async function prometheusText(db: Db): Promise<string> {
  const rows = await db.select().from(t.impactMetricSeries).orderBy(asc(t.impactMetricSeries.name), asc(t.impactMetricSeries.labelsKey));
  const lines: string[] = [];
  let previous: string | undefined;
  for (const row of rows) {
    const name = `unleash_${row.type}_${row.name}`;
    if (name !== previous) lines.push(`# HELP ${name} ${escapeHelp(row.help)}`, `# TYPE ${name} ${row.type}`);
    previous = name;
    if (row.type !== 'histogram') {
      lines.push(`${name}${labelText(row.labels)} ${number(row.total)}`);
      continue;
    }
    const { le: _reserved, ...labels } = row.labels;
    for (const { le, count } of sortedBuckets(row.buckets ?? {})) {
      if (le !== Infinity) lines.push(`${name}_bucket${labelText(labels, { le: number(le) })} ${number(count)}`);
    }
    lines.push(`${name}_bucket${labelText(labels, { le: '+Inf' })} ${number(row.total)}`);
    lines.push(`${name}_sum${labelText(labels)} ${number(row.sum)}`, `${name}_count${labelText(labels)} ${number(row.total)}`);
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
