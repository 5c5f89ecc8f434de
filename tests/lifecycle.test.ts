import { beforeAll, describe, expect, it } from 'vitest';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures, flagPath } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newProject, createFlag, turnOn, turnOff, archiveFlag, flagOf } = fixtures(() => app, unique);

const { latestEventId, eventsSince } = eventReader(() => app);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh project and a flag in it. */
async function flagInNewProject(prefix = 'lc-flag') {
  const project = await newProject();
  const name = unique(prefix);
  const result = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: project } }, body: { name } });
  expect(result.response.status, JSON.stringify(result.error)).toBe(201);
  return { project, name, created: result.data! };
}

async function lifecycle(projectId: string, featureName: string) {
  const result = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}/lifecycle', {
    params: { path: { projectId, featureName } },
  });
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
  return result.data!;
}

async function lifecycleStages(projectId: string, featureName: string) {
  return (await lifecycle(projectId, featureName)).map((s) => s.stage);
}

/** For bodies the types forbid. */
function completeRaw(projectId: string, featureName: string, body: unknown, contentType?: string) {
  return call(app, 'POST', `/api/admin/projects/${projectId}/features/${featureName}/lifecycle/complete`, {
    body: body as object,
    ...(contentType !== undefined && { contentType }),
  });
}

/** POST …/lifecycle/complete; the typed answer. */
const sendComplete = (projectId: string, featureName: string, body: { status: 'kept' | 'discarded'; statusValue?: string }) =>
  app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/lifecycle/complete', { params: { path: flagPath(featureName, projectId) }, body });

async function complete(projectId: string, featureName: string, body: { status: 'kept' | 'discarded'; statusValue?: string }) {
  const result = await sendComplete(projectId, featureName, body);
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
}

/** POST …/lifecycle/uncomplete; the typed answer. */
const sendUncomplete = (projectId: string, featureName: string) =>
  app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/lifecycle/uncomplete', { params: { path: flagPath(featureName, projectId) } });

async function uncomplete(projectId: string, featureName: string) {
  const result = await sendUncomplete(projectId, featureName);
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
}

async function reviveFlag(featureName: string) {
  const result = await app.admin.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName } } });
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
}

async function deleteArchived(featureName: string) {
  const result = await app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName } } });
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
}

/** The search result for exactly that flag, from the active flags or (archived) the archive; undefined when absent. */
async function searched(featureName: string, archived = false) {
  const result = await app.admin.GET('/api/admin/search/features', {
    params: { query: { query: featureName, ...(archived && { archived: 'IS:true' as const }), limit: '1000' } },
  });
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
  return result.data!.features.find((f) => f.name === featureName);
}

async function archivedList(projectId: string) {
  const result = await app.admin.GET('/api/admin/archive/features/{projectId}', { params: { path: { projectId } } });
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
  return result.data!;
}

describe('lifecycle: stages entered by creating and enabling', () => {
  it('a new flag is in the initial stage, entered when it was created', async () => {
    const { project, name, created } = await flagInNewProject();
    const read = await lifecycle(project, name);
    expect(read).toEqual([{ stage: 'initial', enteredStageAt: created.createdAt }]);
    const flag = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: project, featureName: name } } });
    expect(read[0]!.enteredStageAt).toBe(flag.data!.createdAt);
    const found = await searched(name);
    expect(found?.lifecycle).toEqual({ stage: 'initial', enteredStageAt: created.createdAt });
  });

  it('enabling in development appends pre-live, then enabling in production appends live', async () => {
    const { project, name } = await flagInNewProject();
    const beforeDev = Date.now();
    await turnOn(name, 'development', project);
    const afterDev = Date.now();
    const afterPreLive = await lifecycle(project, name);
    expect(afterPreLive.map((s) => s.stage)).toEqual(['initial', 'pre-live']);
    const preLiveAt = Date.parse(afterPreLive[1]!.enteredStageAt);
    expect(preLiveAt).toBeGreaterThanOrEqual(beforeDev - 1000);
    expect(preLiveAt).toBeLessThanOrEqual(afterDev + 1000);
    expect((await searched(name))?.lifecycle?.stage).toBe('pre-live');

    await turnOn(name, 'production', project);
    const afterLive = await lifecycle(project, name);
    expect(afterLive.map((s) => s.stage)).toEqual(['initial', 'pre-live', 'live']);
    expect(afterLive.slice(0, 2)).toEqual(afterPreLive);
    expect(Date.parse(afterLive[2]!.enteredStageAt)).toBeGreaterThanOrEqual(preLiveAt);
    expect((await searched(name))?.lifecycle).toEqual({ stage: 'live', enteredStageAt: afterLive[2]!.enteredStageAt });
  });

  it('enabling in production first goes straight to live; enabling in development afterwards adds nothing', async () => {
    const { project, name } = await flagInNewProject();
    await turnOn(name, 'production', project);
    const live = await lifecycle(project, name);
    expect(live.map((s) => s.stage)).toEqual(['initial', 'live']);
    await turnOn(name, 'development', project);
    expect(await lifecycle(project, name)).toEqual(live);
    expect((await searched(name))?.lifecycle?.stage).toBe('live');
  });

  it('disabling does not move a flag back, and enabling again does not re-enter a stage', async () => {
    const { project, name } = await flagInNewProject();
    await turnOn(name, 'development', project);
    await turnOn(name, 'production', project);
    const live = await lifecycle(project, name);
    await turnOff(name, 'production', project);
    await turnOff(name, 'development', project);
    expect(await lifecycle(project, name)).toEqual(live);
    expect((await searched(name))?.lifecycle?.stage).toBe('live');
    await turnOn(name, 'production', project);
    await turnOn(name, 'development', project);
    expect(await lifecycle(project, name)).toEqual(live);
  });

  it('an unknown flag, a flag of another project, an unknown project and an archived flag → 404', async () => {
    const { project, name } = await flagInNewProject();
    const other = await newProject();
    const read = (projectId: string, featureName: string) =>
      app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}/lifecycle', { params: { path: flagPath(featureName, projectId) } });
    expectError(await read(project, unique('missing')), 404, 'NotFoundError');
    expectError(await read(other, name), 404, 'NotFoundError');
    expectError(await read(unique('no-project'), name), 404, 'NotFoundError');
    await archiveFlag(project, name);
    expectError(await read(project, name), 404, 'NotFoundError');
  });
});

describe('lifecycle: complete', () => {
  it('completes with 200: completed is appended and feature-completed is recorded with the status', async () => {
    const { project, name } = await flagInNewProject();
    await turnOn(name, 'production', project);
    const before = await latestEventId();
    const response = await sendComplete(project, name, { status: 'kept', statusValue: 'variantA' });
    expect(response.response.status).toBe(200);
    const read = await lifecycle(project, name);
    expect(read.map((s) => s.stage)).toEqual(['initial', 'live', 'completed']);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-completed']);
    expect(events[0]).toMatchObject({ featureName: name, project, data: { status: 'kept', statusValue: 'variantA' } });
    expect(events[0]!.data).toEqual({ status: 'kept', statusValue: 'variantA' });
    expect(events[0]!.preData).toBeNull();
  });

  it('the search result of a completed flag carries status and statusValue', async () => {
    const { project, name } = await flagInNewProject();
    await complete(project, name, { status: 'kept', statusValue: 'variantA' });
    const read = await lifecycle(project, name);
    expect(read.map((s) => s.stage)).toEqual(['initial', 'completed']);
    const found = await searched(name);
    expect(found?.lifecycle).toEqual({ stage: 'completed', status: 'kept', statusValue: 'variantA', enteredStageAt: read[1]!.enteredStageAt });
  });

  it("the flag's own read carries its current stage with status and statusValue", async () => {
    const { project, name } = await flagInNewProject();
    await complete(project, name, { status: 'kept', statusValue: 'variantA' });
    const read = await lifecycle(project, name);
    expect((await flagOf(name, project)).lifecycle).toEqual({ stage: 'completed', status: 'kept', statusValue: 'variantA', enteredStageAt: read[1]!.enteredStageAt });
    await uncomplete(project, name);
    expect((await flagOf(name, project)).lifecycle).toEqual({ stage: 'initial', enteredStageAt: read[0]!.enteredStageAt });
  });

  it('a completion without statusValue carries only the status', async () => {
    const { project, name } = await flagInNewProject();
    const before = await latestEventId();
    await complete(project, name, { status: 'discarded' });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-completed']);
    expect(events[0]!.data).toEqual({ status: 'discarded' });
    const found = await searched(name);
    expect(found?.lifecycle).toMatchObject({ stage: 'completed', status: 'discarded' });
    expect(found?.lifecycle).not.toHaveProperty('statusValue');
  });

  it('completing again with the same body writes no event; with another status it writes one with the previous status as preData', async () => {
    const { project, name } = await flagInNewProject();
    await complete(project, name, { status: 'kept', statusValue: 'variantA' });
    const completed = await lifecycle(project, name);

    const beforeSame = await latestEventId();
    await complete(project, name, { status: 'kept', statusValue: 'variantA' });
    expect(await eventsSince(beforeSame)).toEqual([]);
    expect(await lifecycle(project, name)).toEqual(completed);

    const beforeOther = await latestEventId();
    await complete(project, name, { status: 'discarded' });
    const events = await eventsSince(beforeOther);
    expect(events.map((e) => e.type)).toEqual(['feature-completed']);
    expect(events[0]).toMatchObject({ featureName: name, project });
    expect(events[0]!.data).toEqual({ status: 'discarded' });
    expect(events[0]!.preData).toEqual({ status: 'kept', statusValue: 'variantA' });
    const after = await lifecycle(project, name);
    expect(after.map((s) => s.stage)).toEqual(['initial', 'completed']);
    expect(after.filter((s) => s.stage === 'completed')).toHaveLength(1);
    const found = await searched(name);
    expect(found?.lifecycle).toMatchObject({ stage: 'completed', status: 'discarded' });
    expect(found?.lifecycle).not.toHaveProperty('statusValue');
  });

  it.each([
    ['no status', { statusValue: 'variantA' }],
    ['the status maybe', { status: 'maybe' }],
    ['an unknown field', { status: 'kept', reason: 'done' }],
    ['an empty statusValue', { status: 'kept', statusValue: '' }],
    ['a statusValue that is not a string', { status: 'kept', statusValue: 7 }],
    ['a body that is not an object', ['kept']],
  ])('refuses %s with 400 ValidationError and changes nothing', async (_case, body) => {
    const { project, name } = await flagInNewProject();
    const before = await latestEventId();
    expectError(await completeRaw(project, name, body), 400, 'ValidationError');
    expect(await lifecycleStages(project, name)).toEqual(['initial']);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses malformed JSON with 400', async () => {
    const { project, name } = await flagInNewProject();
    const response = await completeRaw(project, name, '{"status": ');
    expect(response.status).toBe(400);
    expect(await lifecycleStages(project, name)).toEqual(['initial']);
  });

  it.each(['text/plain', 'application/xml'])('refuses a %s body with 415 and changes nothing', async (contentType) => {
    const { project, name } = await flagInNewProject();
    const before = await latestEventId();
    expectError(await completeRaw(project, name, JSON.stringify({ status: 'kept' }), contentType), 415, 'ContentTypeerror');
    expect(await lifecycleStages(project, name)).toEqual(['initial']);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('an unknown flag, a flag of another project, an unknown project and an archived flag → 404 with no event', async () => {
    const { project, name } = await flagInNewProject();
    const other = await newProject();
    const before = await latestEventId();
    const body = { status: 'kept' } as const;
    expectError(await sendComplete(project, unique('missing'), body), 404, 'NotFoundError');
    expectError(await sendComplete(other, name, body), 404, 'NotFoundError');
    expectError(await sendComplete(unique('no-project'), name, body), 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
    expect(await lifecycleStages(project, name)).toEqual(['initial']);

    await archiveFlag(project, name);
    const beforeArchived = await latestEventId();
    expectError(await sendComplete(project, name, body), 404, 'NotFoundError');
    expect(await eventsSince(beforeArchived)).toEqual([]);
    expect((await searched(name, true))?.lifecycle?.stage).toBe('archived');
  });
});

describe('lifecycle: uncomplete', () => {
  it('uncompletes with 200: completed is removed, the flag is back in its previous stage, feature-uncompleted is recorded', async () => {
    const { project, name } = await flagInNewProject();
    await turnOn(name, 'development', project);
    await turnOn(name, 'production', project);
    const live = await lifecycle(project, name);
    await complete(project, name, { status: 'kept', statusValue: 'variantA' });
    expect(await lifecycleStages(project, name)).toEqual(['initial', 'pre-live', 'live', 'completed']);

    const before = await latestEventId();
    const response = await sendUncomplete(project, name);
    expect(response.response.status).toBe(200);
    expect(await lifecycle(project, name)).toEqual(live);
    const found = await searched(name);
    expect(found?.lifecycle).toEqual({ stage: 'live', enteredStageAt: live[2]!.enteredStageAt });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-uncompleted']);
    expect(events[0]).toMatchObject({ featureName: name, project });
  });

  it('uncompleting a flag that is not completed answers 200 and writes no event', async () => {
    const { project, name } = await flagInNewProject();
    await turnOn(name, 'development', project);
    const read = await lifecycle(project, name);
    const before = await latestEventId();
    expect((await sendUncomplete(project, name)).response.status).toBe(200);
    expect(await lifecycle(project, name)).toEqual(read);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('uncompleting twice writes one event', async () => {
    const { project, name } = await flagInNewProject();
    await complete(project, name, { status: 'discarded' });
    const before = await latestEventId();
    await uncomplete(project, name);
    await uncomplete(project, name);
    expect((await eventsSince(before)).map((e) => e.type)).toEqual(['feature-uncompleted']);
    expect(await lifecycleStages(project, name)).toEqual(['initial']);
    expect((await searched(name))?.lifecycle?.stage).toBe('initial');
  });

  it('a flag can be completed again after uncompleting, with the new status', async () => {
    const { project, name } = await flagInNewProject();
    await complete(project, name, { status: 'kept', statusValue: 'variantA' });
    await uncomplete(project, name);
    const before = await latestEventId();
    await complete(project, name, { status: 'kept', statusValue: 'variantB' });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-completed']);
    expect(events[0]!.data).toEqual({ status: 'kept', statusValue: 'variantB' });
    expect((await searched(name))?.lifecycle).toMatchObject({ stage: 'completed', status: 'kept', statusValue: 'variantB' });
  });

  it('an unknown flag, a flag of another project, an unknown project and an archived flag → 404', async () => {
    const { project, name } = await flagInNewProject();
    const other = await newProject();
    await complete(project, name, { status: 'kept' });
    const before = await latestEventId();
    expectError(await sendUncomplete(project, unique('missing')), 404, 'NotFoundError');
    expectError(await sendUncomplete(other, name), 404, 'NotFoundError');
    expectError(await sendUncomplete(unique('no-project'), name), 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
    expect(await lifecycleStages(project, name)).toEqual(['initial', 'completed']);
    await archiveFlag(project, name);
    const beforeArchived = await latestEventId();
    expectError(await sendUncomplete(project, name), 404, 'NotFoundError');
    expect(await eventsSince(beforeArchived)).toEqual([]);
  });
});

describe('lifecycle: archive and revive', () => {
  it('archiving puts the flag in the archived stage, entered when it was archived; reviving restores the stage before', async () => {
    const { project, name } = await flagInNewProject();
    await turnOn(name, 'development', project);
    const preLive = (await searched(name))!.lifecycle;
    expect(preLive?.stage).toBe('pre-live');

    await archiveFlag(project, name);
    const archived = await searched(name, true);
    expect(archived).toBeDefined();
    expect(archived!.archivedAt).not.toBeNull();
    expect(archived!.lifecycle).toEqual({ stage: 'archived', enteredStageAt: archived!.archivedAt });
    expect(await searched(name)).toBeUndefined();

    await reviveFlag(name);
    expect(await searched(name, true)).toBeUndefined();
    const revived = await searched(name);
    expect(revived).toBeDefined();
    expect(revived).not.toHaveProperty('archivedAt');
    expect(revived?.lifecycle).toEqual(preLive);
    expect(await lifecycleStages(project, name)).toEqual(['initial', 'pre-live']);
  });

  it('a completed flag is archived and revived back to completed with its status', async () => {
    const { project, name } = await flagInNewProject();
    await turnOn(name, 'production', project);
    await complete(project, name, { status: 'kept', statusValue: 'variantA' });
    const completed = (await searched(name))!.lifecycle;
    expect(completed).toMatchObject({ stage: 'completed', status: 'kept', statusValue: 'variantA' });

    await archiveFlag(project, name);
    const archived = await searched(name, true);
    expect(archived!.lifecycle).toMatchObject({ stage: 'archived', enteredStageAt: archived!.archivedAt });

    await reviveFlag(name);
    expect((await searched(name))?.lifecycle).toEqual(completed);
    expect(await lifecycleStages(project, name)).toEqual(['initial', 'live', 'completed']);
  });

  it('a flag archived a second time is archived at the new time', async () => {
    const { project, name } = await flagInNewProject();
    await archiveFlag(project, name);
    const first = (await searched(name, true))!;
    await reviveFlag(name);
    await sleep(10);
    await archiveFlag(project, name);
    const second = (await searched(name, true))!;
    expect(Date.parse(second.archivedAt!)).toBeGreaterThan(Date.parse(first.archivedAt!));
    expect(second.lifecycle).toEqual({ stage: 'archived', enteredStageAt: second.archivedAt });
    await reviveFlag(name);
    expect((await searched(name))?.lifecycle?.stage).toBe('initial');
  });
});

describe('GET /api/admin/archive/features/{projectId}', () => {
  it("lists only that project's archived flags, most recently archived first", async () => {
    const project = await newProject();
    const other = await newProject();
    // Archived in the order z, a, m: newest first is m, a, z, which neither name order nor creation order gives.
    const [z, a, m] = [unique('arch-z'), unique('arch-a'), unique('arch-m')];
    const active = unique('arch-active');
    const elsewhere = unique('arch-elsewhere');
    for (const name of [a, m, z, active]) await createFlag(project, name);
    await createFlag(other, elsewhere);
    for (const name of [z, a, m]) {
      await archiveFlag(project, name);
      await sleep(10);
    }
    await archiveFlag(other, elsewhere);

    const listed = await archivedList(project);
    expect(listed.version).toBe(1);
    expect(listed.features.map((f) => f.name)).toEqual([m, a, z]);
    for (const feature of listed.features) {
      expect(feature).toMatchObject({ project, archived: true });
      expect(feature.archivedAt).not.toBeNull();
      expect(Number.isNaN(Date.parse(feature.archivedAt!))).toBe(false);
    }
    const times = listed.features.map((f) => Date.parse(f.archivedAt!));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    expect((await archivedList(other)).features.map((f) => f.name)).toEqual([elsewhere]);
  });

  it('an unknown project → 200 with no flags', async () => {
    const listed = await archivedList(unique('no-project'));
    expect(listed).toEqual({ version: 1, features: [] });
  });

  it('a project with no archived flags → an empty list', async () => {
    const project = await newProject();
    await createFlag(project, unique('never-archived'));
    expect(await archivedList(project)).toEqual({ version: 1, features: [] });
  });

  it('a revived flag leaves the list; a deleted one too', async () => {
    const project = await newProject();
    const [revived, deleted, kept] = [unique('arch-revived'), unique('arch-deleted'), unique('arch-kept')];
    for (const name of [revived, deleted, kept]) {
      await createFlag(project, name);
      await archiveFlag(project, name);
    }
    expect(new Set((await archivedList(project)).features.map((f) => f.name))).toEqual(new Set([revived, deleted, kept]));

    await reviveFlag(revived);
    expect(new Set((await archivedList(project)).features.map((f) => f.name))).toEqual(new Set([deleted, kept]));
    const active = await searched(revived);
    expect(active).toBeDefined();
    expect(active).not.toHaveProperty('archivedAt');

    await deleteArchived(deleted);
    expect((await archivedList(project)).features.map((f) => f.name)).toEqual([kept]);
    expect(await searched(deleted, true)).toBeUndefined();
  });
});
