// The real Unleash SDK in its streaming and delta-polling modes: ready with every flag, then each kind of change.
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { envPath, fixtures, newApiToken, ok, rollout, scrapeOf, seen } from './support/fixtures.js';

type Mode = { type: 'streaming' } | { type: 'polling'; format: 'delta' };

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

describe.each<[string, Mode]>([
  ['streaming', { type: 'streaming' }],
  ['delta polling', { type: 'polling', format: 'delta' }],
])('the SDK in %s mode', (label, mode) => {
  let app: TestApp;
  let sdk: Unleash;
  const { createFlag, turnOn, addStrategy, strategiesOf, archiveFlag, createSegment } = fixtures(() => app, uniqueNames());
  const name = (flag: string) => `${label.replace(' ', '-')}.${flag}`;

  beforeAll(async () => {
    app = await startTestApp();
    for (const flag of ['on', 'toggled', 'rollout', 'archived', 'segmented']) await createFlag('default', name(flag));
    await turnOn(name('on'));
    await addStrategy(name('rollout'), rollout(0));
    await turnOn(name('rollout'));
    await turnOn(name('archived'));
    const segment = await createSegment({ name: name('seg'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }] });
    await addStrategy(name('segmented'), { name: 'default', segments: [segment.id] });
    await turnOn(name('segmented'));
    sdk = sdkFor(app, await newApiToken(app, { type: 'client', environment: 'development' }), mode, `sdk-${label}`);
    await ready(sdk);
    (app as TestApp & { segmentId: number }).segmentId = segment.id;
  });

  afterAll(() => sdk?.destroy());

  it(mode.type === 'streaming' ? 'holds a stream open' : 'polls the delta endpoint, holding no stream', async () => {
    const scraped = (await scrapeOf(app)).text;
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
    await turnOn(name('toggled'));
    await seen('the flag on', () => sdk.isEnabled(name('toggled')));
  });

  it('sees a strategy changed', async () => {
    const [strategy] = await strategiesOf(name('rollout'));
    await ok(app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { ...envPath(name('rollout')), strategyId: strategy!.id } },
      body: rollout(100),
    }));
    await seen('the rollout at 100%', () => sdk.isEnabled(name('rollout'), { userId: 'anyone' }));
  });

  it('forgets an archived flag', async () => {
    expect(sdk.getFeatureToggleDefinition(name('archived'))).toBeDefined();
    await archiveFlag('default', name('archived'));
    await seen('the flag gone', () => sdk.getFeatureToggleDefinition(name('archived')) === undefined);
  });

  it('sees a segment changed', async () => {
    const id = (app as TestApp & { segmentId: number }).segmentId;
    await ok(app.admin.PUT('/api/admin/segments/{segmentId}', {
      params: { path: { segmentId: id } },
      body: { name: name('seg'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['bob'] }] },
    }));
    await seen('the segment for bob', () => sdk.isEnabled(name('segmented'), { userId: 'bob' }) && !sdk.isEnabled(name('segmented'), { userId: 'alice' }));
  });

  it('with a project-scoped token, gets only that project and none of the changes elsewhere', async () => {
    const project = `${label.replace(' ', '-')}-scoped`;
    await ok(app.admin.POST('/api/admin/projects', { body: { id: project, name: project } }));
    await createFlag(project, `${project}.flag`);
    const scoped = sdkFor(app, await newApiToken(app, { type: 'client', environment: 'development', projects: [project] }), mode, `scoped-${label}`);
    try {
      await ready(scoped);
      expect(scoped.getFeatureToggleDefinitions().map((f) => f.name)).toEqual([`${project}.flag`]);
      await createFlag('default', name('elsewhere'));
      await turnOn(`${project}.flag`, 'development', project);
      await seen('its own flag on', () => scoped.isEnabled(`${project}.flag`));
      expect(scoped.getFeatureToggleDefinitions().map((f) => f.name)).toEqual([`${project}.flag`]);
    } finally {
      scoped.destroy();
    }
  });
});
