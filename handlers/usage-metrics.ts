import type { components } from '../generated/api.js';
import type { Handlers } from '../domain/handler-context.js';
import { badGateway } from '../kernel/errors.js';
import { BUCKET_MS, bucketOf, type RequestCount } from '../kernel/request-counts.js';

type QueryResult = components['schemas']['PrometheusQueryResult'];
/** A point as the interface types it: Unix seconds as a string, the rate as a number. */
type Sample = QueryResult['data']['result'][number]['values'][number];
/** What Prometheus answers: the same, but its points are `[unix seconds, "value"]`. */
type PrometheusAnswer = { status: string; data: { resultType: string; result: { metric: Record<string, string>; values: [number, string][] }[] } };

/** What the usage metrics cover: the last 6 hours, at the step of the request counts' buckets (5 minutes). */
const WINDOW_MS = 6 * 3_600_000;
const STEP_SECONDS = BUCKET_MS / 1000;
/** How long Prometheus may take to answer (sent as its query `timeout` too). */
const PROMETHEUS_TIMEOUT_MS = 5000;
/** The largest answer read from Prometheus. */
const PROMETHEUS_MAX_ANSWER = 16 * 1024 * 1024;

/**
 * Unleash's queries (Dec 2022), per application and endpoint group: its label_replace of the route pattern,
 * `appName` `unknown` where the histogram has none (the admin API). `rate` rather than Unleash's `irate`:
 * the average over each 5-minute step, as the service's own counts give it.
 */
const requestRate = (paths: string) =>
  'sum by(appName, endpoint) (label_replace(label_replace(' +
  `rate(http_request_duration_milliseconds_count{path=~"${paths}"}[5m]), ` +
  '"endpoint", "$1", "path", "(/api/(?:client/)?[^/*]*).*"), "appName", "unknown", "appName", ""))';
const PROMETHEUS_QUERIES = { clientMetrics: requestRate('/api/client/.*'), adminMetrics: requestRate('/api/admin/.*') };

/** undici is loaded with the first query: most services never ask Prometheus. */
let prometheusClient: Promise<{ request: typeof import('undici').request; agent: import('undici').Agent }> | undefined;
const prometheus = () =>
  (prometheusClient ??= import('undici').then(({ Agent, request }) => ({ request, agent: new Agent({ maxResponseSize: PROMETHEUS_MAX_ANSWER }) })));

const isPoint = (point: unknown): point is [number, string] => Array.isArray(point) && point.length === 2 && typeof point[0] === 'number' && typeof point[1] === 'string';

function isQueryResult(value: unknown): value is PrometheusAnswer {
  const data = (value as PrometheusAnswer | null)?.data;
  return (
    typeof data?.resultType === 'string' &&
    Array.isArray(data.result) &&
    data.result.every((series) => typeof series?.metric === 'object' && series.metric !== null && Array.isArray(series.values) && series.values.every(isPoint))
  );
}

const sample = (seconds: number, rate: number): Sample => [String(seconds), rate];

/** Prometheus' answer with its points as the interface types them; a point whose value is no number (NaN, ±Inf) is left out. */
function asSamples(answer: PrometheusAnswer): QueryResult {
  const result = answer.data.result.map(({ metric, values }) => ({
    metric,
    values: values.map(([seconds, value]) => sample(seconds, Number(value))).filter(([, rate]) => Number.isFinite(rate)),
  }));
  return { status: answer.status, data: { resultType: answer.data.resultType, result } };
}

/** One query_range over the window; whatever goes wrong is a 502 that says what. */
async function queryRange(api: string, name: string, query: string, now: number): Promise<QueryResult> {
  const params = new URLSearchParams({ query, start: String(Math.floor((now - WINDOW_MS) / 1000)), end: String(Math.floor(now / 1000)), step: '5m', timeout: '5s' });
  const signal = AbortSignal.timeout(PROMETHEUS_TIMEOUT_MS);
  const failed = (what: string) => badGateway(`The ${name} query to Prometheus (PROMETHEUS_API) failed: ${what}. Check that Prometheus is up and scrapes this service.`);
  let text: string;
  let status: number;
  try {
    const { request, agent } = await prometheus();
    const response = await request(`${api}/api/v1/query_range?${params}`, { signal, dispatcher: agent, headers: { accept: 'application/json' } });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    if (signal.aborted) throw failed(`no answer within ${PROMETHEUS_TIMEOUT_MS / 1000} s`);
    const code = (error as { code?: string }).code;
    if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') throw failed(`an answer larger than ${PROMETHEUS_MAX_ANSWER / 1024 / 1024} MB`);
    throw failed(`no answer came (${code ?? (error as Error).name})`);
  }
  if (status < 200 || status > 299) throw failed(`it answered ${status}`);
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw failed('its answer is not JSON');
  }
  if (!isQueryResult(answer)) throw failed('its answer is not a query_range result');
  return asSamples(answer);
}

/** The counts as a query_range matrix of the buckets from `first` to `last`: a point per bucket for every series. */
function matrix(counts: RequestCount[], first: number, last: number): QueryResult {
  const steps = (last - first) / BUCKET_MS + 1;
  const series = new Map<string, { appName: string; endpoint: string; counts: number[] }>();
  for (const { bucket, appName, endpoint, count } of counts) {
    const step = (bucket.getTime() - first) / BUCKET_MS;
    if (step < 0 || step >= steps) continue;
    const key = JSON.stringify([appName, endpoint]);
    const found = series.get(key) ?? { appName, endpoint, counts: new Array<number>(steps).fill(0) };
    series.set(key, found);
    found.counts[step]! += count;
  }
  const result = [...series.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, { appName, endpoint, counts }]) => ({
      metric: { appName, endpoint },
      values: counts.map((count, step) => sample((first + step * BUCKET_MS) / 1000, count / STEP_SECONDS)),
    }));
  return { status: 'success', data: { resultType: 'matrix', result } };
}

export const usageMetricHandlers = {
  async getRequestsPerSecond(_request, { config, requestCounts }) {
    const now = Date.now();
    if (config.prometheusApi) {
      const [client, admin] = await Promise.all([
        queryRange(config.prometheusApi, 'clientMetrics', PROMETHEUS_QUERIES.clientMetrics, now),
        queryRange(config.prometheusApi, 'adminMetrics', PROMETHEUS_QUERIES.adminMetrics, now),
      ]);
      return { status: 200, body: { clientMetrics: client, adminMetrics: admin } };
    }
    // The window's 72 buckets, the current one (not over yet) last; each point stamped with its bucket's start.
    const last = bucketOf(now);
    const first = bucketOf(now - WINDOW_MS) + BUCKET_MS;
    const counts = await requestCounts.requestCountsSince(new Date(first));
    return {
      status: 200,
      body: {
        clientMetrics: matrix(counts.filter((c) => c.endpoint.startsWith('/api/client')), first, last),
        adminMetrics: matrix(counts.filter((c) => c.endpoint === '/api/admin'), first, last),
      },
    };
  },
} satisfies Partial<Handlers>;
