// What SDKs report to an edge reaches the upstream: the real Node SDK's registration and evaluation counts, and the
// browser SDK's (unleash-proxy-client, against the edge's frontend API), each evaluation counted once.
import { EVENTS, InMemoryStorageProvider, UnleashClient } from 'unleash-proxy-client';
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { startEdge, type TestEdge } from './support/edge.js';
import { uniqueNames } from './support/events.js';
import { afterFile } from './support/file-end.js';
import { fixtures, newApiToken, ok, until } from './support/fixtures.js';
import { stopSdk } from './support/sdk-changes.js';

let app: TestApp;
let edge: TestEdge;
let client: string;
let frontend: string;
const { createFlag, turnOn, usageOf } = fixtures(() => app, uniqueNames());

beforeAll(async () => {
  app = await startTestApp();
  await createFlag('default', 'reported.node');
  await turnOn('reported.node');
  await createFlag('default', 'reported.browser');
  await turnOn('reported.browser');
  client = await newApiToken(app, { type: 'client', environment: 'development' });
  frontend = await newApiToken(app, { type: 'frontend', environment: 'development' });
  edge = await startEdge({ EDGE_UPSTREAM_URL: app.url, EDGE_TOKENS: `${client},${frontend}` });
});

const settled = () => new Promise((resolve) => setTimeout(resolve, 1500));

it("counts the Node SDK's evaluations made through the edge once upstream, and lists its application", async () => {
  const sdk = new Unleash({
    url: `${edge.url}/api/`,
    appName: 'node-behind-edge',
    instanceId: 'node-1',
    refreshInterval: 200,
    metricsInterval: 300,
    customHeaders: { Authorization: client },
    storageProvider: new InMemStorageProvider(),
  });
  sdk.on(UnleashEvents.Error, () => {});
  afterFile(async () => stopSdk(sdk));
  await new Promise<void>((resolve) => sdk.once(UnleashEvents.Synchronized, () => resolve()));
  for (let i = 0; i < 5; i++) expect(sdk.isEnabled('reported.node')).toBe(true);
  await until('the counts upstream', () => usageOf('reported.node'), (u) => u.metrics.some((m) => m.appName === 'node-behind-edge'), 15_000);
  stopSdk(sdk);
  await settled();
  const counted = (await usageOf('reported.node')).metrics.filter((m) => m.appName === 'node-behind-edge');
  expect(counted.reduce((sum, m) => sum + m.yes, 0)).toBe(5);
  const applications = await ok(app.admin.GET('/api/admin/metrics/applications'));
  expect(applications.applications.map((a) => a.appName)).toContain('node-behind-edge');
});

it("counts the browser SDK's evaluations through the edge's frontend API once upstream", async () => {
  const browser = new UnleashClient({
    url: `${edge.url}/api/frontend`,
    clientKey: frontend,
    appName: 'browser-behind-edge',
    refreshInterval: 1,
    metricsInterval: 1,
    metricsIntervalInitial: 0,
    storageProvider: new InMemoryStorageProvider(),
    context: { userId: 'u1' },
  });
  afterFile(async () => browser.stop());
  const ready = new Promise<void>((resolve) => browser.once(EVENTS.READY, () => resolve()));
  await browser.start();
  await ready;
  for (let i = 0; i < 3; i++) expect(browser.isEnabled('reported.browser')).toBe(true);
  await until('the counts upstream', () => usageOf('reported.browser'), (u) => u.metrics.some((m) => m.appName === 'browser-behind-edge'), 15_000);
  browser.stop();
  await settled();
  const counted = (await usageOf('reported.browser')).metrics.filter((m) => m.appName === 'browser-behind-edge');
  expect(counted.reduce((sum, m) => sum + m.yes, 0)).toBe(3);
});
