import type { Handlers } from '../domain/handler-context.js';
import { listImpactMetrics } from '../domain/impact-metrics/catalog.js';
import { PROMETHEUS_TEXT, prometheusText } from '../domain/impact-metrics/prometheus.js';
import { AGGREGATIONS, findMetric, impactMetricSeries, type LabelSelectors } from '../domain/impact-metrics/query.js';
import { badRequest, notFound } from '../kernel/errors.js';

const SELECTORS_FORM = 'labels must be a JSON object of arrays of strings, e.g. {"appName":["shop"]}';

function labelSelectors(text: string | undefined): LabelSelectors {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest(`${SELECTORS_FORM}; it is not JSON.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest(`${SELECTORS_FORM}.`);
  for (const [label, values] of Object.entries(parsed)) {
    if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) throw badRequest(`${SELECTORS_FORM}; "${label}" is not.`);
  }
  return parsed as LabelSelectors;
}

export const impactMetricHandlers = {
  async getImpactMetrics(_request, { db }) {
    return { status: 200, body: await listImpactMetrics(db) };
  },

  async getImpactMetricSeries({ params, query }, { db }) {
    const selectors = labelSelectors(query?.labels);
    const metric = await findMetric(db, params.metricName);
    if (!metric) throw notFound(`No impact metric named "${params.metricName}" has been reported within the retention.`);
    const allowed = AGGREGATIONS[metric.type];
    const aggregation = query?.aggregationMode ?? allowed[0]!;
    if (!allowed.includes(aggregation)) throw badRequest(`"${metric.name}" is a ${metric.type}: aggregationMode must be one of ${allowed.join(', ')}.`);
    return { status: 200, body: await impactMetricSeries(db, metric, query?.range ?? 'hour', aggregation, selectors) };
  },

  async getImpactMetricsPrometheus(_request, { db }) {
    return { status: 200, body: { preSerialized: Buffer.from(await prometheusText(db)) }, headers: { 'content-type': PROMETHEUS_TEXT } };
  },
} satisfies Partial<Handlers>;
