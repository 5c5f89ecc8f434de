// Impact metrics by the route they came: the frontend API (origin frontend) and an Edge's bulk report (origin edge),
// here an edge node of this service forwarding the real Node SDK's counter.
import { beforeAll, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';
import { startEdge } from './support/edge.js';
import { newApiToken, until } from './support/fixtures.js';
import { counter, listedMetric, reportingSdk, reportWith, seriesOf } from './support/impact-metrics.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

const countOf = async (name: string) => (await seriesOf(app, name, { aggregationMode: 'count' })).data?.value ?? null;

it('stores what the frontend API is sent with origin frontend, in its token\'s environment', async () => {
  const frontend = await newApiToken(app, { type: 'frontend', environment: 'production' });
  const name = 'frontend_clicks';
  const sent = await call(app, 'POST', '/api/frontend/client/metrics', { token: frontend, body: reportWith('web', [counter(name, [{ value: 3, labels: { environment: 'other' } }])]) });
  expect(sent.status).toBe(200);
  await until('the clicks', () => countOf(name), (count) => count === 3);
  expect((await listedMetric(app, name))!.labels).toEqual({ appName: ['web'], environment: ['production'], origin: ['frontend'] });
});

it("stores the Node SDK's counter forwarded by an edge with origin edge", async () => {
  const client = await newApiToken(app, { type: 'client', environment: 'development' });
  const edge = await startEdge({ EDGE_UPSTREAM_URL: app.url, EDGE_TOKENS: client });
  const name = 'edge_purchases';
  const sdk = await reportingSdk(edge.url, client, 'behind-edge', 'behind-edge-1');
  sdk.impactMetrics.defineCounter(name, 'Purchases');
  sdk.impactMetrics.incrementCounter(name, 4);
  await until('the purchases upstream', () => countOf(name), (count) => count === 4, 15_000);
  expect((await listedMetric(app, name))!.labels).toEqual({ appName: ['behind-edge'], environment: ['development'], origin: ['edge'] });
});
