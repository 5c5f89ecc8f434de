import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as t from '../db/schema.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { author, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { envPath, fixtures, ok } from './support/fixtures.js';
import { milestoneFor, releasePlans, threeSteps } from './support/release-plans.js';
import { clientAs } from './support/users.js';

let app: TestApp;
const unique = uniqueNames();
const { newFlag, newProject, addStrategy, strategiesOf, createSegment, turnOn } = fixtures(() => app, unique);
const { createTemplate, addPlan, start, pause, resume, remove, planIn, runningPlan } = releasePlans(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);

beforeAll(async () => {
  app = await startTestApp();
});

const UNKNOWN_ID = '01JB9GGTGQYEQ9D40R17T3YVW2';
const addTo = (path: { projectId: string; featureName: string; environment: string }, templateId: string) =>
  app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans', { params: { path }, body: { templateId } });

describe('adding a plan', () => {
  it('copies the template milestones and strategies under new ids, with no milestone active, and records release-plan-added', async () => {
    const featureName = await newFlag();
    const template = await createTemplate(threeSteps(1));
    const since = await latestEventId();
    const plan = await addPlan({ featureName }, template.id);
    expect(plan).toMatchObject({ discriminator: 'plan', name: template.name, featureName, environment: 'development', releasePlanTemplateId: template.id, activeMilestoneId: null, safeguards: [] });
    expect(plan.milestones.map((m) => m.name)).toEqual(['first', 'second', 'third']);
    expect(plan.milestones.map((m) => m.id)).not.toEqual(template.milestones.map((m) => m.id));
    expect(plan.milestones[0]!.strategies[0]!.constraints).toEqual(template.milestones[0]!.strategies[0]!.constraints);
    expect(await planIn({ featureName })).toEqual(plan);
    expect(await eventsSince(since)).toMatchObject([{ type: 'release-plan-added', featureName, environment: 'development', project: 'default', data: plan }]);
  });

  it('keeps its milestones when the template is deleted', async () => {
    const featureName = await newFlag();
    const template = await createTemplate(threeSteps());
    const plan = await addPlan({ featureName }, template.id);
    await ok(app.admin.DELETE('/api/admin/release-plan-templates/{templateId}', { params: { path: { templateId: template.id } } }), 204);
    expect(await planIn({ featureName })).toEqual(plan);
  });

  it('refuses a second plan for the flag in the same environment (409)', async () => {
    const featureName = await newFlag();
    const template = await createTemplate(threeSteps());
    await addPlan({ featureName }, template.id);
    expectError(await addTo(envPath(featureName), template.id), 409, 'ConflictError');
  });

  it('answers 404 for an unknown flag, a flag of another project, an environment the project lacks, and an unknown template', async () => {
    const featureName = await newFlag();
    const { id } = await createTemplate(threeSteps());
    expectError(await addTo(envPath('no-such-flag'), id), 404, 'NotFoundError');
    expectError(await addTo({ ...envPath(featureName), projectId: await newProject('elsewhere') }, id), 404, 'NotFoundError');
    expectError(await addTo(envPath(featureName, 'no-such-env'), id), 404, 'NotFoundError');
    expectError(await addTo(envPath(featureName), UNKNOWN_ID), 404, 'NotFoundError');
  });

  it('refuses a template strategy using a segment of another project (400)', async () => {
    const segment = await createSegment({ project: await newProject('segments') });
    const template = await createTemplate([{ name: 'only', strategies: [{ name: 'default', segments: [segment.id] }] }]);
    const featureName = await newFlag();
    expectError(await addTo(envPath(featureName), template.id), 400, 'ValidationError');
  });
});

describe('starting a milestone', () => {
  it('serves its strategies before the flag own ones, and records release-plan-milestone-started with the plan', async () => {
    const featureName = await newFlag();
    const own = await addStrategy(featureName, { name: 'default', sortOrder: -5 });
    const since = await latestEventId();
    const plan = await runningPlan({ featureName }, threeSteps());
    expect(plan.activeMilestoneId).toBe(plan.milestones[0]!.id);
    expect(plan.milestones[0]!.startedAt).toEqual(expect.any(String));
    const strategies = await strategiesOf(featureName);
    expect(strategies.map((s) => s.id).slice(1)).toEqual([own.id]);
    expect(strategies[0]!.constraints[0]!.values).toEqual(['m1']);
    const client = await ok(app.admin.GET('/api/client/features/{featureName}', { params: { path: { featureName } }, headers: { 'unleash-appname': 'order' } }), 200);
    expect(client.strategies!.map((s) => s.constraints?.[0]?.values ?? null)).toEqual([['m1'], null]);
    const started = (await eventsSince(since)).filter((e) => e.type === 'release-plan-milestone-started');
    expect(started).toMatchObject([{ featureName, environment: 'development', project: 'default', data: plan }]);
  });

  it('replaces the previous milestone strategies with the next one', async () => {
    const featureName = await newFlag();
    const plan = await runningPlan({ featureName }, threeSteps());
    await ok(start({ featureName }, plan.id, plan.milestones[2]!.id), 200);
    const strategies = await strategiesOf(featureName);
    expect(strategies.map((s) => s.constraints[0]!.values)).toEqual([['m3']]);
  });

  it('links the strategies to the segments they name', async () => {
    const featureName = await newFlag();
    const segment = await createSegment();
    const plan = await runningPlan({ featureName }, [{ name: 'segmented', strategies: [{ name: 'default', segments: [segment.id] }] }]);
    expect(plan.activeMilestoneId).toBe(plan.milestones[0]!.id);
    expect((await strategiesOf(featureName))[0]!.segments).toEqual([segment.id]);
  });

  it('leaves a linked strategy editable through the strategy operations', async () => {
    const featureName = await newFlag();
    await runningPlan({ featureName }, threeSteps());
    const [linked] = await strategiesOf(featureName);
    const path = { ...envPath(featureName), strategyId: linked!.id };
    await ok(app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', { params: { path }, body: { name: 'default' } }), 200);
    await ok(app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', { params: { path } }), 200);
    expect(await strategiesOf(featureName)).toEqual([]);
  });

  it('answers 404 for a milestone of another plan, and for an unknown plan', async () => {
    const featureName = await newFlag();
    const plan = await addPlan({ featureName }, (await createTemplate(threeSteps())).id);
    const other = await addPlan({ featureName: await newFlag() }, (await createTemplate(threeSteps())).id);
    expectError(await start({ featureName }, plan.id, other.milestones[0]!.id), 404, 'NotFoundError');
    expectError(await start({ featureName }, other.id, other.milestones[0]!.id), 404, 'NotFoundError');
  });
});

describe('pausing and resuming', () => {
  it('refuses to pause a plan with no milestone started (409)', async () => {
    const featureName = await newFlag();
    const plan = await addPlan({ featureName }, (await createTemplate(threeSteps())).id);
    expectError(await pause({ featureName }, plan.id), 409, 'ConflictError');
  });

  it('pauses the active milestone once (a second pause is 409) and records release-plan-progressions-paused', async () => {
    const featureName = await newFlag();
    const plan = await runningPlan({ featureName }, threeSteps());
    const since = await latestEventId();
    const paused = await ok(pause({ featureName }, plan.id), 200);
    expect(paused.milestones[0]!.pausedAt).toEqual(expect.any(String));
    expectError(await pause({ featureName }, plan.id), 409, 'ConflictError');
    expect(await eventsSince(since)).toMatchObject([{ type: 'release-plan-progressions-paused', data: paused }]);
  });

  it('refuses to resume a plan that is not paused (409)', async () => {
    const featureName = await newFlag();
    const plan = await runningPlan({ featureName }, threeSteps());
    expectError(await resume({ featureName }, plan.id), 409, 'ConflictError');
  });

  it('resumes, resetting every fired safeguard, and records release-plan-progressions-resumed', async () => {
    const featureName = await newFlag();
    const plan = await runningPlan({ featureName }, threeSteps());
    const safeguard = await ok(app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards', {
      params: { path: { ...envPath(featureName), planId: plan.id } },
      body: { impactMetric: { metricName: 'errors', timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} }, triggerCondition: { operator: '>', threshold: 1 } },
    }), 201);
    // Fired, as the safeguard evaluator would mark it.
    await app.db.update(t.releasePlanSafeguards).set({ triggeredAt: new Date(), triggeredValue: 5 }).where(eq(t.releasePlanSafeguards.id, safeguard.id));
    await ok(pause({ featureName }, plan.id), 200);
    const since = await latestEventId();
    const resumed = await ok(resume({ featureName }, plan.id), 200);
    expect(resumed.milestones[0]!.pausedAt).toBeNull();
    expect(resumed.safeguards).toEqual([{ ...safeguard, triggeredAt: null, triggeredValue: null }]);
    expect(await eventsSince(since)).toMatchObject([{ type: 'release-plan-progressions-resumed', data: resumed }]);
  });
});

describe('removing a plan', () => {
  it('keeps the active milestone strategies as the flag own by default, and records release-plan-removed', async () => {
    const featureName = await newFlag();
    const plan = await runningPlan({ featureName }, threeSteps());
    const served = await strategiesOf(featureName);
    const since = await latestEventId();
    expect((await remove({ featureName }, plan.id)).response.status).toBe(204);
    expect(await strategiesOf(featureName)).toEqual(served);
    expect(await eventsSince(since)).toMatchObject([{ type: 'release-plan-removed', featureName, preData: plan }]);
    const plans = await ok(app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}/release-plans', { params: { path: { projectId: 'default', featureName } } }), 200);
    expect(plans).toEqual([]);
  });

  it('removes the active milestone strategies with keepStrategies=false, and only those', async () => {
    const featureName = await newFlag();
    const own = await addStrategy(featureName);
    const plan = await runningPlan({ featureName }, threeSteps());
    expect((await remove({ featureName }, plan.id, false)).response.status).toBe(204);
    expect((await strategiesOf(featureName)).map((s) => s.id)).toEqual([own.id]);
  });

  it('answers 404 for a plan of another flag', async () => {
    const plan = await addPlan({ featureName: await newFlag() }, (await createTemplate(threeSteps())).id);
    expectError(await remove({ featureName: await newFlag() }, plan.id), 404, 'NotFoundError');
  });
});

describe('in an environment that requires change requests', () => {
  it('refuses to start a milestone or remove the plan for a caller who may not skip them (409)', async () => {
    const place = { featureName: await newFlag('guarded'), environment: 'production' };
    const plan = await addPlan(place, (await createTemplate(threeSteps())).id);
    await requireChangeRequests(app, 'default', 'production');
    const editor = clientAs(app, await author(app));
    expectError(await start(place, plan.id, plan.milestones[0]!.id, editor), 409, 'ConflictError');
    expectError(await remove(place, plan.id, true, editor), 409, 'ConflictError');
  });
});

describe('safeguards', () => {
  const safeguardsPath = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards' as const;
  const body = { impactMetric: { metricName: 'checkout_errors', timeRange: 'hour' as const, aggregationMode: 'count' as const, labelSelectors: { appName: ['shop'] } }, triggerCondition: { operator: '>' as const, threshold: 10 } };

  it('are created pausing the plan by default, with the plan as the action id, and recorded as safeguard-changed', async () => {
    const featureName = await newFlag();
    const plan = await addPlan({ featureName }, (await createTemplate(threeSteps())).id);
    const since = await latestEventId();
    const safeguard = await ok(app.admin.POST(safeguardsPath, { params: { path: { ...envPath(featureName), planId: plan.id } }, body }), 201);
    expect(safeguard).toMatchObject({ action: { type: 'pauseReleasePlanProgressions', id: plan.id }, triggerCondition: body.triggerCondition, triggeredAt: null, triggeredValue: null });
    expect((await planIn({ featureName })).safeguards).toEqual([safeguard]);
    expect(await eventsSince(since)).toMatchObject([{ type: 'safeguard-changed', data: safeguard, preData: null }]);
  });

  it('are replaced whole, a fired one reset, and deleted', async () => {
    const featureName = await newFlag();
    const plan = await addPlan({ featureName }, (await createTemplate(threeSteps())).id);
    const path = { ...envPath(featureName), planId: plan.id };
    const created = await ok(app.admin.POST(safeguardsPath, { params: { path }, body }), 201);
    await app.db.update(t.releasePlanSafeguards).set({ triggeredAt: new Date(), triggeredValue: 11 }).where(eq(t.releasePlanSafeguards.id, created.id));
    const one = { params: { path: { ...path, safeguardId: created.id } } };
    const updated = await ok(app.admin.PUT(`${safeguardsPath}/{safeguardId}`, { ...one, body: { ...body, action: { type: 'disableFeatureEnvironment' } } }), 200);
    expect(updated).toMatchObject({ id: created.id, action: { type: 'disableFeatureEnvironment', id: plan.id }, triggeredAt: null, triggeredValue: null });
    const since = await latestEventId();
    expect((await app.admin.DELETE(`${safeguardsPath}/{safeguardId}`, one)).response.status).toBe(204);
    expect(await eventsSince(since)).toMatchObject([{ type: 'safeguard-deleted', preData: updated }]);
    expectError(await app.admin.DELETE(`${safeguardsPath}/{safeguardId}`, one), 404, 'NotFoundError');
  });
});

it('a flag turned on with a started plan is on for the milestone users only', async () => {
  const featureName = await newFlag();
  await runningPlan({ featureName }, [milestoneFor('only', ['m1'])]);
  await turnOn(featureName);
  const evaluate = (userId: string) =>
    ok(app.admin.POST('/api/admin/playground', { body: { projects: '*', environment: 'development', context: { appName: 'p', userId } } }), 200).then(
      (answer) => answer.features.find((f) => f.name === featureName)!.isEnabled,
    );
  expect([await evaluate('m1'), await evaluate('m2')]).toEqual([true, false]);
});
