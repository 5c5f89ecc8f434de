import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { eventReader } from './support/events.js';
import { envPath, flagPath, ok, strategyParams } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const P = 'events-project';
const flagParams = (featureName: string, projectId = P) => ({ params: { path: flagPath(featureName, projectId) } });
const env = (featureName: string, environment = 'development') => ({ params: { path: envPath(featureName, environment, P) } });
const project = (projectId = P) => ({ params: { path: { projectId } } });
const segment = () => ({ params: { path: { segmentId } } });
const definition = (strategyName: string) => ({ params: { path: { strategyName } } });

const { latestEventId, eventsSince } = eventReader(() => app);

let strategyId = '';
let segmentId = 0;

const featureRoute = '/api/admin/projects/{projectId}/features/{featureName}';
const environmentRoute = `${featureRoute}/environments/{environment}` as const;

/** Each change, in order, and the events it must write (oldest first). */
const changes: [string, () => Promise<unknown>, { type: string; featureName?: string; project?: string; environment?: string }[]][] = [
  ['create a project', async () => ok(await app.admin.POST('/api/admin/projects', { body: { id: P, name: 'Events' } })), [{ type: 'project-created', project: P }]],
  ['update a project', async () => ok(await app.admin.PUT('/api/admin/projects/{projectId}', { ...project(), body: { name: 'Events renamed' } })), [{ type: 'project-updated', project: P }]],
  ['create an environment', async () => ok(await app.admin.POST('/api/admin/environments', { body: { name: 'staging', type: 'test' } })), [{ type: 'environment-created', environment: 'staging' }]],
  [
    'remove an environment from a project',
    async () => ok(await app.admin.DELETE('/api/admin/projects/{projectId}/environments/{environment}', { params: { path: { projectId: P, environment: 'staging' } } })),
    [{ type: 'project-environment-removed', project: P, environment: 'staging' }],
  ],
  ['add an environment to a project', async () => ok(await app.admin.POST('/api/admin/projects/{projectId}/environments', { ...project(), body: { environment: 'staging' } })), [{ type: 'project-environment-added', project: P, environment: 'staging' }]],
  ['create a flag', async () => ok(await app.admin.POST('/api/admin/projects/{projectId}/features', { ...project(), body: { name: 'ev.flag' } })), [{ type: 'feature-created', featureName: 'ev.flag', project: P }]],
  ['create a parent flag', async () => ok(await app.admin.POST('/api/admin/projects/{projectId}/features', { ...project(), body: { name: 'ev.parent' } })), [{ type: 'feature-created', featureName: 'ev.parent', project: P }]],
  ['update flag metadata', async () => ok(await app.admin.PUT(featureRoute, { ...flagParams('ev.flag'), body: { description: 'changed' } })), [{ type: 'feature-metadata-updated', featureName: 'ev.flag', project: P }]],
  ['mark a flag stale', async () => ok(await app.admin.PATCH(featureRoute, { ...flagParams('ev.flag'), body: [{ op: 'replace', path: '/stale', value: true }] })), [{ type: 'feature-stale-on', featureName: 'ev.flag', project: P }]],
  ['mark a flag not stale in bulk', async () => ok(await app.admin.POST('/api/admin/projects/{projectId}/stale', { ...project(), body: { features: ['ev.flag'], stale: false } })), [{ type: 'feature-stale-off', featureName: 'ev.flag', project: P }]],
  [
    'add a strategy',
    async () => {
      strategyId = (await ok(app.admin.POST(`${environmentRoute}/strategies`, { ...env('ev.flag'), body: { name: 'default' } }))).id;
    },
    [{ type: 'feature-strategy-add', featureName: 'ev.flag', project: P, environment: 'development' }],
  ],
  [
    'update a strategy',
    async () => ok(await app.admin.PUT(`${environmentRoute}/strategies/{strategyId}`, { ...strategyParams('ev.flag', strategyId, 'development', P), body: { name: 'default', title: 'All' } })),
    [{ type: 'feature-strategy-update', featureName: 'ev.flag', project: P, environment: 'development' }],
  ],
  [
    'reorder strategies',
    async () => ok(await app.admin.POST(`${environmentRoute}/strategies/set-sort-order`, { ...env('ev.flag'), body: [{ id: strategyId, sortOrder: 5 }] })),
    [{ type: 'strategy-order-changed', featureName: 'ev.flag', project: P, environment: 'development' }],
  ],
  ['enable a flag', async () => ok(await app.admin.POST(`${environmentRoute}/on`, env('ev.flag'))), [{ type: 'feature-environment-enabled', featureName: 'ev.flag', project: P, environment: 'development' }]],
  [
    'enable a flag with no strategy',
    async () => ok(await app.admin.POST(`${environmentRoute}/on`, env('ev.flag', 'production'))),
    [
      { type: 'feature-strategy-add', featureName: 'ev.flag', project: P, environment: 'production' },
      { type: 'feature-environment-enabled', featureName: 'ev.flag', project: P, environment: 'production' },
    ],
  ],
  ['disable a flag', async () => ok(await app.admin.POST(`${environmentRoute}/off`, env('ev.flag', 'production'))), [{ type: 'feature-environment-disabled', featureName: 'ev.flag', project: P, environment: 'production' }]],
  [
    'remove the last strategy of an enabled flag',
    async () => ok(await app.admin.DELETE(`${environmentRoute}/strategies/{strategyId}`, strategyParams('ev.flag', strategyId, 'development', P))),
    [
      { type: 'feature-strategy-remove', featureName: 'ev.flag', project: P, environment: 'development' },
      { type: 'feature-environment-disabled', featureName: 'ev.flag', project: P, environment: 'development' },
    ],
  ],
  ['set environment variants', async () => ok(await app.admin.PUT(`${environmentRoute}/variants`, { ...env('ev.flag'), body: [{ name: 'a' }] })), [{ type: 'feature-environment-variants-updated', featureName: 'ev.flag', project: P, environment: 'development' }]],
  [
    'tag a flag with a new tag',
    async () => ok(await app.admin.POST('/api/admin/features/{featureName}/tags', { params: { path: { featureName: 'ev.flag' } }, body: { type: 'simple', value: 'ev-tag' } })),
    [{ type: 'tag-created' }, { type: 'feature-tagged', featureName: 'ev.flag', project: P }],
  ],
  [
    'untag a flag',
    async () => ok(await app.admin.DELETE('/api/admin/features/{featureName}/tags/{type}/{value}', { params: { path: { featureName: 'ev.flag', type: 'simple', value: 'ev-tag' } } })),
    [{ type: 'feature-untagged', featureName: 'ev.flag', project: P }],
  ],
  ['add a dependency', async () => ok(await app.admin.POST(`${featureRoute}/dependencies`, { ...flagParams('ev.flag'), body: { feature: 'ev.parent' } })), [{ type: 'feature-dependency-added', featureName: 'ev.flag', project: P }]],
  [
    'remove a dependency',
    async () => ok(await app.admin.DELETE(`${featureRoute}/dependencies/{parent}`, { params: { path: { ...flagPath('ev.flag', P), parent: 'ev.parent' } } })),
    [{ type: 'feature-dependency-removed', featureName: 'ev.flag', project: P }],
  ],
  [
    'create a segment',
    async () => {
      segmentId = (await ok(app.admin.POST('/api/admin/segments', { body: { name: 'ev-segment', constraints: [] } }))).id;
    },
    [{ type: 'segment-created' }],
  ],
  ['update a segment', async () => ok(await app.admin.PUT('/api/admin/segments/{segmentId}', { ...segment(), body: { name: 'ev-segment', description: 'x', constraints: [] } })), [{ type: 'segment-updated' }]],
  ['delete a segment', async () => ok(await app.admin.DELETE('/api/admin/segments/{segmentId}', segment())), [{ type: 'segment-deleted' }]],
  ['create a strategy definition', async () => ok(await app.admin.POST('/api/admin/strategies', { body: { name: 'evCustom' } })), [{ type: 'strategy-created' }]],
  ['deprecate a strategy definition', async () => ok(await app.admin.POST('/api/admin/strategies/{strategyName}/deprecate', definition('evCustom'))), [{ type: 'strategy-deprecated' }]],
  ['reactivate a strategy definition', async () => ok(await app.admin.POST('/api/admin/strategies/{strategyName}/reactivate', definition('evCustom'))), [{ type: 'strategy-reactivated' }]],
  ['update a strategy definition', async () => ok(await app.admin.PUT('/api/admin/strategies/{strategyName}', { ...definition('evCustom'), body: { name: 'evCustom', description: 'd' } })), [{ type: 'strategy-updated' }]],
  ['delete a strategy definition', async () => ok(await app.admin.DELETE('/api/admin/strategies/{strategyName}', definition('evCustom'))), [{ type: 'strategy-deleted' }]],
  ['create another project', async () => ok(await app.admin.POST('/api/admin/projects', { body: { id: 'events-target', name: 'Target' } })), [{ type: 'project-created', project: 'events-target' }]],
  ['move a flag', async () => ok(await app.admin.POST(`${featureRoute}/changeProject`, { ...flagParams('ev.parent'), body: { newProjectId: 'events-target' } })), [{ type: 'feature-project-change', featureName: 'ev.parent', project: 'events-target' }]],
  ['archive a flag', async () => ok(await app.admin.DELETE(featureRoute, flagParams('ev.flag'))), [{ type: 'feature-archived', featureName: 'ev.flag', project: P }]],
  ['revive a flag', async () => ok(await app.admin.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName: 'ev.flag' } } })), [{ type: 'feature-revived', featureName: 'ev.flag', project: P }]],
  ['archive flags in bulk', async () => ok(await app.admin.POST('/api/admin/projects/{projectId}/archive', { ...project(), body: { features: ['ev.flag'] } })), [{ type: 'feature-archived', featureName: 'ev.flag', project: P }]],
  ['delete an archived flag', async () => ok(await app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName: 'ev.flag' } } })), [{ type: 'feature-deleted', featureName: 'ev.flag', project: P }]],
  ['disable an environment', async () => ok(await app.admin.POST('/api/admin/environments/{environment}/off', { params: { path: { environment: 'staging' } } })), [{ type: 'environment-updated', environment: 'staging' }]],
  ['delete a project', async () => ok(await app.admin.DELETE('/api/admin/projects/{projectId}', project())), [{ type: 'project-deleted', project: P }]],
  ['delete an environment', async () => ok(await app.admin.DELETE('/api/admin/environments/{environment}', { params: { path: { environment: 'staging' } } })), [{ type: 'environment-deleted', environment: 'staging' }]],
];

describe('every change writes its events', () => {
  it.each(changes.map(([name, run, expected], i) => [name, i, run, expected] as const))('%s', async (_name, _i, run, expected) => {
    const before = await latestEventId();
    await run();
    const written = await eventsSince(before);
    expect(written).toHaveLength(expected.length);
    written.forEach((event, i) => {
      const want = expected[i]!;
      expect(event.type).toBe(want.type);
      expect(event.featureName).toBe(want.featureName ?? null);
      expect(event.project).toBe(want.project ?? null);
      expect(event.environment).toBe(want.environment ?? null);
    });
  });
});

describe('a change rejected halfway writes neither rows nor events', () => {
  it('creating a flag whose second tag has an unknown type leaves no flag, no tag and no event', async () => {
    const before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/features', {
      ...project('default'),
      body: { name: 'halfway.flag', tags: [{ type: 'simple', value: 'halfway-tag' }, { type: 'no-such-type', value: 'x1' }] },
    });
    expect(response.response.status).toBe(400);
    expect(await latestEventId()).toBe(before);
    expect((await app.admin.GET(featureRoute, flagParams('halfway.flag', 'default'))).response.status).toBe(404);
    expect((await app.admin.GET('/api/admin/tags/{type}/{value}', { params: { path: { type: 'simple', value: 'halfway-tag' } } })).response.status).toBe(404);
  });

  it('deleting archived flags in bulk stops at an active one and deletes none', async () => {
    for (const name of ['halfway.a', 'halfway.b']) {
      await ok(app.admin.POST('/api/admin/projects/{projectId}/features', { ...project('default'), body: { name } }));
    }
    await ok(app.admin.DELETE(featureRoute, flagParams('halfway.a', 'default')));
    const before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/delete', { ...project('default'), body: { features: ['halfway.a', 'halfway.b'] } });
    expect(response.response.status).toBe(409);
    expect(await latestEventId()).toBe(before);
    const revived = await app.admin.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName: 'halfway.a' } } });
    expect(revived.response.status).toBe(200);
  });

  it('archiving in bulk with one unknown flag archives nothing', async () => {
    await ok(app.admin.POST('/api/admin/projects/{projectId}/features', { ...project('default'), body: { name: 'halfway.c' } }));
    const before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/archive', { ...project('default'), body: { features: ['halfway.c', 'halfway.missing'] } });
    expect(response.response.status).toBe(404);
    expect(await latestEventId()).toBe(before);
    expect((await app.admin.GET(featureRoute, flagParams('halfway.c', 'default'))).response.status).toBe(200);
  });
});
