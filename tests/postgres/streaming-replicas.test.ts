// Streams across instances on one PostgreSQL: a change on one reaches streams on another, and a stream survives
// the restart of the instance it was connected to without missing a change.
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { uniqueNames } from '../support/events.js';
import { fixtures, newApiToken, seen } from '../support/fixtures.js';
import { startProxy } from '../support/proxy.js';
import { stopSdk } from '../support/sdk-changes.js';

const sdks: Unleash[] = [];
afterAll(() => sdks.forEach(stopSdk));

async function streamingSdk(url: string, token: string): Promise<Unleash> {
  const sdk = new Unleash({
    url: `${url}/api/`,
    appName: 'streaming-replicas',
    refreshInterval: 200,
    disableMetrics: true,
    customHeaders: { Authorization: token },
    storageProvider: new InMemStorageProvider(),
    experimentalMode: { type: 'streaming' },
  });
  sdk.on(UnleashEvents.Error, () => {});
  sdk.on(UnleashEvents.Warn, () => {});
  sdks.push(sdk);
  await new Promise<void>((resolve) => sdk.once(UnleashEvents.Synchronized, () => resolve()));
  return sdk;
}

/** Across instances, a change may take longer to reach a stream. */
const within15s = 15_000;
/** The shared fixtures on one of the instances. */
const fixturesOn = (app: TestApp) => fixtures(() => app, uniqueNames());

describe('streams on PostgreSQL', () => {
  it('a flag turned on through one instance reaches an SDK streaming from another', async () => {
    const [first, second] = [await startTestApp(), await startTestApp()];
    await fixturesOn(first).createFlag('default', 'replicated.stream');
    const sdk = await streamingSdk(first.url, await newApiToken(first, { type: 'client', environment: 'development' }));
    expect(sdk.isEnabled('replicated.stream')).toBe(false);
    await fixturesOn(second).turnOn('replicated.stream');
    await seen('the flag on', () => sdk.isEnabled('replicated.stream'), within15s);
  });

  it('an SDK streaming from an instance that restarts misses no change made meanwhile', async () => {
    let app: TestApp = await startTestApp();
    const proxy = await startProxy(app.url);
    await fixturesOn(app).createFlag('default', 'restarted.before');
    await fixturesOn(app).createFlag('default', 'restarted.during');
    const sdk = await streamingSdk(proxy.url, await newApiToken(app, { type: 'client', environment: 'development' }));
    await fixturesOn(app).turnOn('restarted.before');
    await seen('the change before the restart', () => sdk.isEnabled('restarted.before'), within15s);

    await app.close();
    proxy.cut();
    app = await startTestApp();
    await fixturesOn(app).turnOn('restarted.during');
    proxy.target = app.url;
    await seen('the change made while it was away', () => sdk.isEnabled('restarted.during'), within15s);
    expect(sdk.isEnabled('restarted.before')).toBe(true);
  });
});
