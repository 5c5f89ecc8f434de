// Safeguards end to end: a real SDK reports errors on an impact metric while a release plan runs; the safeguard pauses
// the plan (and turns the flag off when it says so) within 30 s of the first bad report, an event and a webhook record it.
import type { Unleash } from 'unleash-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseKind, startTestApp, type TestApp } from './support/app.js';
import { envPath, fixtures, newApiToken, ok, rollout, until } from './support/fixtures.js';
import { uniqueNames } from './support/events.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { createIntegration, createWebhook } from './support/integrations.js';
import { releasePlans } from './support/release-plans.js';
import { reportingSdk } from './support/impact-metrics.js';
import type { components } from '../generated/api.js';

type Safeguard = components['schemas']['UpsertSafeguard'];

let app: TestApp;
let token: string;
let receiver: Receiver;
let slack: Receiver;
const unique = uniqueNames();
const { newFlag, turnOn, flagEnvironment } = fixtures(() => app, unique);
const { runningPlan, resume } = releasePlans(() => app, unique);

beforeAll(async () => {
  app = await startTestApp();
  token = await newApiToken(app, { type: 'client', environment: 'development' });
  receiver = await startReceiver();
  await createWebhook(app, receiver, ['safeguard-triggered']);
  slack = await startReceiver();
  await createIntegration(app, { provider: 'slack', enabled: true, events: ['safeguard-triggered'], parameters: { url: `${slack.url}/slack`, defaultChannel: 'releases' } });
});

/** The real SDK of a new application, reporting its metrics (impact metrics among them) every 200 ms. */
const shopSdk = () => reportingSdk(app.url, token, unique('shop'), 'i-1');

const plansOf = async (on: TestApp, featureName: string) =>
  ok(on.admin.GET('/api/admin/projects/{projectId}/features/{featureName}/release-plans', { params: { path: { projectId: 'default', featureName } } }));

/** A flag on in development with a three-milestone plan at its first milestone (everyone on), and a safeguard on it. */
async function guardedRelease(safeguard: (metricName: string) => Safeguard) {
  const flag = await newFlag('guarded');
  const metricName = unique('checkout_errors').replaceAll('-', '_');
  const plan = await runningPlan({ featureName: flag }, [
    { name: 'Everyone', transitionCondition: { intervalMinutes: 60 }, strategies: [rollout(100)] },
    { name: 'Half', strategies: [rollout(50)] },
    { name: 'None', strategies: [rollout(0)] },
  ]);
  await turnOn(flag);
  const guard = await ok(
    app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards', {
      params: { path: { ...envPath(flag), planId: plan.id } },
      body: safeguard(metricName),
    }),
  );
  return { flag, metricName, plan, guard };
}

const errorsOver = (threshold: number, type: 'pauseReleasePlanProgressions' | 'disableFeatureEnvironment') => (metricName: string) => ({
  impactMetric: { metricName, timeRange: 'hour' as const, aggregationMode: 'count' as const, labelSelectors: {} },
  triggerCondition: { operator: '>' as const, threshold },
  action: { type },
});

/** The SDK counts `errors` errors, one at a time; answers when the first was counted. */
function countErrors(sdk: Unleash, metricName: string, errors: number): number {
  sdk.impactMetrics.defineCounter(metricName, 'Failed checkouts');
  const first = Date.now();
  for (let i = 0; i < errors; i++) sdk.impactMetrics.incrementCounter(metricName);
  return first;
}

const firedSafeguard = (on: TestApp, flag: string) =>
  until(
    'the safeguard to fire',
    async () => (await plansOf(on, flag))[0]!,
    (plan) => plan.safeguards.some((s) => s.triggeredAt !== null && s.triggeredAt !== undefined),
    30_000,
  );

describe('a safeguard that turns the flag off', () => {
  let release: Awaited<ReturnType<typeof guardedRelease>>;
  let sdk: Unleash;
  let firstReport: number;
  let firedAt: number;

  beforeAll(async () => {
    release = await guardedRelease(errorsOver(2, 'disableFeatureEnvironment'));
    sdk = await shopSdk();
    await until('the SDK to see the first milestone', async () => sdk.isEnabled(release.flag, { userId: 'u-1' }), (on) => on, 10_000);
    firstReport = countErrors(sdk, release.metricName, 5);
    await firedSafeguard(app, release.flag);
    firedAt = Date.now();
  }, 60_000);

  it('pauses the plan within 30 s of the first bad report', async () => {
    expect(firedAt - firstReport).toBeLessThan(30_000);
    const [plan] = await plansOf(app, release.flag);
    const active = plan!.milestones.find((m) => m.id === plan!.activeMilestoneId);
    expect(active?.name).toBe('Everyone');
    expect(active?.pausedAt).toEqual(expect.any(String));
  });

  it('keeps the value it saw and when', async () => {
    const [plan] = await plansOf(app, release.flag);
    expect(plan!.safeguards).toEqual([expect.objectContaining({ id: release.guard.id, triggeredValue: 5, triggeredAt: expect.any(String) })]);
  });

  it('turns the flag off in the plan\'s environment, and the SDK sees it off', async () => {
    expect((await flagEnvironment(release.flag)).enabled).toBe(false);
    await until('the SDK to see the flag off', async () => sdk.isEnabled(release.flag, { userId: 'u-1' }), (on) => !on, 10_000);
  });

  it('records a safeguard-triggered event saying what it saw and did', async () => {
    const { data } = await app.admin.GET('/api/admin/events');
    const fired = data!.events.filter((e) => e.type === 'safeguard-triggered' && e.featureName === release.flag);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ environment: 'development', project: 'default' });
    expect(fired[0]!.data).toMatchObject({ metricName: release.metricName, operator: '>', threshold: 2, value: 5, planPaused: true, flagTurnedOff: true });
  });

  it('is delivered to a webhook subscribed to safeguard-triggered', async () => {
    const delivery = await until(
      'the webhook delivery',
      async () => receiver.received.find((r) => r.json?.featureName === release.flag),
      (found) => found !== undefined,
      10_000,
    );
    expect(delivery!.json).toMatchObject({ type: 'safeguard-triggered', environment: 'development' });
  });

  it('tells Slack in words what it saw and did', async () => {
    const message = await until('the Slack message', async () => slack.received.find((r) => String(r.json?.text).includes(release.flag)), (found) => found !== undefined, 10_000);
    expect(message!.json.text).toMatch(new RegExp(`^\\*unleash_system_user\\* fired a safeguard of <[^|]+\\|${release.flag}>: `));
    expect(message!.json.text).toContain(`*${release.metricName}* at 5 (&gt; 2); the release plan is paused and the flag *turned off* in *development*`);
  });
});

describe('a safeguard that only pauses', () => {
  it('pauses the plan and leaves the flag on', async () => {
    const release = await guardedRelease(errorsOver(2, 'pauseReleasePlanProgressions'));
    countErrors(await shopSdk(), release.metricName, 3);
    await firedSafeguard(app, release.flag);
    expect((await flagEnvironment(release.flag)).enabled).toBe(true);
  }, 60_000);

  it('does not fire while the metric stays on the safe side of the threshold', async () => {
    const release = await guardedRelease(errorsOver(2, 'pauseReleasePlanProgressions'));
    const sdk = await shopSdk();
    countErrors(sdk, release.metricName, 2);
    await until('the errors to be stored', async () => (await app.admin.GET('/api/admin/impact-metrics/{metricName}', { params: { path: { metricName: release.metricName }, query: { aggregationMode: 'count' } } })).data?.value, (value) => value === 2, 10_000);
    // Several evaluation rounds (every 200 ms here) see the stored value.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [plan] = await plansOf(app, release.flag);
    expect(plan!.safeguards[0]!.triggeredAt ?? null).toBeNull();
    expect(plan!.milestones[0]!.pausedAt ?? null).toBeNull();
  }, 60_000);

  it('fires again after a resume while the condition still holds, since resuming resets it', async () => {
    const release = await guardedRelease(errorsOver(2, 'pauseReleasePlanProgressions'));
    countErrors(await shopSdk(), release.metricName, 3);
    await firedSafeguard(app, release.flag);
    await ok(resume({ featureName: release.flag }, release.plan.id), 200);
    await firedSafeguard(app, release.flag);
    const { data } = await app.admin.GET('/api/admin/events');
    expect(data!.events.filter((e) => e.type === 'safeguard-triggered' && e.featureName === release.flag)).toHaveLength(2);
  }, 60_000);
});

// Instances share a database only on PostgreSQL (the embedded one belongs to one process).
if (databaseKind === 'postgres') {
  describe('two instances on one database', () => {
    it('fire a safeguard once', async () => {
      const second = await startTestApp();
      const release = await guardedRelease(errorsOver(0, 'disableFeatureEnvironment'));
      countErrors(await shopSdk(), release.metricName, 1);
      await firedSafeguard(second, release.flag);
      // Both instances keep evaluating for several rounds.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { data } = await app.admin.GET('/api/admin/events');
      expect(data!.events.filter((e) => e.type === 'safeguard-triggered' && e.featureName === release.flag)).toHaveLength(1);
      expect(data!.events.filter((e) => e.type === 'feature-environment-disabled' && e.featureName === release.flag)).toHaveLength(1);
    }, 60_000);
  });
}
