// What /api/client/features answers beyond the flags themselves: their order, the order of the segments listed,
// the legacy `strategy` field, flags of projects without the token's environment, and answers of different
// request shapes kept apart in the server's cache.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { clientFeaturesRead, flagNames } from './support/client-api.js';
import { fixtures, newApiToken } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const { newProject, createFlag, turnOn, addStrategy, createSegment } = fixtures(() => app, uniqueNames());

const segmentAware = { 'unleash-client-spec': '4.2.0' };


describe('the client features list', () => {
  it('stays in name order after a change to a flag created earlier', async () => {
    const project = await newProject('order');
    for (const name of ['order.b', 'order.c', 'order.a']) await createFlag(project, name);
    const token = await newApiToken(app, { type: 'client', environment: 'development', projects: [project] });
    expect(flagNames(await clientFeaturesRead(app, token))).toEqual(['order.a', 'order.b', 'order.c']);

    await turnOn('order.a', 'development', project);
    const changed = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}', {
      params: { path: { projectId: project, featureName: 'order.b' } },
      body: { description: 'changed' },
    });
    expect(changed.response.status, JSON.stringify(changed.error)).toBe(200);
    expect(flagNames(await clientFeaturesRead(app, token))).toEqual(['order.a', 'order.b', 'order.c']);
  });

  it('lists the segments in use in id order, not in the order of the flags that use them', async () => {
    const project = await newProject('segorder');
    const ids: number[] = [];
    for (const name of ['seg-one', 'seg-two', 'seg-three']) ids.push((await createSegment({ name })).id);
    // The first flag by name uses the newest segment, the last one the oldest.
    for (const [flag, segment] of [['segorder.a', ids[2]], ['segorder.b', ids[1]], ['segorder.c', ids[0]]] as const) {
      await createFlag(project, flag);
      await addStrategy(flag, { name: 'default', segments: [segment!] }, 'development', project);
    }
    const token = await newApiToken(app, { type: 'client', environment: 'development', projects: [project] });
    const body = await clientFeaturesRead(app, token, {}, segmentAware);
    expect(body.segments!.map((s) => s.id)).toEqual([...ids].sort((a, b) => a - b));
  });

  it("names `default` as the legacy `strategy` of a flag that has no strategy", async () => {
    const project = await newProject('legacy');
    await createFlag(project, 'legacy.bare');
    const token = await newApiToken(app, { type: 'client', environment: 'development', projects: [project] });
    const [flag] = (await clientFeaturesRead(app, token)).features;
    expect(flag).toMatchObject({ name: 'legacy.bare', strategy: 'default', strategies: [] });
  });

  it('serves a flag of a project without the token environment as off, with no strategies', async () => {
    const project = await newProject('devonly', ['development']);
    await createFlag(project, 'devonly.flag');
    await turnOn('devonly.flag', 'development', project);
    const token = await newApiToken(app, { type: 'client', environment: 'production', projects: [project] });
    for (const headers of [{}, segmentAware]) {
      const [flag] = (await clientFeaturesRead(app, token, {}, headers)).features;
      expect(flag).toMatchObject({ name: 'devonly.flag', enabled: false, strategies: [], variants: [] });
    }
  });
});

describe('answers of different request shapes', () => {
  it('keep apart a query that leaves a scoped token no project and a request for every project', async () => {
    const project = await newProject('shape-a');
    await createFlag(project, 'shape-a.flag');
    const scoped = await newApiToken(app, { type: 'client', environment: 'development', projects: [project] });
    const everything = await newApiToken(app, { type: 'client', environment: 'development' });

    expect(flagNames(await clientFeaturesRead(app, scoped, { project: ['default'] }))).toEqual([]);
    const all = flagNames(await clientFeaturesRead(app, everything));
    expect(all).toContain('shape-a.flag');
    expect(all.length).toBeGreaterThan(1);
  });
});
