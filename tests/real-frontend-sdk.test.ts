// The real browser SDK, unleash-proxy-client 3.8.2, against the frontend API: it runs in Node on the global fetch.
import { EVENTS, InMemoryStorageProvider, UnleashClient } from 'unleash-proxy-client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, rollout, seen, until } from './support/fixtures.js';
import { flagWith } from './support/frontend.js';

let app: TestApp;
let token: string;
const started: UnleashClient[] = [];

const unique = uniqueNames();
const { turnOn, usageOf } = fixtures(() => app, unique);

beforeAll(async () => {
  app = await startTestApp();
  token = await newApiToken(app, { type: 'frontend', environment: 'development' });
});

afterEach(() => {
  for (const client of started.splice(0)) client.stop();
});

/** The statuses of the SDK's calls, by path: the global fetch, watched. */
type Calls = { path: string; status: number }[];

/** A started SDK, ready (its first fetch done), polling every second and sending metrics every second. */
async function startedClient(context: Record<string, unknown> = {}, options: { usePOSTrequests?: boolean; appName?: string } = {}) {
  const calls: Calls = [];
  const watchedFetch = async (input: string, init?: RequestInit) => {
    const response = await fetch(input, init);
    calls.push({ path: new URL(input).pathname, status: response.status });
    return response;
  };
  const client = new UnleashClient({
    url: `${app.url}/api/frontend`,
    clientKey: token,
    appName: options.appName ?? unique('web'),
    refreshInterval: 1,
    metricsInterval: 1,
    metricsIntervalInitial: 0,
    disableMetrics: false,
    storageProvider: new InMemoryStorageProvider(),
    context,
    fetch: watchedFetch,
    ...(options.usePOSTrequests && { usePOSTrequests: true }),
  });
  started.push(client);
  const ready = new Promise<void>((resolve, reject) => {
    client.once(EVENTS.READY, () => resolve());
    client.once(EVENTS.ERROR, (error: unknown) => reject(new Error(`the SDK failed: ${JSON.stringify(error)}`)));
  });
  await client.start();
  await ready;
  return { client, calls };
}


describe('unleash-proxy-client 3.8.2', () => {
  it('is enabled for flags on for its context, and not for the others', async () => {
    const everyone = await flagWith(app, unique('everyone'), [rollout(100, 'userId')]);
    const nobody = await flagWith(app, unique('nobody'), [rollout(0, 'userId')]);
    const off = await flagWith(app, unique('off'), [rollout(100, 'userId')], { on: false });
    const { client } = await startedClient({ userId: 'u-1' });
    expect(client.isEnabled(everyone)).toBe(true);
    expect(client.isEnabled(nobody)).toBe(false);
    expect(client.isEnabled(off)).toBe(false);
  });

  it('gets the flags its constraints allow for its context, custom properties included', async () => {
    const flag = await flagWith(app, unique('pro'), [
      { ...rollout(100, 'userId'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }, { contextName: 'plan', operator: 'IN', values: ['pro'] }] },
    ]);
    expect((await startedClient({ userId: 'alice', properties: { plan: 'pro' } })).client.isEnabled(flag)).toBe(true);
    expect((await startedClient({ userId: 'alice', properties: { plan: 'free' } })).client.isEnabled(flag)).toBe(false);
  });

  it('puts users in a 50% rollout by their userId, as the server-side SDKs would', async () => {
    const flag = await flagWith(app, unique('half'), [rollout(50, 'userId')]);
    const { client } = await startedClient({ userId: 'user-0' });
    const answers: boolean[] = [];
    for (let i = 0; i < 20; i++) {
      await client.updateContext({ userId: `user-${i}` });
      answers.push(client.isEnabled(flag));
    }
    expect(answers).toContain(true);
    expect(answers).toContain(false);
  });

  it('gets the variant with its payload', async () => {
    const flag = await flagWith(app, unique('variant'), [rollout(100, 'userId')], {
      variants: [{ name: 'blue', weight: 1000, weightType: 'fix', stickiness: 'default', payload: { type: 'json', value: '{"color":"blue"}' } }],
    });
    const variant = (await startedClient({ userId: 'u-1' })).client.getVariant(flag);
    expect(variant).toMatchObject({ name: 'blue', enabled: true, feature_enabled: true, payload: { type: 'json', value: '{"color":"blue"}' } });
  });

  it('gets the disabled variant of a flag that is off for it', async () => {
    const flag = await flagWith(app, unique('variant-off'), [rollout(0, 'userId')], { variants: [{ name: 'blue', weight: 1000, weightType: 'fix', stickiness: 'default' }] });
    expect((await startedClient({ userId: 'u-1' })).client.getVariant(flag)).toMatchObject({ name: 'disabled', enabled: false });
  });

  it('gets a new answer when updateContext changes the context', async () => {
    const flag = await flagWith(app, unique('bob'), [{ ...rollout(100, 'userId'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['bob'] }] }]);
    const { client } = await startedClient({ userId: 'carol' });
    expect(client.isEnabled(flag)).toBe(false);
    await client.updateContext({ userId: 'bob' });
    expect(client.isEnabled(flag)).toBe(true);
  });

  it('sees a flag turned on at its next refresh', async () => {
    const flag = await flagWith(app, unique('later'), [rollout(100, 'userId')], { on: false });
    const { client } = await startedClient({ userId: 'u-1' });
    expect(client.isEnabled(flag)).toBe(false);
    await turnOn(flag);
    await seen('the flag on', () => client.isEnabled(flag));
  });

  it('polls with the ETag it got and is answered 304 while nothing changes', async () => {
    const { calls } = await startedClient({ userId: 'u-etag' });
    await seen('a 304', () => calls.some((c) => c.path === '/api/frontend' && c.status === 304));
    expect(calls.filter((c) => c.path === '/api/frontend').every((c) => c.status === 200 || c.status === 304)).toBe(true);
  });

  it('gets the same flags with POST requests', async () => {
    const flag = await flagWith(app, unique('post'), [{ ...rollout(100, 'userId'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['dana'] }] }]);
    const { client } = await startedClient({ userId: 'dana' }, { usePOSTrequests: true });
    expect(client.isEnabled(flag)).toBe(true);
  });

  it('posts its metrics, counted with the backend SDKs\' usage of the flag', async () => {
    const flag = await flagWith(app, unique('counted'), [rollout(100, 'userId')]);
    const appName = unique('counting-app');
    const { client, calls } = await startedClient({ userId: 'u-1' }, { appName });
    for (let i = 0; i < 3; i++) client.isEnabled(flag);
    client.getVariant(flag);
    const usage = await until(
      'the SDK\'s metrics',
      () => usageOf(flag),
      (u) => u.metrics.some((m) => m.appName === appName),
      10_000,
    );
    expect(usage.metrics).toEqual([expect.objectContaining({ appName, environment: 'development', yes: 4, no: 0 })]);
    expect(calls.filter((c) => c.path === '/api/frontend/client/metrics').map((c) => c.status)).toContain(200);
  });
});
