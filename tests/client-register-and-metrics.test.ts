import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { appWithClientTokens, fixtures, newApiToken, ok, registerClient, reportMetrics, sdkMetrics, until } from './support/fixtures.js';
import { metrics, registration, sdkVersion } from './support/sdk-reports.js';

let app: TestApp;
/** Client tokens of the app, per environment, all projects. */
let devToken: string;
let prodToken: string;

beforeAll(async () => {
  ({ app, devToken, prodToken } = await appWithClientTokens());
});

const unique = uniqueNames();
const { createFlag, flagOf, usageOf: usage } = fixtures(() => app, unique);
const application = (appName: string) => app.admin.GET('/api/admin/metrics/applications/{appName}', { params: { path: { appName } } });
/** Reads the application until it exists. */
const applicationOnceThere = async (appName: string) =>
  (await until('the application', () => application(appName), (r) => r.response.status === 200)).data!;
const applications = async () => (await ok(app.admin.GET('/api/admin/metrics/applications'), 200)).applications;
const applicationCreatedEvents = async (appName: string) =>
  (await ok(app.admin.GET('/api/admin/events'), 200)).events.filter((e) => e.type === 'application-created' && e.data?.appName === appName);

describe('POST /api/client/register and /api/client/metrics', () => {
  it('accept the node SDK bodies and feed applications, events, lastSeenAt and hourly usage', async () => {
    const appName = unique('app');
    const flag = unique('used');
    const zero = unique('zero');
    await createFlag('default', flag);
    await createFlag('default', zero);
    expect(await flagOf(flag)).toMatchObject({ name: flag });
    expect(await flagOf(flag)).not.toHaveProperty('lastSeenAt');

    await ok(registerClient(app, prodToken, appName, 'i-1'), 202);

    expect(await applicationOnceThere(appName)).toMatchObject({
      appName,
      strategies: ['default', 'flexibleRollout'],
      instances: [{ instanceId: 'i-1', environment: 'production', sdkVersion }],
    });
    const listed = (await applications()).find((a) => a.appName === appName);
    expect(listed).toMatchObject({ appName, strategies: ['default', 'flexibleRollout'], instances: [{ instanceId: 'i-1', environment: 'production', sdkVersion }] });

    const stop = new Date().toISOString();
    const hour = new Date(Math.floor(Date.parse(stop) / 3_600_000) * 3_600_000).toISOString();
    await ok(reportMetrics(app, prodToken, sdkMetrics(appName, 'i-1', stop, { [flag]: { yes: 3, no: 1, variants: { a: 2 } }, [zero]: { yes: 0, no: 0, variants: {} } })), 202);

    const first = await until('the first report', () => usage(flag), (u) => u.metrics.length > 0);
    expect(first).toEqual({ version: 1, featureName: flag, metrics: [{ environment: 'production', appName, timestamp: hour, yes: 3, no: 1, variants: { a: 2 } }] });
    // Written in the same batch: the all-zero entry was ignored.
    expect((await usage(zero)).metrics).toEqual([]);
    expect(await flagOf(zero)).not.toHaveProperty('lastSeenAt');

    const seen = await flagOf(flag);
    expect(typeof seen.lastSeenAt).toBe('string');
    expect(Number.isNaN(Date.parse(seen.lastSeenAt!))).toBe(false);
    const environments = Object.fromEntries(seen.environments.map((e) => [e.name, e.lastSeenAt]));
    expect(typeof environments.production).toBe('string');
    expect(environments.development).toBeNull();

    // A second report in the same hour is added to the first.
    expect((await reportMetrics(app, prodToken, sdkMetrics(appName, 'i-1', stop, { [flag]: { yes: 2, no: 0, variants: { a: 1, b: 1 } } }))).response.status).toBe(202);
    const summed = await until('the summed report', () => usage(flag), (u) => u.metrics[0]?.yes !== 3);
    expect(summed.metrics).toEqual([{ environment: 'production', appName, timestamp: hour, yes: 5, no: 1, variants: { a: 3, b: 1 } }]);

    // A known application registering again (another instance) records no second application-created event.
    expect((await registerClient(app, prodToken, appName, 'i-2')).response.status).toBe(202);
    const twoInstances = await until('the second instance', async () => ok(application(appName), 200), (a) => a.instances.length === 2);
    expect(twoInstances.instances.map((i) => i.instanceId).sort()).toEqual(['i-1', 'i-2']);
    expect(await applicationCreatedEvents(appName)).toHaveLength(1);
  });

  it('reports through the metrics endpoint alone create the application', async () => {
    const appName = unique('metrics-only');
    const flag = unique('m');
    await createFlag('default', flag);
    expect((await reportMetrics(app, devToken, sdkMetrics(appName, 'i-9', new Date().toISOString(), { [flag]: { yes: 1, no: 0 } }))).response.status).toBe(202);
    expect((await applicationOnceThere(appName)).instances).toMatchObject([{ instanceId: 'i-9', environment: 'development', sdkVersion }]);
    expect(await applicationCreatedEvents(appName)).toHaveLength(1);
  });

  it("an application was last seen when its latest instance reported, not when the report was written", async () => {
    const appName = unique('seen');
    for (const instanceId of ['i-1', 'i-2']) {
      expect((await registerClient(app, devToken, appName, instanceId)).response.status).toBe(202);
    }
    const found = await applicationOnceThere(appName);
    const latest = found.instances.map((i) => i.lastSeen).sort().at(-1)!;
    expect(found.lastSeen).toBe(latest);
    const listed = (await applications()).find((a) => a.appName === appName)!;
    expect(listed.lastSeen).toBe(latest);
    expect(Date.parse(listed.createdAt)).toBeLessThanOrEqual(Date.parse(latest));
  });

  it('an unknown application → 404', async () => {
    expectError(await application(unique('ghost')), 404, 'NotFoundError');
  });

  // Bodies the types forbid, so sent raw.
  it('reject malformed bodies with 400', async () => {
    const appName = unique('bad');
    const stop = new Date().toISOString();
    const { appName: _omitted, ...noAppName } = registration(appName, 'i-1');
    expectError(await call(app, 'POST', '/api/client/register', { token: devToken, body: noAppName }), 400, 'ValidationError');
    expectError(await call(app, 'POST', '/api/client/register', { token: devToken, body: '{"appName":' }), 400, 'ValidationError');

    const good = metrics(appName, 'i-1', stop, { f: { yes: 1, no: 1 } });
    const { appName: _gone, ...metricsWithoutApp } = good;
    for (const body of [
      metricsWithoutApp,
      { ...good, bucket: 'not-an-object' },
      { ...good, bucket: { ...good.bucket, toggles: { f: { yes: -1, no: 0 } } } },
      '{"appName": "x", "bucket": ',
    ]) {
      expectError(await call(app, 'POST', '/api/client/metrics', { token: devToken, body }), 400, 'ValidationError');
    }
    expectError(await application(appName), 404, 'NotFoundError');
  });

  it('counts a bucket whose stop the database could not hold in the current hour, with the reports sent beside it', async () => {
    const appName = unique('odd-stop');
    const [ancient, normal] = [unique('ancient'), unique('beside')];
    await createFlag('default', ancient);
    await createFlag('default', normal);
    const hourNow = Math.floor(Date.now() / 3_600_000);
    await ok(reportMetrics(app, prodToken, sdkMetrics(appName, 'i-1', '-200000-01-01T00:00:00.000Z', { [ancient]: { yes: 2, no: 1 } })), 202);
    expect((await reportMetrics(app, prodToken, sdkMetrics(appName, 'i-1', new Date().toISOString(), { [normal]: { yes: 1, no: 0 } }))).response.status).toBe(202);
    for (const flag of [ancient, normal]) {
      const { metrics: rows } = await until(`the report of ${flag}`, () => usage(flag), (u) => u.metrics.length > 0);
      expect(Math.floor(Date.parse(rows[0]!.timestamp) / 3_600_000) - hourNow).toBeLessThanOrEqual(1);
    }
  });

  it('a count too large for one hour does not stop later reports from being recorded', async () => {
    const own = await startTestApp();
    const token = await newApiToken(own, { type: 'client', environment: 'development' });
    const appName = unique('huge');
    const big = unique('big');
    const normal = unique('normal');
    const ownFixtures = fixtures(() => own, unique);
    await ownFixtures.createFlag('default', big);
    await ownFixtures.createFlag('default', normal);
    const stop = new Date().toISOString();
    const huge = await reportMetrics(own, token, sdkMetrics(appName, 'i-1', stop, { [big]: { yes: 3_000_000_000, no: 0 } }));
    expect([202, 400]).toContain(huge.response.status);
    const later = await reportMetrics(own, token, sdkMetrics(appName, 'i-1', stop, { [normal]: { yes: 1, no: 0 } }));
    expect(later.response.status).toBe(202);
    const recorded = await until('the later report', () => ownFixtures.usageOf(normal), (u) => u.metrics.length > 0).catch((error: Error) => error);
    const writeFailures = own.logs
      .filter((line) => line.includes('could not write client metrics'))
      .slice(0, 1)
      .map((line) => String(JSON.parse(line).err?.message ?? line).split('\n').pop());
    expect(recorded instanceof Error ? `${recorded.message}; log: ${writeFailures.join('')}` : 'recorded').toBe('recorded');
  });
});
