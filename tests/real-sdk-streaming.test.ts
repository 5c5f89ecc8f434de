// The real Unleash SDK in its streaming and delta-polling modes: ready with every flag, then each kind of change.
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { adminJson, newApiToken, until } from './support/fixtures.js';

type Mode = { type: 'streaming' } | { type: 'polling'; format: 'delta' };

const flags = '/api/admin/projects/default/features';
const env = (flag: string) => `${flags}/${flag}/environments/development`;

function sdkFor(app: TestApp, token: string, mode: Mode, name: string) {
  const sdk = new Unleash({
    url: `${app.url}/api/`,
    appName: name,
    instanceId: name,
    refreshInterval: 200,
    disableMetrics: true,
    customHeaders: { Authorization: token },
    storageProvider: new InMemStorageProvider(),
    experimentalMode: mode,
  });
  sdk.on(UnleashEvents.Error, () => {});
  sdk.on(UnleashEvents.Warn, () => {});
  return sdk;
}

const ready = (sdk: Unleash) =>
  new Promise<void>((resolve, reject) => {
    sdk.once(UnleashEvents.Synchronized, () => resolve());
    sdk.once(UnleashEvents.Error, reject);
  });

const seen = (what: string, check: () => boolean) => until(what, async () => check(), (held) => held, 10_000);

describe.each<[string, Mode]>([
  ['streaming', { type: 'streaming' }],
  ['delta polling', { type: 'polling', format: 'delta' }],
])('the SDK in %s mode', (label, mode) => {
  let app: TestApp;
  let sdk: Unleash;
  const admin = (method: string, path: string, body?: unknown) => adminJson(app, method, path, body);
  const name = (flag: string) => `${label.replace(' ', '-')}.${flag}`;

  beforeAll(async () => {
    app = await startTestApp();
    for (const flag of ['on', 'toggled', 'rollout', 'archived', 'segmented']) await admin('POST', flags, { name: name(flag) });
    await admin('POST', `${env(name('on'))}/on`);
    await admin('POST', `${env(name('rollout'))}/strategies`, { name: 'flexibleRollout', parameters: { rollout: 0, stickiness: 'default', groupId: 'g' } });
    await admin('POST', `${env(name('rollout'))}/on`);
    await admin('POST', `${env(name('archived'))}/on`);
    const segment = await admin('POST', '/api/admin/segments', { name: `${name('seg')}`, constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }] });
    await admin('POST', `${env(name('segmented'))}/strategies`, { name: 'default', segments: [segment.id] });
    await admin('POST', `${env(name('segmented'))}/on`);
    sdk = sdkFor(app, await newApiToken(app, { type: 'client', environment: 'development' }), mode, `sdk-${label}`);
    await ready(sdk);
    (app as TestApp & { segmentId: number }).segmentId = segment.id;
  });

  afterAll(() => sdk?.destroy());

  it(mode.type === 'streaming' ? 'holds a stream open' : 'polls the delta endpoint, holding no stream', async () => {
    const scraped = await fetch(`${app.url}/internal-backstage/prometheus`).then((r) => r.text());
    expect(/^client_streams_open (\d+)$/m.exec(scraped)?.[1]).toBe(mode.type === 'streaming' ? '1' : '0');
    if (mode.type === 'polling') expect(scraped).toMatch(/http_request_duration_milliseconds_count\{[^}]*path="\/api\/client\/delta"/);
  });

  it('is ready with every flag', () => {
    expect(sdk.isEnabled(name('on'))).toBe(true);
    expect(sdk.isEnabled(name('toggled'))).toBe(false);
    expect(sdk.isEnabled(name('segmented'), { userId: 'alice' })).toBe(true);
    expect(sdk.isEnabled(name('segmented'), { userId: 'bob' })).toBe(false);
  });

  it('sees a flag turned on', async () => {
    await admin('POST', `${env(name('toggled'))}/on`);
    await seen('the flag on', () => sdk.isEnabled(name('toggled')));
  });

  it('sees a strategy changed', async () => {
    const [strategy] = await admin('GET', `${env(name('rollout'))}/strategies`);
    await admin('PUT', `${env(name('rollout'))}/strategies/${strategy.id}`, { name: 'flexibleRollout', parameters: { rollout: 100, stickiness: 'default', groupId: 'g' } });
    await seen('the rollout at 100%', () => sdk.isEnabled(name('rollout'), { userId: 'anyone' }));
  });

  it('forgets an archived flag', async () => {
    expect(sdk.getFeatureToggleDefinition(name('archived'))).toBeDefined();
    await admin('DELETE', `${flags}/${name('archived')}`);
    await seen('the flag gone', () => sdk.getFeatureToggleDefinition(name('archived')) === undefined);
  });

  it('sees a segment changed', async () => {
    const id = (app as TestApp & { segmentId: number }).segmentId;
    await admin('PUT', `/api/admin/segments/${id}`, { name: name('seg'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['bob'] }] });
    await seen('the segment for bob', () => sdk.isEnabled(name('segmented'), { userId: 'bob' }) && !sdk.isEnabled(name('segmented'), { userId: 'alice' }));
  });

  it('with a project-scoped token, gets only that project and none of the changes elsewhere', async () => {
    const project = `${label.replace(' ', '-')}-scoped`;
    await admin('POST', '/api/admin/projects', { id: project, name: project });
    await admin('POST', `/api/admin/projects/${project}/features`, { name: `${project}.flag` });
    const scoped = sdkFor(app, await newApiToken(app, { type: 'client', environment: 'development', projects: [project] }), mode, `scoped-${label}`);
    try {
      await ready(scoped);
      expect(scoped.getFeatureToggleDefinitions().map((f) => f.name)).toEqual([`${project}.flag`]);
      await admin('POST', flags, { name: name('elsewhere') });
      await admin('POST', `/api/admin/projects/${project}/features/${project}.flag/environments/development/on`);
      await seen('its own flag on', () => scoped.isEnabled(`${project}.flag`));
      expect(scoped.getFeatureToggleDefinitions().map((f) => f.name)).toEqual([`${project}.flag`]);
    } finally {
      scoped.destroy();
    }
  });
});
