// Milestones hand over by themselves when their time has passed: what SDKs see, pauses, change requests, restarts and
// several instances. Intervals of a second or so (0.02 minutes); instances look every 200 ms.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app/app.js';
import { createClient } from '../client/index.js';
import { configFromEnv } from '../kernel/config.js';
import { databaseKind, listenUntilFileEnds, startTestApp, type TestApp } from './support/app.js';
import { approver, changeRequestCalls, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok, seen, until } from './support/fixtures.js';
import { releasePlans, threeSteps, type PlanPlace } from './support/release-plans.js';
import { nodeSdk, ready, stopSdk, type SdkMode } from './support/sdk-changes.js';

let app: TestApp;
let token: string;
const unique = uniqueNames();
const { newFlag, turnOn } = fixtures(() => app, unique);
const { runningPlan, pause, resume, activeMilestone, planIn } = releasePlans(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);
const { moveTo } = changeRequestCalls(() => app);

beforeAll(async () => {
  // A database of its own: the restart and two-instance tests start their apps on the file's.
  app = await startTestApp({ ownDatabase: true });
  token = await newApiToken(app, { type: 'client', environment: 'development' });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const waitForMilestone = (place: PlanPlace, name: string, timeoutMs = 10_000) => until(`the milestone "${name}"`, () => activeMilestone(place), (active) => active === name, timeoutMs);
const startedEvents = async (since: number, featureName: string) => (await eventsSince(since)).filter((e) => e.type === 'release-plan-milestone-started' && e.featureName === featureName);

describe('a plan of three milestones', () => {
  it.each<[string, SdkMode]>([
    ['polling', undefined],
    ['streaming', { type: 'streaming' }],
  ])('advances by time, and the Node SDK (%s) sees each milestone in turn', async (mode, sdkMode) => {
    const featureName = await newFlag();
    const sdk = nodeSdk(app.url, token, sdkMode, unique(`sdk-${mode}`));
    try {
      await ready(sdk);
      const since = await latestEventId();
      await runningPlan({ featureName }, threeSteps(0.03));
      // Turned on after the start, so that the flag gets no strategy of its own (which would be on for everyone).
      await turnOn(featureName);
      const on = (userId: string) => sdk.isEnabled(featureName, { userId });
      await seen('the first milestone', () => on('m1') && !on('m2'));
      await seen('the second milestone', () => on('m2') && !on('m1'));
      await seen('the third milestone', () => on('m3') && !on('m2'));
      const started = await startedEvents(since, featureName);
      expect(started).toHaveLength(3);
      expect(started.slice(1).map((e) => e.createdBy)).toEqual(['unleash_system_user', 'unleash_system_user']);
    } finally {
      stopSdk(sdk);
    }
  });

  it('stays at its last milestone, which has no next', async () => {
    const featureName = await newFlag();
    const plan = await runningPlan({ featureName }, threeSteps(0.005));
    await waitForMilestone({ featureName }, 'third');
    await sleep(600);
    const after = await planIn({ featureName });
    expect(after.activeMilestoneId).toBe(plan.milestones[2]!.id);
    expect(after.milestones.map((m) => m.progressionExecutedAt !== null)).toEqual([true, true, false]);
  });
});

describe('a paused plan', () => {
  it('does not advance while paused, and goes on with the time it had left once resumed', async () => {
    const featureName = await newFlag();
    const plan = await runningPlan({ featureName }, threeSteps(0.05));
    await sleep(500);
    await ok(pause({ featureName }, plan.id), 200);
    await sleep(3500);
    expect(await activeMilestone({ featureName })).toBe('first');
    const resumed = await ok(resume({ featureName }, plan.id), 200);
    const moved = Date.parse(resumed.milestones[0]!.startedAt!) - Date.parse(plan.milestones[0]!.startedAt!);
    expect(moved).toBeGreaterThanOrEqual(3500);
    await sleep(600);
    expect(await activeMilestone({ featureName })).toBe('first');
    await waitForMilestone({ featureName }, 'second');
  });
});

describe('in an environment that requires change requests', () => {
  const requestsFor = async (featureName: string) => {
    const all = await ok(app.admin.GET('/api/admin/projects/{projectId}/change-requests', { params: { path: { projectId: 'default' } } }), 200);
    return all.filter((request) => request.features.some((feature) => feature.name === featureName));
  };

  it('a due milestone is proposed for review once, and starts when the request is applied', async () => {
    const place = { featureName: await newFlag('guarded'), environment: 'production' };
    // The first milestone lasts 3 s: change requests must be required before it is due, however loaded the machine.
    const plan = await runningPlan(place, threeSteps(0.05));
    await requireChangeRequests(app, 'default', 'production');
    const [request] = await until('the proposal', () => requestsFor(place.featureName), (found) => found.length > 0, 10_000);
    await sleep(800);
    expect(await requestsFor(place.featureName)).toHaveLength(1);
    expect(await activeMilestone(place)).toBe('first');
    expect(request).toMatchObject({ state: 'In review', title: `Release plan "${plan.name}": start the milestone "second"` });
    const change = request!.features[0]!.changes[0]!;
    expect(change).toMatchObject({ action: 'startMilestone', payload: { planId: plan.id, milestoneId: plan.milestones[1]!.id } });
    const reviewer = await approver(app, 'default', 'production');
    for (const state of ['Approved', 'Applied'] as const) await ok(moveTo(reviewer, request!.id, state), 200);
    expect(await activeMilestone(place)).toBe('second');
  });
});

/** Starts an app on the file's database again and again: on PostgreSQL the file's, on PGlite one data folder. */
async function restartable(): Promise<() => Promise<TestApp>> {
  if (databaseKind === 'postgres') return () => startTestApp();
  const scratch = await mkdtemp(path.join(tmpdir(), 'flag-release-'));
  afterAll(() => rm(scratch, { recursive: true, force: true }));
  const adminToken = `*:*.release${randomBytes(16).toString('hex')}`;
  return async () => {
    const config = { ...configFromEnv({ LOG_LEVEL: 'error' }), port: 0, host: '127.0.0.1', releases: { progressionPollMs: 200 } };
    const built = await buildApp({ ...config, database: { kind: 'pglite', dataDir: path.join(scratch, 'data') }, initTokens: { admin: [adminToken], client: [], frontend: [] } });
    const { url, close } = await listenUntilFileEnds(built.app);
    return { url, adminToken, admin: createClient(url, { token: adminToken }), close } as unknown as TestApp;
  };
}

describe('a restart during a plan', { timeout: 120_000 }, () => {
  it('loses nothing: the milestone due while no instance ran starts after the restart, once', async () => {
    const start = await restartable();
    const main = app;
    try {
      app = await start();
      const featureName = await newFlag();
      const since = await latestEventId();
      await runningPlan({ featureName }, threeSteps(0.03));
      await app.close();
      await sleep(2500);
      app = await start();
      await waitForMilestone({ featureName }, 'second');
      await waitForMilestone({ featureName }, 'third');
      expect((await startedEvents(since, featureName)).map((e) => (e.data as { activeMilestoneId?: string }).activeMilestoneId)).toEqual((await planIn({ featureName })).milestones.map((m) => m.id));
      await app.close();
    } finally {
      app = main;
    }
  });
});

// One instance per database on PGlite: two instances share only a PostgreSQL database.
if (databaseKind === 'postgres') {
  describe('two instances on one database', () => {
    it('hand each milestone over exactly once', async () => {
      const main = app;
      const [first, second] = [await startTestApp(), await startTestApp()];
      try {
        app = first;
        const featureName = await newFlag();
        const since = await latestEventId();
        await runningPlan({ featureName }, threeSteps(0.005));
        await waitForMilestone({ featureName }, 'third');
        await sleep(1000);
        const started = await startedEvents(since, featureName);
        expect(started.filter((e) => e.createdBy === 'unleash_system_user')).toHaveLength(2);
        expect(started).toHaveLength(3);
      } finally {
        app = main;
        await Promise.all([first.close(), second.close()]);
      }
    });
  });
}
