// Impact metrics held in bounds: label sets per metric, and the retention of minutes and series; gauges across series.
import { beforeAll, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { call, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { newApiToken, ok, until } from './support/fixtures.js';
import { counter, gauge, listedMetric, reportWith, seriesOf, type ImpactMetric } from './support/impact-metrics.js';

let app: TestApp;
let token: string;
const unique = uniqueNames();
const metricName = (prefix: string) => unique(prefix).replaceAll('-', '_');

beforeAll(async () => {
  app = await startTestApp();
  token = await newApiToken(app, { type: 'client', environment: 'development' });
});

const reportTo = (on: TestApp, secret: string, body: object) => call(on, 'POST', '/api/client/metrics', { token: secret, body });
const valueOf = async (on: TestApp, name: string, aggregationMode: 'count' | 'last' | 'avg') =>
  (await seriesOf(on, name, { aggregationMode })).data?.value ?? null;

/** `count` samples of the counter, each with a label set of its own from `from` on, 1000 to a metric (the contract's most). */
const spread = (name: string, from: number, count: number): ImpactMetric[] =>
  Array.from({ length: Math.ceil(count / 1000) }, (_, chunk) =>
    counter(name, Array.from({ length: Math.min(1000, count - chunk * 1000) }, (_, i) => ({ value: 1, labels: { user: `u${from + chunk * 1000 + i}` } }))),
  );

it('stops 10,000 label sets of one metric at the bound of 1000, with warnings naming the metric, the bound and how many were dropped, and does not grow past it', async () => {
  const name = metricName('per_user');
  for (let from = 0; from < 10_000; from += 2000) expect((await reportTo(app, token, reportWith('users', spread(name, from, 2000)))).status).toBe(202);
  await until('the bound reached', () => listedMetric(app, name), (m) => m?.series === 1000);
  const boundLines = () => app.logs.map((line) => JSON.parse(line)).filter((l) => l.level === 40 && l.metric === name && l.limit === 1000);
  await until('the warnings', async () => boundLines().reduce((n, l) => n + l.dropped, 0), (dropped) => dropped === 9000);
  expect(boundLines()[0].msg).toContain(`impact metric "${name}" has reached its bound of 1000 label sets`);

  expect((await reportTo(app, token, reportWith('users', spread(name, 10_000, 500)))).status).toBe(202);
  expect((await reportTo(app, token, reportWith('users', [counter(name, [{ value: 5, labels: { user: 'u0' } }])]))).status).toBe(202);
  await until('the known label set counted', () => valueOf(app, name, 'count'), (count) => count === 1005);
  await until('the later drops logged', async () => boundLines().reduce((n, l) => n + l.dropped, 0), (dropped) => dropped === 9500);
  expect((await listedMetric(app, name))!.series).toBe(1000);
});

it('sums gauges across series: the latest value of each, or the mean of its minutes', async () => {
  const name = metricName('queue');
  for (const [appName, value] of [['worker-a', 20], ['worker-b', 5]] as const) {
    expect((await reportTo(app, token, reportWith(appName, [gauge(name, [{ value }])]))).status).toBe(202);
  }
  await until('both latest values', () => valueOf(app, name, 'last'), (last) => last === 25);
  // A minute before this one, which no report can write any more: worker-a was at 14 then.
  const labelsKey = JSON.stringify({ appName: 'worker-a', environment: 'development', origin: 'sdk' });
  const earlier = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 120_000);
  await app.db.insert(t.impactMetricMinutes).values({ name, labelsKey, minute: earlier, value: 14 });
  expect(await valueOf(app, name, 'avg')).toBe((14 + 20) / 2 + 5);
  expect(await valueOf(app, name, 'last')).toBe(25);
  const { data } = await ok(seriesOf(app, name, { aggregationMode: 'last' }));
  expect(data.filter(([, v]) => v !== null).map(([, v]) => v)).toEqual([14, 25]);
});

it('deletes minutes older than the retention, and series none reported within it', async () => {
  const own = await startTestApp({ ownDatabase: true, releases: { impactRetentionMs: 1500 } });
  const ownToken = await newApiToken(own, { type: 'client', environment: 'development' });
  const name = metricName('retained');
  expect((await reportTo(own, ownToken, reportWith('kept', [counter(name, [{ value: 5 }])]))).status).toBe(202);
  await until('the 5 stored', () => valueOf(own, name, 'count'), (count) => count === 5);

  // The SDK reports its counter every interval, 0 when nothing happened: the series stays, its old minute goes.
  const zeros = setInterval(() => void reportTo(own, ownToken, reportWith('kept', [counter(name, [{ value: 0 }])])), 200);
  try {
    await until('the old minute deleted', () => valueOf(own, name, 'count'), (count) => count !== 5, 10_000);
    expect((await seriesOf(own, name)).response.status).toBe(200);
  } finally {
    clearInterval(zeros);
  }
  await until('the series deleted', () => seriesOf(own, name), (read) => read.response.status === 404, 10_000);
  expect(await listedMetric(own, name)).toBeUndefined();
});
