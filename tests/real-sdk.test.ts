import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';
import { adminJson, until } from './support/fixtures.js';

let app: TestApp;
let sdk: Unleash;
const seen = { unchanged: 0, changed: 0, registered: 0, sent: 0, warnings: [] as unknown[], errors: [] as unknown[] };

const admin = (method: string, path: string, body?: object) => adminJson(app, method, path, body);

const flags = '/api/admin/projects/default/features';
const dev = (flag: string) => `${flags}/${flag}/environments/development`;

/** Waits until what the SDK reported makes `check` hold. */
const waitFor = (what: string, check: () => boolean) => until(what, async () => check(), (held) => held, 10_000);

beforeAll(async () => {
  app = await startTestApp();
  const token = (await admin('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development' })).secret as string;

  await admin('POST', flags, { name: 'sdk.on' });
  await admin('POST', `${dev('sdk.on')}/on`);

  await admin('POST', flags, { name: 'sdk.zero' });
  await admin('POST', `${dev('sdk.zero')}/strategies`, { name: 'flexibleRollout', parameters: { rollout: 0, stickiness: 'default', groupId: 'sdk.zero' } });
  await admin('POST', `${dev('sdk.zero')}/on`);

  await admin('POST', flags, { name: 'sdk.constrained' });
  await admin('POST', `${dev('sdk.constrained')}/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: 100 },
    constraints: [
      { contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] },
      { contextName: 'appVersion', operator: 'SEMVER_GTE', value: '2.0.0' },
    ],
  });
  await admin('POST', `${dev('sdk.constrained')}/on`);

  const segment = await admin('POST', '/api/admin/segments', { name: 'sdk-beta', constraints: [{ contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['beta-'] }] });
  await admin('POST', flags, { name: 'sdk.segmented' });
  await admin('POST', `${dev('sdk.segmented')}/strategies`, { name: 'default', segments: [segment.id] });
  await admin('POST', `${dev('sdk.segmented')}/on`);

  await admin('POST', flags, { name: 'sdk.variants' });
  await admin('POST', `${dev('sdk.variants')}/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: 100, stickiness: 'userId' },
    variants: [{ name: 'blue', weightType: 'fix', weight: 1000, stickiness: 'userId', payload: { type: 'json', value: '{"color":"blue"}' } }],
  });
  await admin('POST', `${dev('sdk.variants')}/on`);

  await admin('POST', flags, { name: 'sdk.env-variants' });
  await admin('PUT', `${dev('sdk.env-variants')}/variants`, [{ name: 'green', weightType: 'variable', payload: { type: 'string', value: 'go' } }]);
  await admin('POST', `${dev('sdk.env-variants')}/on`);

  await admin('POST', flags, { name: 'sdk.off' });

  sdk = new Unleash({
    url: `${app.url}/api/`,
    appName: 'real-sdk-test',
    instanceId: 'real-sdk-1',
    refreshInterval: 200,
    metricsInterval: 500,
    customHeaders: { Authorization: token },
    storageProvider: new InMemStorageProvider(),
  });
  sdk.on(UnleashEvents.Unchanged, () => seen.unchanged++);
  sdk.on(UnleashEvents.Changed, () => seen.changed++);
  sdk.on(UnleashEvents.Registered, () => seen.registered++);
  sdk.on(UnleashEvents.Sent, () => seen.sent++);
  sdk.on(UnleashEvents.Warn, (warning) => seen.warnings.push(warning));
  sdk.on(UnleashEvents.Error, (error) => seen.errors.push(error));
  await new Promise<void>((resolve, reject) => {
    sdk.once(UnleashEvents.Synchronized, () => resolve());
    sdk.once(UnleashEvents.Error, reject);
  });
});

afterAll(() => sdk?.destroy());

describe('the Unleash node SDK against the service', () => {
  it('evaluates rollouts', () => {
    expect(sdk.isEnabled('sdk.on', { userId: 'anyone' })).toBe(true);
    expect(sdk.isEnabled('sdk.zero', { userId: 'anyone' })).toBe(false);
    expect(sdk.isEnabled('sdk.off')).toBe(false);
    expect(sdk.isEnabled('sdk.unknown')).toBe(false);
  });

  it('evaluates constraints', () => {
    expect(sdk.isEnabled('sdk.constrained', { userId: 'u1', properties: { appVersion: '2.1.0' } })).toBe(true);
    expect(sdk.isEnabled('sdk.constrained', { userId: 'u1', properties: { appVersion: '1.9.0' } })).toBe(false);
    expect(sdk.isEnabled('sdk.constrained', { userId: 'u3', properties: { appVersion: '2.1.0' } })).toBe(false);
  });

  it('evaluates segments', () => {
    expect(sdk.isEnabled('sdk.segmented', { userId: 'beta-7' })).toBe(true);
    expect(sdk.isEnabled('sdk.segmented', { userId: 'regular-7' })).toBe(false);
  });

  it('picks strategy variants and flag variants with their payloads', () => {
    expect(sdk.getVariant('sdk.variants', { userId: 'u5' })).toMatchObject({ name: 'blue', enabled: true, payload: { type: 'json', value: '{"color":"blue"}' } });
    expect(sdk.getVariant('sdk.env-variants', { userId: 'u5' })).toMatchObject({ name: 'green', enabled: true, payload: { type: 'string', value: 'go' } });
    expect(sdk.getVariant('sdk.off', { userId: 'u5' })).toMatchObject({ name: 'disabled', enabled: false });
  });

  it('sees a change within a few seconds, using 304s in between', async () => {
    await waitFor('a 304 answer', () => seen.unchanged > 0);
    expect(sdk.isEnabled('sdk.on')).toBe(true);
    await admin('POST', `${dev('sdk.on')}/off`);
    await waitFor('the change to reach the SDK', () => !sdk.isEnabled('sdk.on'));
    await admin('POST', `${dev('sdk.on')}/on`);
    await waitFor('the second change to reach the SDK', () => sdk.isEnabled('sdk.on'));
  });

  it('registers, sends metrics the service records, and never warns or fails', async () => {
    for (let i = 0; i < 5; i++) sdk.isEnabled('sdk.on');
    await waitFor('registration', () => seen.registered > 0);
    await waitFor('metrics sent', () => seen.sent > 0);
    await until(
      'the metrics to be recorded',
      async () => (await call(app, 'GET', '/api/admin/client-metrics/features/sdk.on/raw')).json.metrics as { yes: number }[],
      (usage) => usage.some((m) => m.yes > 0),
      10_000,
    );
    const application = await call(app, 'GET', '/api/admin/metrics/applications/real-sdk-test');
    expect(application.status).toBe(200);
    expect(application.json.instances).toEqual([expect.objectContaining({ instanceId: 'real-sdk-1', environment: 'development' })]);
    expect(seen.warnings).toEqual([]);
    expect(seen.errors).toEqual([]);
  });
});
