import { beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type RawResponse, type TestApp } from './support/app.js';
import { eventReader } from './support/events.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const P = 'events-project';
const flagPath = (flag: string) => `/api/admin/projects/${P}/features/${flag}`;
const envPath = (flag: string, env = 'development') => `${flagPath(flag)}/environments/${env}`;

const { latestEventId, eventsSince } = eventReader(() => app);

function ok(response: RawResponse) {
  if (response.status >= 300) throw new Error(`${response.status} ${response.text}`);
  return response;
}

let strategyId = '';
let segmentId = 0;

/** Each change, in order, and the events it must write (oldest first). */
const changes: [string, () => Promise<unknown>, { type: string; featureName?: string; project?: string; environment?: string }[]][] = [
  ['create a project', async () => ok(await call(app, 'POST', '/api/admin/projects', { body: { id: P, name: 'Events' } })), [{ type: 'project-created', project: P }]],
  ['update a project', async () => ok(await call(app, 'PUT', `/api/admin/projects/${P}`, { body: { name: 'Events renamed' } })), [{ type: 'project-updated', project: P }]],
  ['create an environment', async () => ok(await call(app, 'POST', '/api/admin/environments', { body: { name: 'staging', type: 'test' } })), [{ type: 'environment-created', environment: 'staging' }]],
  ['remove an environment from a project', async () => ok(await call(app, 'DELETE', `/api/admin/projects/${P}/environments/staging`)), [{ type: 'project-environment-removed', project: P, environment: 'staging' }]],
  ['add an environment to a project', async () => ok(await call(app, 'POST', `/api/admin/projects/${P}/environments`, { body: { environment: 'staging' } })), [{ type: 'project-environment-added', project: P, environment: 'staging' }]],
  ['create a flag', async () => ok(await call(app, 'POST', `/api/admin/projects/${P}/features`, { body: { name: 'ev.flag' } })), [{ type: 'feature-created', featureName: 'ev.flag', project: P }]],
  ['create a parent flag', async () => ok(await call(app, 'POST', `/api/admin/projects/${P}/features`, { body: { name: 'ev.parent' } })), [{ type: 'feature-created', featureName: 'ev.parent', project: P }]],
  ['update flag metadata', async () => ok(await call(app, 'PUT', flagPath('ev.flag'), { body: { description: 'changed' } })), [{ type: 'feature-metadata-updated', featureName: 'ev.flag', project: P }]],
  ['mark a flag stale', async () => ok(await call(app, 'PATCH', flagPath('ev.flag'), { body: [{ op: 'replace', path: '/stale', value: true }] })), [{ type: 'feature-stale-on', featureName: 'ev.flag', project: P }]],
  ['mark a flag not stale in bulk', async () => ok(await call(app, 'POST', `/api/admin/projects/${P}/stale`, { body: { features: ['ev.flag'], stale: false } })), [{ type: 'feature-stale-off', featureName: 'ev.flag', project: P }]],
  [
    'add a strategy',
    async () => {
      const response = ok(await call(app, 'POST', `${envPath('ev.flag')}/strategies`, { body: { name: 'default' } }));
      strategyId = response.json.id;
    },
    [{ type: 'feature-strategy-add', featureName: 'ev.flag', project: P, environment: 'development' }],
  ],
  ['update a strategy', async () => ok(await call(app, 'PUT', `${envPath('ev.flag')}/strategies/${strategyId}`, { body: { name: 'default', title: 'All' } })), [{ type: 'feature-strategy-update', featureName: 'ev.flag', project: P, environment: 'development' }]],
  ['reorder strategies', async () => ok(await call(app, 'POST', `${envPath('ev.flag')}/strategies/set-sort-order`, { body: [{ id: strategyId, sortOrder: 5 }] })), [{ type: 'strategy-order-changed', featureName: 'ev.flag', project: P, environment: 'development' }]],
  ['enable a flag', async () => ok(await call(app, 'POST', `${envPath('ev.flag')}/on`)), [{ type: 'feature-environment-enabled', featureName: 'ev.flag', project: P, environment: 'development' }]],
  [
    'enable a flag with no strategy',
    async () => ok(await call(app, 'POST', `${envPath('ev.flag', 'production')}/on`)),
    [
      { type: 'feature-strategy-add', featureName: 'ev.flag', project: P, environment: 'production' },
      { type: 'feature-environment-enabled', featureName: 'ev.flag', project: P, environment: 'production' },
    ],
  ],
  ['disable a flag', async () => ok(await call(app, 'POST', `${envPath('ev.flag', 'production')}/off`)), [{ type: 'feature-environment-disabled', featureName: 'ev.flag', project: P, environment: 'production' }]],
  [
    'remove the last strategy of an enabled flag',
    async () => ok(await call(app, 'DELETE', `${envPath('ev.flag')}/strategies/${strategyId}`)),
    [
      { type: 'feature-strategy-remove', featureName: 'ev.flag', project: P, environment: 'development' },
      { type: 'feature-environment-disabled', featureName: 'ev.flag', project: P, environment: 'development' },
    ],
  ],
  ['set environment variants', async () => ok(await call(app, 'PUT', `${envPath('ev.flag')}/variants`, { body: [{ name: 'a' }] })), [{ type: 'feature-environment-variants-updated', featureName: 'ev.flag', project: P, environment: 'development' }]],
  [
    'tag a flag with a new tag',
    async () => ok(await call(app, 'POST', '/api/admin/features/ev.flag/tags', { body: { type: 'simple', value: 'ev-tag' } })),
    [{ type: 'tag-created' }, { type: 'feature-tagged', featureName: 'ev.flag', project: P }],
  ],
  ['untag a flag', async () => ok(await call(app, 'DELETE', '/api/admin/features/ev.flag/tags/simple/ev-tag')), [{ type: 'feature-untagged', featureName: 'ev.flag', project: P }]],
  ['add a dependency', async () => ok(await call(app, 'POST', `${flagPath('ev.flag')}/dependencies`, { body: { feature: 'ev.parent' } })), [{ type: 'feature-dependency-added', featureName: 'ev.flag', project: P }]],
  ['remove a dependency', async () => ok(await call(app, 'DELETE', `${flagPath('ev.flag')}/dependencies/ev.parent`)), [{ type: 'feature-dependency-removed', featureName: 'ev.flag', project: P }]],
  [
    'create a segment',
    async () => {
      const response = ok(await call(app, 'POST', '/api/admin/segments', { body: { name: 'ev-segment', constraints: [] } }));
      segmentId = response.json.id;
    },
    [{ type: 'segment-created' }],
  ],
  ['update a segment', async () => ok(await call(app, 'PUT', `/api/admin/segments/${segmentId}`, { body: { name: 'ev-segment', description: 'x', constraints: [] } })), [{ type: 'segment-updated' }]],
  ['delete a segment', async () => ok(await call(app, 'DELETE', `/api/admin/segments/${segmentId}`)), [{ type: 'segment-deleted' }]],
  ['create a strategy definition', async () => ok(await call(app, 'POST', '/api/admin/strategies', { body: { name: 'evCustom' } })), [{ type: 'strategy-created' }]],
  ['deprecate a strategy definition', async () => ok(await call(app, 'POST', '/api/admin/strategies/evCustom/deprecate')), [{ type: 'strategy-deprecated' }]],
  ['reactivate a strategy definition', async () => ok(await call(app, 'POST', '/api/admin/strategies/evCustom/reactivate')), [{ type: 'strategy-reactivated' }]],
  ['update a strategy definition', async () => ok(await call(app, 'PUT', '/api/admin/strategies/evCustom', { body: { name: 'evCustom', description: 'd' } })), [{ type: 'strategy-updated' }]],
  ['delete a strategy definition', async () => ok(await call(app, 'DELETE', '/api/admin/strategies/evCustom')), [{ type: 'strategy-deleted' }]],
  ['create another project', async () => ok(await call(app, 'POST', '/api/admin/projects', { body: { id: 'events-target', name: 'Target' } })), [{ type: 'project-created', project: 'events-target' }]],
  ['move a flag', async () => ok(await call(app, 'POST', `${flagPath('ev.parent')}/changeProject`, { body: { newProjectId: 'events-target' } })), [{ type: 'feature-project-change', featureName: 'ev.parent', project: 'events-target' }]],
  ['archive a flag', async () => ok(await call(app, 'DELETE', flagPath('ev.flag'))), [{ type: 'feature-archived', featureName: 'ev.flag', project: P }]],
  ['revive a flag', async () => ok(await call(app, 'POST', '/api/admin/archive/revive/ev.flag')), [{ type: 'feature-revived', featureName: 'ev.flag', project: P }]],
  ['archive flags in bulk', async () => ok(await call(app, 'POST', `/api/admin/projects/${P}/archive`, { body: { features: ['ev.flag'] } })), [{ type: 'feature-archived', featureName: 'ev.flag', project: P }]],
  ['delete an archived flag', async () => ok(await call(app, 'DELETE', '/api/admin/archive/ev.flag')), [{ type: 'feature-deleted', featureName: 'ev.flag', project: P }]],
  ['disable an environment', async () => ok(await call(app, 'POST', '/api/admin/environments/staging/off')), [{ type: 'environment-updated', environment: 'staging' }]],
  ['delete a project', async () => ok(await call(app, 'DELETE', `/api/admin/projects/${P}`)), [{ type: 'project-deleted', project: P }]],
  ['delete an environment', async () => ok(await call(app, 'DELETE', '/api/admin/environments/staging')), [{ type: 'environment-deleted', environment: 'staging' }]],
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
    const response = await call(app, 'POST', '/api/admin/projects/default/features', {
      body: { name: 'halfway.flag', tags: [{ type: 'simple', value: 'halfway-tag' }, { type: 'no-such-type', value: 'x1' }] },
    });
    expect(response.status).toBe(400);
    expect(await latestEventId()).toBe(before);
    expect((await call(app, 'GET', '/api/admin/projects/default/features/halfway.flag')).status).toBe(404);
    expect((await call(app, 'GET', '/api/admin/tags/simple/halfway-tag')).status).toBe(404);
  });

  it('deleting archived flags in bulk stops at an active one and deletes none', async () => {
    for (const name of ['halfway.a', 'halfway.b']) {
      ok(await call(app, 'POST', '/api/admin/projects/default/features', { body: { name } }));
    }
    ok(await call(app, 'DELETE', '/api/admin/projects/default/features/halfway.a'));
    const before = await latestEventId();
    const response = await call(app, 'POST', '/api/admin/projects/default/delete', { body: { features: ['halfway.a', 'halfway.b'] } });
    expect(response.status).toBe(409);
    expect(await latestEventId()).toBe(before);
    const revived = await call(app, 'POST', '/api/admin/archive/revive/halfway.a');
    expect(revived.status).toBe(200);
  });

  it('archiving in bulk with one unknown flag archives nothing', async () => {
    ok(await call(app, 'POST', '/api/admin/projects/default/features', { body: { name: 'halfway.c' } }));
    const before = await latestEventId();
    const response = await call(app, 'POST', '/api/admin/projects/default/archive', { body: { features: ['halfway.c', 'halfway.missing'] } });
    expect(response.status).toBe(404);
    expect(await latestEventId()).toBe(before);
    expect((await call(app, 'GET', '/api/admin/projects/default/features/halfway.c')).status).toBe(200);
  });
});
