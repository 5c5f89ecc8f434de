// The impact metrics stored, each with its series' label names and values (getImpactMetrics).
import { asc } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';

type ImpactMetricInfo = components['schemas']['ImpactMetricInfo'];

export async function listImpactMetrics(db: Db): Promise<ImpactMetricInfo[]> {
  const rows = await db
    .select({ name: t.impactMetricSeries.name, type: t.impactMetricSeries.type, help: t.impactMetricSeries.help, labels: t.impactMetricSeries.labels })
    .from(t.impactMetricSeries)
    .orderBy(asc(t.impactMetricSeries.name), asc(t.impactMetricSeries.labelsKey));
  const metrics = new Map<string, { info: ImpactMetricInfo; values: Map<string, Set<string>> }>();
  for (const { name, type, help, labels } of rows) {
    let metric = metrics.get(name);
    if (!metric) metrics.set(name, (metric = { info: { name, type, help, series: 0, labels: {} }, values: new Map() }));
    metric.info.series++;
    for (const [label, value] of Object.entries(labels)) {
      const values = metric.values.get(label) ?? new Set<string>();
      metric.values.set(label, values.add(value));
    }
  }
  return [...metrics.values()].map(({ info, values }) => ({
    ...info,
    labels: Object.fromEntries([...values].sort(([a], [b]) => (a < b ? -1 : 1)).map(([label, seen]) => [label, [...seen].sort()])),
  }));
}
