import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { eventReader, uniqueNames } from './support/events.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newProject, newFlag } = fixtures(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms);

async function setEnabled(projectId: string, featureName: string, environment: string, enabled: boolean) {
  const path = { projectId, featureName, environment };
  const result = enabled
    ? await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', { params: { path } })
    : await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', { params: { path } });
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
}

async function markStale(projectId: string, featureName: string) {
  const result = await app.admin.PATCH('/api/admin/projects/{projectId}/features/{featureName}', {
    params: { path: { projectId, featureName } },
    body: [{ op: 'replace', path: '/stale', value: true }],
  });
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
}

async function archiveFlag(projectId: string, featureName: string) {
  const result = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId, featureName } } });
  expect(result.response.status).toBe(202);
}

async function projectEventIds(project: string): Promise<number[]> {
  const { data } = await app.admin.GET('/api/admin/events', { params: { query: { project } } });
  return data!.events.map((e) => e.id);
}

async function insights(projectId: string) {
  const result = await app.admin.GET('/api/admin/projects/{projectId}/insights', { params: { path: { projectId } } });
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
  return result.data!;
}

// Backdating is the one thing no operation can do: these write rows directly.
async function backdateCreation(featureName: string, msAgo: number) {
  await app.db.update(t.features).set({ createdAt: ago(msAgo) }).where(eq(t.features.name, featureName));
}

async function backdateArchiving(featureName: string, msAgo: number) {
  await app.db.update(t.features).set({ archivedAt: ago(msAgo) }).where(eq(t.features.name, featureName));
}

async function backdateEvents(ids: number[], msAgo: number) {
  await app.db.update(t.events).set({ createdAt: ago(msAgo) }).where(inArray(t.events.id, ids));
}

async function backdateProductionEnabling(featureName: string, msAgo: number) {
  await app.db
    .update(t.events)
    .set({ createdAt: ago(msAgo) })
    .where(and(eq(t.events.featureName, featureName), eq(t.events.type, 'feature-environment-enabled'), eq(t.events.environment, 'production')));
}

/** A release flag that reaches production `days` after its creation, `reachedMsAgo` ago. */
async function releasedFlag(projectId: string, days: number, reachedMsAgo = 0): Promise<string> {
  const name = await newFlag('released', projectId);
  await setEnabled(projectId, name, 'production', true);
  await backdateProductionEnabling(name, reachedMsAgo);
  await backdateCreation(name, reachedMsAgo + days * DAY_MS);
  return name;
}

describe('project insights', () => {
  it('answers 404 for an unknown project', async () => {
    const result = await app.admin.GET('/api/admin/projects/{projectId}/insights', { params: { path: { projectId: 'no-such-project' } } });
    expectError(result, 404, 'NotFoundError');
  });

  it('describes an empty project', async () => {
    const project = await newProject();
    const body = await insights(project);
    expect(body).toEqual({
      stats: {
        avgTimeToProdCurrentWindow: 0,
        createdCurrentWindow: 0,
        createdPastWindow: 0,
        archivedCurrentWindow: 0,
        archivedPastWindow: 0,
        projectActivityCurrentWindow: (await projectEventIds(project)).length,
        projectActivityPastWindow: 0,
        projectMembersAddedCurrentWindow: 0,
      },
      health: { rating: 100, activeCount: 0, potentiallyStaleCount: 0, staleCount: 0 },
      leadTime: { projectAverage: 0, features: [] },
      featureTypeCounts: [],
      members: { currentMembers: 0, change: 0 },
    });
  });
});

describe('project insights: stats', () => {
  it('counts flags created and archived in the current and the past window', async () => {
    const project = await newProject();
    const other = await newProject();
    await newFlag('elsewhere', other);
    await newFlag('now', project);
    const now2 = await newFlag('now', project);
    const almostMonth = await newFlag('almost-month', project);
    await backdateCreation(almostMonth, 30 * DAY_MS - MINUTE_MS);
    const pastOnly = await newFlag('past', project);
    await backdateCreation(pastOnly, 30 * DAY_MS + MINUTE_MS);
    const pastArchived = await newFlag('past-archived', project);
    await backdateCreation(pastArchived, 59 * DAY_MS);
    const ancient = await newFlag('ancient', project);
    await backdateCreation(ancient, 60 * DAY_MS + MINUTE_MS);

    await archiveFlag(project, now2);
    await archiveFlag(project, pastArchived);
    await backdateArchiving(pastArchived, 31 * DAY_MS);
    await archiveFlag(project, ancient);
    await backdateArchiving(ancient, 61 * DAY_MS);

    const { stats } = await insights(project);
    expect(stats).toMatchObject({ createdCurrentWindow: 3, createdPastWindow: 2, archivedCurrentWindow: 1, archivedPastWindow: 1 });
  });

  it('counts the events of the project in each window, changing as the project is acted on', async () => {
    const project = await newProject();
    const before = await insights(project);
    const initial = (await projectEventIds(project)).length;
    expect(initial).toBeGreaterThan(0);
    expect(before.stats).toMatchObject({ projectActivityCurrentWindow: initial, projectActivityPastWindow: 0 });

    const since = await latestEventId();
    const flag = await newFlag('active', project);
    await markStale(project, flag);
    await setEnabled(project, flag, 'development', true);
    const written = (await eventsSince(since)).filter((e) => e.project === project).length;
    expect(written).toBeGreaterThanOrEqual(3);
    const other = await newProject();
    await newFlag('elsewhere', other);
    expect((await insights(project)).stats.projectActivityCurrentWindow).toBe(initial + written);

    const ids = await projectEventIds(project);
    await backdateEvents(ids.slice(0, 2), 45 * DAY_MS);
    await backdateEvents(ids.slice(2, 3), 61 * DAY_MS);
    expect((await insights(project)).stats).toMatchObject({
      projectActivityCurrentWindow: initial + written - 3,
      projectActivityPastWindow: 2,
    });
  });

  it('averages the lead time of the flags that reached production in the current window only', async () => {
    const project = await newProject();
    await releasedFlag(project, 3.5);
    await releasedFlag(project, 5.5, 40 * DAY_MS);
    const body = await insights(project);
    expect(body.stats.avgTimeToProdCurrentWindow).toBe(3.5);
    expect(body.leadTime.projectAverage).toBe(4.5);
  });
});

describe('project insights: health', () => {
  it('counts stale and potentially stale active flags and rates the project', async () => {
    const project = await newProject();
    const stale = await newFlag('stale', project);
    await markStale(project, stale);
    const old = await newFlag('old-operational', project, { type: 'operational' });
    await backdateCreation(old, 7 * DAY_MS + MINUTE_MS);
    await newFlag('fresh', project);
    const killSwitch = await newFlag('old-kill-switch', project, { type: 'kill-switch' });
    await backdateCreation(killSwitch, 400 * DAY_MS);
    const archived = await newFlag('archived-stale', project);
    await markStale(project, archived);
    await backdateCreation(archived, 400 * DAY_MS);
    await archiveFlag(project, archived);

    expect((await insights(project)).health).toEqual({ rating: 50, activeCount: 3, potentiallyStaleCount: 1, staleCount: 1 });
  });

  it('counts a stale flag past its lifetime as stale only, and rounds the rating', async () => {
    const project = await newProject();
    const staleAndOld = await newFlag('stale-old', project);
    await markStale(project, staleAndOld);
    await backdateCreation(staleAndOld, 41 * DAY_MS);
    const youngRelease = await newFlag('young-release', project);
    await backdateCreation(youngRelease, 39 * DAY_MS);
    await newFlag('fresh', project);

    expect((await insights(project)).health).toEqual({ rating: 67, activeCount: 2, potentiallyStaleCount: 0, staleCount: 1 });
  });

  it('rates a project without active flags 100', async () => {
    const project = await newProject();
    const flag = await newFlag('archived', project);
    await markStale(project, flag);
    await archiveFlag(project, flag);
    expect((await insights(project)).health).toEqual({ rating: 100, activeCount: 0, potentiallyStaleCount: 0, staleCount: 0 });
  });
});

describe('project insights: lead time', () => {
  it('measures the days from creation to the first production enabling of release flags', async () => {
    const project = await newProject();
    const first = await newFlag('first', project);
    await backdateCreation(first, 3.5 * DAY_MS);
    await setEnabled(project, first, 'development', true);
    await setEnabled(project, first, 'production', true);
    expect((await insights(project)).leadTime).toEqual({ projectAverage: 3.5, features: [{ name: first, timeToProduction: 3.5 }] });

    const twice = await newFlag('twice', project);
    await backdateCreation(twice, 3 * DAY_MS);
    await setEnabled(project, twice, 'production', true);
    await backdateProductionEnabling(twice, 0.9 * DAY_MS);
    await setEnabled(project, twice, 'production', false);
    await setEnabled(project, twice, 'production', true);

    const experiment = await newFlag('experiment', project, { type: 'experiment' });
    await backdateCreation(experiment, 10 * DAY_MS);
    await setEnabled(project, experiment, 'production', true);
    const developmentOnly = await newFlag('development-only', project);
    await backdateCreation(developmentOnly, 10 * DAY_MS);
    await setEnabled(project, developmentOnly, 'development', true);
    await newFlag('never-enabled', project);

    const { leadTime } = await insights(project);
    expect(leadTime.projectAverage).toBe(2.8);
    expect(leadTime.features).toEqual(
      expect.arrayContaining([
        { name: first, timeToProduction: 3.5 },
        { name: twice, timeToProduction: 2.1 },
      ]),
    );
    expect(leadTime.features).toHaveLength(2);
  });

  it('includes archived release flags', async () => {
    const project = await newProject();
    const archived = await releasedFlag(project, 2);
    await archiveFlag(project, archived);
    expect((await insights(project)).leadTime).toEqual({ projectAverage: 2, features: [{ name: archived, timeToProduction: 2 }] });
  });

  it('ignores production enablings from before the flag was created', async () => {
    const project = await newProject();
    const name = await releasedFlag(project, 1, 10 * DAY_MS);
    await archiveFlag(project, name);
    const deleted = await app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName: name } } });
    expect(deleted.response.status).toBe(200);
    const recreated = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: project } }, body: { name } });
    expect(recreated.response.status).toBe(201);
    expect((await insights(project)).leadTime).toEqual({ projectAverage: 0, features: [] });

    await backdateCreation(name, 4 * DAY_MS);
    await setEnabled(project, name, 'production', true);
    expect((await insights(project)).leadTime).toEqual({ projectAverage: 4, features: [{ name, timeToProduction: 4 }] });
  });

  it('shows a non-zero average too small to round as 0.1', async () => {
    const project = await newProject();
    const quick = await releasedFlag(project, MINUTE_MS / DAY_MS);
    expect((await insights(project)).leadTime).toEqual({ projectAverage: 0.1, features: [{ name: quick, timeToProduction: 0 }] });
  });
});

describe('project insights: flag types and members', () => {
  it('counts active flags per type, ordered by type', async () => {
    const project = await newProject();
    await newFlag('release', project);
    await newFlag('release', project);
    await newFlag('kill', project, { type: 'kill-switch' });
    await newFlag('experiment', project, { type: 'experiment' });
    const archived = await newFlag('archived-permission', project, { type: 'permission' });
    await archiveFlag(project, archived);
    expect((await insights(project)).featureTypeCounts).toEqual([
      { type: 'experiment', count: 1 },
      { type: 'kill-switch', count: 1 },
      { type: 'release', count: 2 },
    ]);
  });

  it('reports no members and none added until project members exist', async () => {
    const project = await newProject();
    await newFlag('flag', project);
    const body = await insights(project);
    expect(body.members).toEqual({ currentMembers: 0, change: 0 });
    expect(body.stats.projectMembersAddedCurrentWindow).toBe(0);
  });
});
