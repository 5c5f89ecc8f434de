// What /api/client/features answers beyond the flags themselves: their order, the order of the segments listed,
// the legacy `strategy` field, flags of projects without the token's environment, and answers of different
// request shapes kept apart in the server's cache.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';
import { adminJson, newApiToken } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const segmentAware = { 'unleash-client-spec': '4.2.0' };

async function features(token: string, query = '', headers: Record<string, string> = {}) {
  const response = await call(app, 'GET', `/api/client/features${query}`, { token, headers });
  expect(response.status, response.text).toBe(200);
  return response.json as { features: { name: string; enabled: boolean; strategy: string; strategies: unknown[] }[]; segments?: { id: number }[] };
}

const names = (body: { features: { name: string }[] }) => body.features.map((f) => f.name);

describe('the client features list', () => {
  it('stays in name order after a change to a flag created earlier', async () => {
    await adminJson(app, 'POST', '/api/admin/projects', { id: 'order', name: 'order' });
    for (const name of ['order.b', 'order.c', 'order.a']) await adminJson(app, 'POST', '/api/admin/projects/order/features', { name });
    const token = await newApiToken(app, { type: 'client', environment: 'development', projects: ['order'] });
    expect(names(await features(token))).toEqual(['order.a', 'order.b', 'order.c']);

    await adminJson(app, 'POST', '/api/admin/projects/order/features/order.a/environments/development/on');
    await adminJson(app, 'PUT', '/api/admin/projects/order/features/order.b', { description: 'changed' });
    expect(names(await features(token))).toEqual(['order.a', 'order.b', 'order.c']);
  });

  it('lists the segments in use in id order, not in the order of the flags that use them', async () => {
    await adminJson(app, 'POST', '/api/admin/projects', { id: 'segorder', name: 'segorder' });
    const ids: number[] = [];
    for (const name of ['seg-one', 'seg-two', 'seg-three']) {
      ids.push((await adminJson(app, 'POST', '/api/admin/segments', { name, constraints: [] })).id);
    }
    // The first flag by name uses the newest segment, the last one the oldest.
    for (const [flag, segment] of [['segorder.a', ids[2]], ['segorder.b', ids[1]], ['segorder.c', ids[0]]] as const) {
      await adminJson(app, 'POST', '/api/admin/projects/segorder/features', { name: flag });
      await adminJson(app, 'POST', `/api/admin/projects/segorder/features/${flag}/environments/development/strategies`, { name: 'default', segments: [segment] });
    }
    const token = await newApiToken(app, { type: 'client', environment: 'development', projects: ['segorder'] });
    const body = await features(token, '', segmentAware);
    expect(body.segments!.map((s) => s.id)).toEqual([...ids].sort((a, b) => a - b));
  });

  it("names `default` as the legacy `strategy` of a flag that has no strategy", async () => {
    await adminJson(app, 'POST', '/api/admin/projects', { id: 'legacy', name: 'legacy' });
    await adminJson(app, 'POST', '/api/admin/projects/legacy/features', { name: 'legacy.bare' });
    const token = await newApiToken(app, { type: 'client', environment: 'development', projects: ['legacy'] });
    const [flag] = (await features(token)).features;
    expect(flag).toMatchObject({ name: 'legacy.bare', strategy: 'default', strategies: [] });
  });

  it('serves a flag of a project without the token environment as off, with no strategies', async () => {
    await adminJson(app, 'POST', '/api/admin/projects', { id: 'devonly', name: 'devonly', environments: ['development'] });
    await adminJson(app, 'POST', '/api/admin/projects/devonly/features', { name: 'devonly.flag' });
    await adminJson(app, 'POST', '/api/admin/projects/devonly/features/devonly.flag/environments/development/on');
    const token = await newApiToken(app, { type: 'client', environment: 'production', projects: ['devonly'] });
    for (const headers of [{}, segmentAware]) {
      const [flag] = (await features(token, '', headers)).features;
      expect(flag).toMatchObject({ name: 'devonly.flag', enabled: false, strategies: [], variants: [] });
    }
  });
});

describe('answers of different request shapes', () => {
  it('keep apart a query that leaves a scoped token no project and a request for every project', async () => {
    await adminJson(app, 'POST', '/api/admin/projects', { id: 'shape-a', name: 'shape-a' });
    await adminJson(app, 'POST', '/api/admin/projects/shape-a/features', { name: 'shape-a.flag' });
    const scoped = await newApiToken(app, { type: 'client', environment: 'development', projects: ['shape-a'] });
    const everything = await newApiToken(app, { type: 'client', environment: 'development' });

    expect(names(await features(scoped, '?project=default'))).toEqual([]);
    const all = names(await features(everything));
    expect(all).toContain('shape-a.flag');
    expect(all.length).toBeGreaterThan(1);
  });
});
