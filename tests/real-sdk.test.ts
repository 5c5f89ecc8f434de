import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, seen as reached, until } from './support/fixtures.js';
import { stopSdk } from './support/sdk-changes.js';

let app: TestApp;
let sdk: Unleash;
const seen = { unchanged: 0, changed: 0, registered: 0, sent: 0, warnings: [] as unknown[], errors: [] as unknown[] };

const { createFlag, addStrategy, turnOn, turnOff, createSegment, setVariants } = fixtures(() => app, uniqueNames());

beforeAll(async () => {
  app = await startTestApp();
  const token = await newApiToken(app, { type: 'client', environment: 'development' });

  await createFlag('default', 'sdk.on');
  await turnOn('sdk.on');

  await createFlag('default', 'sdk.zero');
  await addStrategy('sdk.zero', { name: 'flexibleRollout', parameters: { rollout: 0, stickiness: 'default', groupId: 'sdk.zero' } });
  await turnOn('sdk.zero');

  await createFlag('default', 'sdk.constrained');
  await addStrategy('sdk.constrained', {
    name: 'flexibleRollout',
    parameters: { rollout: 100 },
    constraints: [
      { contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] },
      { contextName: 'appVersion', operator: 'SEMVER_GTE', value: '2.0.0' },
    ],
  });
  await turnOn('sdk.constrained');

  const segment = await createSegment({ name: 'sdk-beta', constraints: [{ contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['beta-'] }] });
  await createFlag('default', 'sdk.segmented');
  await addStrategy('sdk.segmented', { name: 'default', segments: [segment.id] });
  await turnOn('sdk.segmented');

  await createFlag('default', 'sdk.variants');
  await addStrategy('sdk.variants', {
    name: 'flexibleRollout',
    parameters: { rollout: 100, stickiness: 'userId' },
    variants: [{ name: 'blue', weightType: 'fix', weight: 1000, stickiness: 'userId', payload: { type: 'json', value: '{"color":"blue"}' } }],
  });
  await turnOn('sdk.variants');

  await createFlag('default', 'sdk.env-variants');
  await setVariants('sdk.env-variants', [{ name: 'green', weightType: 'variable', payload: { type: 'string', value: 'go' } }]);
  await turnOn('sdk.env-variants');

  await createFlag('default', 'sdk.off');

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

afterAll(() => sdk && stopSdk(sdk));

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
    await reached('a 304 answer', () => seen.unchanged > 0);
    expect(sdk.isEnabled('sdk.on')).toBe(true);
    await turnOff('sdk.on');
    await reached('the change to reach the SDK', () => !sdk.isEnabled('sdk.on'));
    await turnOn('sdk.on');
    await reached('the second change to reach the SDK', () => sdk.isEnabled('sdk.on'));
  });

  it('registers, sends metrics the service records, and never warns or fails', async () => {
    for (let i = 0; i < 5; i++) sdk.isEnabled('sdk.on');
    await reached('registration', () => seen.registered > 0);
    await reached('metrics sent', () => seen.sent > 0);
    await until(
      'the metrics to be recorded',
      async () => (await app.admin.GET('/api/admin/client-metrics/features/{featureName}/raw', { params: { path: { featureName: 'sdk.on' } } })).data!.metrics,
      (usage) => usage.some((m) => m.yes > 0),
      10_000,
    );
    const application = await app.admin.GET('/api/admin/metrics/applications/{appName}', { params: { path: { appName: 'real-sdk-test' } } });
    expect(application.response.status).toBe(200);
    expect(application.data!.instances).toEqual([expect.objectContaining({ instanceId: 'real-sdk-1', environment: 'development' })]);
    expect(seen.warnings).toEqual([]);
    expect(seen.errors).toEqual([]);
  });
});
