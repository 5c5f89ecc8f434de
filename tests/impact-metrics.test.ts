// Impact metrics reported by the real Node SDK and in raw reports: stored per minute, read per step and over the range,
// and exported in Prometheus' text format.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok, until } from './support/fixtures.js';
import { counter, cumulativeBuckets, expectedQuantile, listedMetric, reportingSdk, reportWith, sampleValue, seriesOf } from './support/impact-metrics.js';

let app: TestApp;
let token: string;
const unique = uniqueNames();
/** Metric names are unique per test: on PostgreSQL the file's tests share one database. */
const metricName = (prefix: string) => unique(prefix).replaceAll('-', '_');

beforeAll(async () => {
  app = await startTestApp();
  token = await newApiToken(app, { type: 'client', environment: 'development' });
});

const report = (body: object) => call(app, 'POST', '/api/client/metrics', { token, body });
/** The metric's count over the last hour; null before it is stored. */
const countOf = async (name: string, labels?: string) => (await seriesOf(app, name, { aggregationMode: 'count', ...(labels && { labels }) })).data?.value ?? null;

describe('the real unleash-client 6.12.1', () => {
  it('records a counter: the count and its rate over the range, and its total in the Prometheus export', async () => {
    const name = metricName('checkouts');
    const sdk = await reportingSdk(app.url, token, 'shop', 'shop-1');
    sdk.impactMetrics.defineCounter(name, 'Checkouts done');
    for (let i = 0; i < 7; i++) sdk.impactMetrics.incrementCounter(name);
    sdk.impactMetrics.incrementCounter(name, 5);

    await until('the 12 checkouts', () => countOf(name), (count) => count === 12);
    const rate = await ok(seriesOf(app, name));
    expect(rate).toMatchObject({ metricName: name, type: 'counter', aggregationMode: 'rps', step: 60 });
    const rangeSeconds = (Date.parse(rate.end) - Date.parse(rate.start)) / 1000;
    expect(rate.value).toBeCloseTo(12 / rangeSeconds, 9);
    expect(rate.data).toHaveLength(60);
    expect(rate.data.reduce((sum, [, v]) => sum + (v ?? 0) * 60, 0)).toBeCloseTo(12, 6);

    const exported = await call(app, 'GET', '/api/admin/impact-metrics/export/prometheus');
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(exported.text).toContain(`# HELP unleash_counter_${name} Checkouts done\n# TYPE unleash_counter_${name} counter\n`);
    expect(sampleValue(exported.text, `unleash_counter_${name}`, { appName: 'shop', environment: 'development', origin: 'sdk' })).toBe(12);
  });

  it('records a histogram: p50, p95 and p99 interpolated in its buckets, avg, count, sum, and its buckets in the export', async () => {
    const name = metricName('latency');
    const bounds = [0.1, 0.5, 1, 2.5];
    // Spread from 0 to 2.4, so that each quantile falls inside a finite bucket, and p95 and p99 differ.
    const observations = Array.from({ length: 50 }, (_, i) => i * 0.049);
    const sdk = await reportingSdk(app.url, token, 'shop', 'shop-2');
    sdk.impactMetrics.defineHistogram(name, 'Checkout seconds', bounds);
    for (const o of observations) sdk.impactMetrics.observeHistogram(name, o);

    await until('the observations', () => countOf(name), (count) => count === observations.length);
    const buckets = cumulativeBuckets(observations, bounds);
    for (const [mode, q] of [['p50', 0.5], ['p95', 0.95], ['p99', 0.99]] as const) {
      const read = await ok(seriesOf(app, name, { aggregationMode: mode }));
      expect(read.value, mode).toBeCloseTo(expectedQuantile(q, buckets), 9);
    }
    const sum = observations.reduce((a, b) => a + b, 0);
    expect((await ok(seriesOf(app, name, { aggregationMode: 'sum' }))).value).toBeCloseTo(sum, 9);
    expect((await ok(seriesOf(app, name, { aggregationMode: 'avg' }))).value).toBeCloseTo(sum / observations.length, 9);
    expect((await ok(seriesOf(app, name))).aggregationMode).toBe('p95');

    const { text } = await call(app, 'GET', '/api/admin/impact-metrics/export/prometheus');
    const labels = { appName: 'shop', environment: 'development', origin: 'sdk' };
    expect(text).toContain(`# TYPE unleash_histogram_${name} histogram\n`);
    for (const { le, count } of buckets) {
      expect(sampleValue(text, `unleash_histogram_${name}_bucket`, { ...labels, le: le === Infinity ? '+Inf' : String(le) }), `le ${le}`).toBe(count);
    }
    expect(sampleValue(text, `unleash_histogram_${name}_count`, labels)).toBe(observations.length);
    expect(sampleValue(text, `unleash_histogram_${name}_sum`, labels)).toBeCloseTo(sum, 9);
  });

  it('sums two instances of an application in one series', async () => {
    const name = metricName('signups');
    const [one, two] = [await reportingSdk(app.url, token, 'signup', 'signup-1'), await reportingSdk(app.url, token, 'signup', 'signup-2')];
    for (const sdk of [one, two]) sdk.impactMetrics.defineCounter(name, 'Signups');
    one.impactMetrics.incrementCounter(name, 3);
    two.impactMetrics.incrementCounter(name, 4);
    await until('both instances counted', () => countOf(name), (count) => count === 7);
    expect(await listedMetric(app, name)).toEqual({
      name,
      type: 'counter',
      help: 'Signups',
      series: 1,
      labels: { appName: ['signup'], environment: ['development'], origin: ['sdk'] },
    });
  });
});

describe('reading', () => {
  it('chooses series by label selectors', async () => {
    const name = metricName('orders');
    const labelled = (route: string, value: number) => ({ value, labels: { route } });
    expect((await report(reportWith('orders-a', [counter(name, [labelled('/a', 3), labelled('/b', 4)])]))).status).toBe(202);
    expect((await report(reportWith('orders-b', [counter(name, [labelled('/a', 10)])]))).status).toBe(202);
    await until('every order', () => countOf(name), (count) => count === 17);
    expect(await countOf(name, JSON.stringify({ route: ['/a'] }))).toBe(13);
    expect(await countOf(name, JSON.stringify({ route: ['/a', '/b'], appName: ['orders-a'] }))).toBe(7);
    expect(await countOf(name, JSON.stringify({ route: ['/c'] }))).toBeNull();
    expect(await countOf(name, JSON.stringify({ route: [] }))).toBeNull();
  });

  it('refuses labels that are not a JSON object of string arrays with 400', async () => {
    const name = metricName('refused');
    expect((await report(reportWith('refused', [counter(name, [{ value: 1 }])]))).status).toBe(202);
    await until('the metric', () => listedMetric(app, name), (m) => m !== undefined);
    for (const labels of ['{appName', '["shop"]', '{"appName":"shop"}', '{"appName":[1]}', 'null']) {
      const refused = expectError(await seriesOf(app, name, { labels }), 400, 'ValidationError');
      expect(refused.message, labels).toContain('labels must be a JSON object of arrays of strings');
    }
  });

  it('answers 404 for a metric never reported', async () => {
    expectError(await seriesOf(app, metricName('never')), 404, 'NotFoundError');
  });

  it("accepts the name with Unleash's prefix of its type, and no other", async () => {
    const name = metricName('prefixed');
    expect((await report(reportWith('prefixed', [counter(name, [{ value: 2 }])]))).status).toBe(202);
    await until('the metric', () => countOf(name), (count) => count === 2);
    expect(await ok(seriesOf(app, `unleash_counter_${name}`, { aggregationMode: 'count' }))).toMatchObject({ metricName: name, value: 2 });
    expectError(await seriesOf(app, `unleash_gauge_${name}`), 404, 'NotFoundError');
  });

  it("refuses an aggregation the metric's type has not with 400", async () => {
    const name = metricName('typed');
    expect((await report(reportWith('typed', [counter(name, [{ value: 2 }])]))).status).toBe(202);
    await until('the metric', () => listedMetric(app, name), (m) => m !== undefined);
    const refused = expectError(await seriesOf(app, name, { aggregationMode: 'p95' }), 400, 'ValidationError');
    expect(refused.message).toContain('rps, count, sum');
  });

  it('answers a step per 15 minutes for a day, an hour for a week, a day for a month', async () => {
    const name = metricName('ranges');
    expect((await report(reportWith('ranges', [counter(name, [{ value: 6 }])]))).status).toBe(202);
    await until('the metric', () => countOf(name), (count) => count === 6);
    for (const [range, step, points] of [['day', 900, 96], ['week', 3600, 168], ['month', 86_400, 30]] as const) {
      const read = await ok(seriesOf(app, name, { range, aggregationMode: 'count' }));
      expect([read.step, read.data.length, read.value], range).toEqual([step, points, 6]);
      expect(read.data.at(-1)![1], range).toBe(6);
    }
  });
});

describe('a report with a malformed impact metric', () => {
  it('keeps the good metrics and the flag counts of the report, and logs the bad one', async () => {
    const { createFlag, usageOf } = fixtures(() => app, unique);
    const flag = unique('flag');
    await createFlag('default', flag);
    const [good, bad, badHistogram] = [metricName('good'), metricName('bad'), metricName('bad_histogram')];
    const metrics = [
      counter(good, [{ value: 4 }]),
      { name: bad, help: 'no type' , samples: [{ value: 1 }] },
      { name: badHistogram, help: 'buckets missing', type: 'histogram', samples: [{ count: 1, sum: 1 }] },
      counter('not a name!', [{ value: 1 }]),
    ];
    expect((await report(reportWith('mixed', metrics, { [flag]: { yes: 2, no: 1 } }))).status).toBe(202);
    await until('the good metric', () => countOf(good), (count) => count === 4);
    const usage = await until('the flag counts', () => usageOf(flag), (u) => u.metrics.length > 0);
    expect(usage.metrics).toMatchObject([{ appName: 'mixed', yes: 2, no: 1 }]);
    for (const name of [bad, badHistogram]) expect(await listedMetric(app, name)).toBeUndefined();
    const warnings = app.logs.map((line) => JSON.parse(line)).filter((l) => l.level === 40 && String(l.msg).includes('impact metric that does not match'));
    expect(warnings.map((w) => w.metric).sort()).toEqual([bad, badHistogram, 'not a name!'].sort());
    expect(warnings.every((w) => w.appName === 'mixed' && typeof w.reason === 'string')).toBe(true);
  });
});
