// What the real Node SDK (unleash-client 6.12.1) must see of every kind of change, whoever serves it (the service, an
// edge): the flags to seed, the SDK to start, and the specifications, shared by the files that run them.
import type { EventEmitter } from 'node:events';
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { expect, it } from 'vitest';
import type { TestApp } from './app.js';
import { envPath, fixtures, newApiToken, ok, rollout, seen } from './fixtures.js';

export type SdkMode = { type: 'streaming' } | { type: 'polling'; format: 'delta' } | undefined;

/** The SDK against `url`, refreshing every 200 ms, sending no metrics. */
export function nodeSdk(url: string, token: string, mode: SdkMode, name: string): Unleash {
  const sdk = new Unleash({
    url: `${url}/api/`,
    appName: name,
    instanceId: name,
    refreshInterval: 200,
    disableMetrics: true,
    customHeaders: { Authorization: token },
    storageProvider: new InMemStorageProvider(),
    ...(mode && { experimentalMode: mode }),
  });
  sdk.on(UnleashEvents.Error, () => {});
  sdk.on(UnleashEvents.Warn, () => {});
  return sdk;
}

/**
 * Stops `sdk` for good. Its `destroy` drops the repository's listeners, so a poll still in flight that then fails (its
 * app closed) would emit an error nobody hears, and the SDK's timer would end in an unhandled rejection: one is kept.
 */
export function stopSdk(sdk: Unleash): void {
  sdk.destroy();
  (sdk as unknown as { repository: EventEmitter }).repository.on(UnleashEvents.Error, () => {});
}

export const ready = (sdk: Unleash) =>
  new Promise<void>((resolve, reject) => {
    sdk.once(UnleashEvents.Synchronized, () => resolve());
    sdk.once(UnleashEvents.Error, reject);
  });

export interface SdkUnderTest {
  app: TestApp;
  sdk: Unleash;
  segmentId: number;
  /** Another SDK, as `sdk` was made, for another token. */
  another(token: string, name: string): Unleash;
}

type Fixtures = ReturnType<typeof fixtures>;

/** The flags the specifications read, named by `name`; answers the id of the segment one of them uses. */
export async function seedSdkFlags({ createFlag, turnOn, addStrategy, createSegment }: Fixtures, name: (flag: string) => string): Promise<number> {
  for (const flag of ['on', 'toggled', 'rollout', 'archived', 'segmented']) await createFlag('default', name(flag));
  await turnOn(name('on'));
  await addStrategy(name('rollout'), rollout(0));
  await turnOn(name('rollout'));
  await turnOn(name('archived'));
  const segment = await createSegment({ name: name('seg'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }] });
  await addStrategy(name('segmented'), { name: 'default', segments: [segment.id] });
  await turnOn(name('segmented'));
  return segment.id;
}

/** Ready with every flag, then a toggle, a strategy change, an archived flag, a segment change, a project-scoped token. */
export function itFollowsEveryChange(current: () => SdkUnderTest, { createFlag, turnOn, strategiesOf, archiveFlag }: Fixtures, name: (flag: string) => string, project: string) {
  it('is ready with every flag', () => {
    const { sdk } = current();
    expect(sdk.isEnabled(name('on'))).toBe(true);
    expect(sdk.isEnabled(name('toggled'))).toBe(false);
    expect(sdk.isEnabled(name('segmented'), { userId: 'alice' })).toBe(true);
    expect(sdk.isEnabled(name('segmented'), { userId: 'bob' })).toBe(false);
  });

  it('sees a flag turned on', async () => {
    await turnOn(name('toggled'));
    await seen('the flag on', () => current().sdk.isEnabled(name('toggled')));
  });

  it('sees a strategy changed', async () => {
    const [strategy] = await strategiesOf(name('rollout'));
    await ok(current().app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { ...envPath(name('rollout')), strategyId: strategy!.id } },
      body: rollout(100),
    }));
    await seen('the rollout at 100%', () => current().sdk.isEnabled(name('rollout'), { userId: 'anyone' }));
  });

  it('forgets an archived flag', async () => {
    const { sdk } = current();
    expect(sdk.getFeatureToggleDefinition(name('archived'))).toBeDefined();
    await archiveFlag('default', name('archived'));
    await seen('the flag gone', () => sdk.getFeatureToggleDefinition(name('archived')) === undefined);
  });

  it('sees a segment changed', async () => {
    const { app, sdk, segmentId } = current();
    await ok(app.admin.PUT('/api/admin/segments/{segmentId}', {
      params: { path: { segmentId } },
      body: { name: name('seg'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['bob'] }] },
    }));
    await seen('the segment for bob', () => sdk.isEnabled(name('segmented'), { userId: 'bob' }) && !sdk.isEnabled(name('segmented'), { userId: 'alice' }));
  });

  it('with a project-scoped token, gets only that project and none of the changes elsewhere', async () => {
    const { app, another } = current();
    await ok(app.admin.POST('/api/admin/projects', { body: { id: project, name: project } }));
    await createFlag(project, `${project}.flag`);
    const scoped = another(await newApiToken(app, { type: 'client', environment: 'development', projects: [project] }), `scoped-${project}`);
    try {
      await ready(scoped);
      expect(scoped.getFeatureToggleDefinitions().map((f) => f.name)).toEqual([`${project}.flag`]);
      await createFlag('default', name('elsewhere'));
      await turnOn(`${project}.flag`, 'development', project);
      await seen('its own flag on', () => scoped.isEnabled(`${project}.flag`));
      expect(scoped.getFeatureToggleDefinitions().map((f) => f.name)).toEqual([`${project}.flag`]);
    } finally {
      stopSdk(scoped);
    }
  });
}
