// Guarded releases in the admin UI, in Debian's Chromium, against the service on the embedded database: a release
// template made through its form, a flag's plan added from one, its milestones started, paused and resumed, and its
// safeguards added (each with its metric's chart) and, once fired, explained. Each change is read back through the API.
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { uniqueNames } from './support/events.js';
import { envPath, fixtures, newApiToken, ok, reportMetrics, rollout, until } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { createUser } from './support/users.js';

type UpsertSafeguard = components['schemas']['UpsertSafeguard'];
type UpsertTemplate = components['schemas']['UpsertReleasePlanTemplate'];
type ClientMetrics = components['schemas']['ClientMetrics'];

let app: TestApp;
let browser: Browser;
let admin: Page;
let clientToken: string;

const unique = uniqueNames();
const { newFlag, turnOn, flagEnvironment } = fixtures(() => app, unique);
const plans = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans' as const;

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  admin = await signedIn(browser, app, 'alice');
  clientToken = await newApiToken(app, { type: 'client', environment: 'development' });
}, 240_000);

const templatesOf = () => ok(app.admin.GET('/api/admin/release-plan-templates'));
const planOf = async (featureName: string) =>
  (await ok(app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}/release-plans', { params: { path: { projectId: 'default', featureName } } })))[0];

/** A template of two milestones: 10 % for 30 minutes, then everyone. */
function newTemplate() {
  const body: UpsertTemplate = {
    name: unique('Two steps'),
    milestones: [
      { name: 'Ten percent', transitionCondition: { intervalMinutes: 30 }, strategies: [rollout(10)] },
      { name: 'Everyone', strategies: [rollout(100)] },
    ],
  };
  return ok(app.admin.POST('/api/admin/release-plan-templates', { body }));
}

/** A new flag with a plan from a new template in development; its first milestone started when `started`. */
async function flagWithPlan({ started }: { started: boolean }) {
  const flag = await newFlag('released');
  const where = envPath(flag);
  const template = await newTemplate();
  const plan = await ok(app.admin.POST(plans, { params: { path: where }, body: { templateId: template.id } }));
  if (started) await ok(app.admin.POST(`${plans}/{planId}/milestones/{milestoneId}/start`, { params: { path: { ...where, planId: plan.id, milestoneId: plan.milestones[0]!.id } } }));
  return { flag, where, plan };
}

/** An impact metric reported by an SDK with the development client token: one counter sample of `value`. */
async function reportImpactMetric(name: string, value: number) {
  const now = new Date();
  const body: ClientMetrics = {
    appName: 'shop',
    instanceId: 'shop-1',
    bucket: { start: new Date(now.getTime() - 10_000).toISOString(), stop: now.toISOString(), toggles: {} },
    impactMetrics: [{ name, help: 'Failed checkouts', type: 'counter', samples: [{ value, labels: {} }] }],
  };
  const answer = await reportMetrics(app, clientToken, body);
  expect(answer.response.status).toBe(202);
}

async function openFlag(name: string) {
  await admin.goto(`/projects/default/features/${name}`);
  await admin.getByRole('heading', { level: 1, name }).waitFor();
  return admin.getByRole('region', { name: 'Release plan in development' });
}

const activeMilestone = (section: ReturnType<Page['getByRole']>) => section.locator('li[aria-current="step"]');

describe('the release templates page', () => {
  it('creates a template through the form: milestones in order, a time to advance, a strategy edited with the strategy form', async () => {
    const name = unique('Gradual');
    await admin.goto('/release-templates');
    await admin.getByRole('heading', { level: 1, name: 'Release templates' }).waitFor();
    await admin.getByRole('button', { name: 'New template' }).click();
    const dialog = admin.getByRole('dialog', { name: 'New release template' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('textbox', { name: 'Milestone 1 name' }).fill('Ten percent');
    await dialog.getByRole('textbox', { name: 'Advance after (minutes)' }).fill('30');
    await dialog.getByRole('button', { name: 'Add strategy to milestone Ten percent' }).click();
    const strategy = admin.getByRole('dialog', { name: 'Add a strategy of the milestone Ten percent' });
    await strategy.getByRole('textbox', { name: 'Rollout percentage' }).fill('10');
    await strategy.getByRole('button', { name: 'Save strategy' }).click();
    await strategy.waitFor({ state: 'detached' });
    await dialog.getByTestId('milestone-strategy').getByText('10 %').waitFor();
    await dialog.getByRole('button', { name: 'Add milestone' }).click();
    await dialog.getByRole('textbox', { name: 'Milestone 2 name' }).fill('Everyone');
    await expectAccessible(admin, "a release template's dialog");
    await dialog.getByRole('button', { name: 'Create template' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByRole('table', { name: 'Release templates' }).getByText(name).waitFor();
    const created = (await templatesOf()).find((t) => t.name === name);
    expect(created?.milestones.map((m) => ({ name: m.name, after: m.transitionCondition?.intervalMinutes, strategies: m.strategies.map((s) => [s.name, s.parameters]) }))).toEqual([
      { name: 'Ten percent', after: 30, strategies: [['flexibleRollout', { rollout: '10', stickiness: 'default' }]] },
      { name: 'Everyone', after: undefined, strategies: [] },
    ]);
    await expectAccessible(admin, 'the release templates page');
  });

  it('deletes a template after asking', async () => {
    const template = await newTemplate();
    await admin.goto('/release-templates');
    await admin.getByRole('table', { name: 'Release templates' }).getByText(template.name).waitFor();
    const row = admin.getByRole('row').filter({ hasText: template.name });
    await row.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('dialog', { name: `Delete ${template.name}?` }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await templatesOf()).some((t) => t.id === template.id)).toBe(false);
  });
});

describe("a flag's release plan", () => {
  it("adds a plan from the template chosen in the environment's card", async () => {
    const flag = await newFlag('planned');
    const template = await newTemplate();
    const section = await openFlag(flag);
    await section.getByRole('combobox', { name: 'Release template for development' }).click();
    await admin.getByRole('option', { name: template.name }).click();
    await section.getByRole('button', { name: 'Add release plan' }).click();
    await section.getByRole('heading', { name: `Release plan: ${template.name}` }).waitFor();
    expect(await section.getByTestId('milestone').allTextContents()).toEqual([expect.stringContaining('1. Ten percent'), expect.stringContaining('2. Everyone')]);
    expect(await planOf(flag)).toMatchObject({ environment: 'development', releasePlanTemplateId: template.id, activeMilestoneId: null });
  });

  it('starts the first milestone, then shows it active with its progress toward the next', async () => {
    const { flag, plan } = await flagWithPlan({ started: false });
    const section = await openFlag(flag);
    await section.getByRole('button', { name: 'Start milestone Ten percent' }).click();
    await activeMilestone(section).getByText('active', { exact: true }).waitFor();
    expect(await activeMilestone(section).textContent()).toContain('Ten percent');
    await activeMilestone(section).getByRole('progressbar', { name: 'Progress of Ten percent' }).waitFor();
    expect(await activeMilestone(section).textContent()).toMatch(/Running for \d+ s of 30 min/);
    expect((await planOf(flag))?.activeMilestoneId).toBe(plan.milestones[0]!.id);
    expect((await flagEnvironment(flag)).strategies.map((s) => s.parameters.rollout)).toContain('10');
    await expectAccessible(admin, 'a flag page with a running release plan');
  });

  it('pauses a running plan, and the active milestone shows paused', async () => {
    const { flag } = await flagWithPlan({ started: true });
    const section = await openFlag(flag);
    await section.getByRole('button', { name: 'Pause' }).click();
    await activeMilestone(section).getByText('paused', { exact: true }).waitFor();
    expect(await activeMilestone(section).textContent()).toMatch(/Paused after \d+ s of 30 min/);
    const plan = await planOf(flag);
    expect(plan?.milestones.find((m) => m.id === plan.activeMilestoneId)?.pausedAt).toEqual(expect.any(String));
  });

  it('resumes a paused plan, and the milestone runs again', async () => {
    const { flag, where, plan } = await flagWithPlan({ started: true });
    await ok(app.admin.POST(`${plans}/{planId}/pause`, { params: { path: { ...where, planId: plan.id } } }));
    const section = await openFlag(flag);
    await section.getByRole('button', { name: 'Resume' }).click();
    await activeMilestone(section).getByText('active', { exact: true }).waitFor();
    expect(await section.getByRole('button', { name: 'Pause' }).count()).toBe(1);
    const resumed = await planOf(flag);
    expect(resumed?.milestones.find((m) => m.id === resumed.activeMilestoneId)?.pausedAt ?? null).toBeNull();
  });

  it("removes the plan, and with it the active milestone's strategies when asked not to keep them", async () => {
    const { flag } = await flagWithPlan({ started: true });
    const section = await openFlag(flag);
    await section.getByRole('button', { name: 'Remove plan' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Remove the release plan from development?' });
    await dialog.getByRole('switch', { name: "Keep the active milestone's strategies on the flag" }).uncheck({ force: true });
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await section.getByRole('combobox', { name: 'Release template for development' }).waitFor();
    expect(await planOf(flag)).toBeUndefined();
    expect((await flagEnvironment(flag)).strategies).toEqual([]);
  });
});

describe("a release plan's safeguards", () => {
  it("adds a safeguard through the form, shown with its metric's chart and the threshold as a line", async () => {
    const metric = unique('checkout_errors').replaceAll('-', '_');
    await reportImpactMetric(metric, 1);
    const { flag } = await flagWithPlan({ started: true });
    const section = await openFlag(flag);
    await section.getByRole('button', { name: 'Add safeguard' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Add a safeguard' });
    await dialog.getByRole('combobox', { name: 'Impact metric' }).click();
    await admin.getByRole('option', { name: `${metric} (counter)` }).click();
    await dialog.getByRole('textbox', { name: 'Threshold' }).fill('100');
    await dialog.getByRole('radio', { name: 'Pause the release plan and turn the flag off in development' }).check();
    await expectAccessible(admin, "a safeguard's dialog");
    await dialog.getByRole('button', { name: 'Add safeguard' }).click();
    await dialog.waitFor({ state: 'detached' });
    const safeguard = section.getByTestId('safeguard');
    await safeguard.getByText(`${metric} (count over the last hour) > 100`).waitFor();
    // A horizontal line has no height, which Playwright counts as hidden: it is drawn when it spans the plot.
    const threshold = safeguard.getByTestId('safeguard-chart').locator('svg [data-testid="threshold-line"]');
    await threshold.waitFor({ state: 'attached' });
    expect((await threshold.boundingBox())?.width).toBeGreaterThan(100);
    expect((await planOf(flag))?.safeguards).toEqual([
      expect.objectContaining({
        impactMetric: expect.objectContaining({ metricName: metric, timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} }),
        triggerCondition: { operator: '>', threshold: 100 },
        action: expect.objectContaining({ type: 'disableFeatureEnvironment' }),
        triggeredAt: null,
      }),
    ]);
    await expectAccessible(admin, 'a release plan with a safeguard and its chart');
    await screenshot(admin, 'release-plan-safeguard');
  });

  it('explains a fired safeguard: when, the value against the threshold, what it did, and that the plan must be resumed', async () => {
    const metric = unique('payment_errors').replaceAll('-', '_');
    const { flag, where, plan } = await flagWithPlan({ started: true });
    await turnOn(flag);
    const body: UpsertSafeguard = {
      impactMetric: { metricName: metric, timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} },
      triggerCondition: { operator: '>', threshold: 2 },
      action: { type: 'disableFeatureEnvironment' },
    };
    await ok(app.admin.POST(`${plans}/{planId}/safeguards`, { params: { path: { ...where, planId: plan.id } }, body }));
    await reportImpactMetric(metric, 5);
    await until('the safeguard to fire', () => planOf(flag), (p) => Boolean(p?.safeguards[0]?.triggeredAt), 30_000);
    const section = await openFlag(flag);
    const fired = section.getByTestId('safeguard-fired');
    await fired.waitFor();
    const text = await fired.textContent();
    expect(text).toMatch(/^This safeguard firedFired \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}: /);
    expect(text).toContain(`${metric} was 5, above the threshold 2.`);
    expect(text).toContain('It paused the release plan and turned the flag off in development.');
    expect(text).toContain('Resume the plan');
    await activeMilestone(section).getByText('paused', { exact: true }).waitFor();
    await section.getByRole('button', { name: 'Resume' }).waitFor();
    await expectAccessible(admin, 'a release plan with a fired safeguard');
    await screenshot(admin, 'release-plan-safeguard-fired');
  }, 60_000);
});
