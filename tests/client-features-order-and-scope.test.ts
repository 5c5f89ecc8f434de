// What /api/client/features answers beyond the flags themselves: their order, the order of the segments listed,
// the legacy `strategy` field, flags of projects without the token's environment, and answers of different
// request shapes kept apart in the server's cache.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const { createFlag, turnOn, addStrategy, createSegment } = fixtures(() => app, uniqueNames());

async function createProject(id: string, environments?: string[]) {
  const result = await app.admin.POST('/api/admin/projects', { body: { id, name: id, ...(environments && { environments }) } });
  expect(result.response.status, JSON.stringify(result.error)).toBe(201);
}

const segmentAware = { 'unleash-client-spec': '4.2.0' };

async function features(token: string, query: { project?: string[] } = {}, headers: Record<string, string> = {}) {
  const { data, error, response } = await app.clientWith(token).GET('/api/client/features', { params: { query }, headers });
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!;
}

const names = (body: { features: { name: string }[] }) => body.features.map((f) => f.name);

describe('the client features list', () => {
  it('stays in name order after a change to a flag created earlier', async () => {
    await createProject('order');
    for (const name of ['order.b', 'order.c', 'order.a']) await createFlag('order', name);
    const token = await newApiToken(app, { type: 'client', environment: 'development', projects: ['order'] });
    expect(names(await features(token))).toEqual(['order.a', 'order.b', 'order.c']);

    await turnOn('order.a', 'development', 'order');
    const changed = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}', {
      params: { path: { projectId: 'order', featureName: 'order.b' } },
      body: { description: 'changed' },
    });
    expect(changed.response.status, JSON.stringify(changed.error)).toBe(200);
    expect(names(await features(token))).toEqual(['order.a', 'order.b', 'order.c']);
  });

  it('lists the segments in use in id order, not in the order of the flags that use them', async () => {
    await createProject('segorder');
    const ids: number[] = [];
    for (const name of ['seg-one', 'seg-two', 'seg-three']) ids.push((await createSegment({ name })).id);
    // The first flag by name uses the newest segment, the last one the oldest.
    for (const [flag, segment] of [['segorder.a', ids[2]], ['segorder.b', ids[1]], ['segorder.c', ids[0]]] as const) {
      await createFlag('segorder', flag);
      await addStrategy(flag, { name: 'default', segments: [segment!] }, 'development', 'segorder');
    }
    const token = await newApiToken(app, { type: 'client', environment: 'development', projects: ['segorder'] });
    const body = await features(token, {}, segmentAware);
    expect(body.segments!.map((s) => s.id)).toEqual([...ids].sort((a, b) => a - b));
  });

  it("names `default` as the legacy `strategy` of a flag that has no strategy", async () => {
    await createProject('legacy');
    await createFlag('legacy', 'legacy.bare');
    const token = await newApiToken(app, { type: 'client', environment: 'development', projects: ['legacy'] });
    const [flag] = (await features(token)).features;
    expect(flag).toMatchObject({ name: 'legacy.bare', strategy: 'default', strategies: [] });
  });

  it('serves a flag of a project without the token environment as off, with no strategies', async () => {
    await createProject('devonly', ['development']);
    await createFlag('devonly', 'devonly.flag');
    await turnOn('devonly.flag', 'development', 'devonly');
    const token = await newApiToken(app, { type: 'client', environment: 'production', projects: ['devonly'] });
    for (const headers of [{}, segmentAware]) {
      const [flag] = (await features(token, {}, headers)).features;
      expect(flag).toMatchObject({ name: 'devonly.flag', enabled: false, strategies: [], variants: [] });
    }
  });
});

describe('answers of different request shapes', () => {
  it('keep apart a query that leaves a scoped token no project and a request for every project', async () => {
    await createProject('shape-a');
    await createFlag('shape-a', 'shape-a.flag');
    const scoped = await newApiToken(app, { type: 'client', environment: 'development', projects: ['shape-a'] });
    const everything = await newApiToken(app, { type: 'client', environment: 'development' });

    expect(names(await features(scoped, { project: ['default'] }))).toEqual([]);
    const all = names(await features(everything));
    expect(all).toContain('shape-a.flag');
    expect(all.length).toBeGreaterThan(1);
  });
});
