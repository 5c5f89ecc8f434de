// POST /api/client/metrics/bulk: what Unleash Edge reports for the SDKs behind it is counted as if each SDK had reported
// itself with a token of its entry's environment; entries of an environment the token does not read are ignored alone.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import { call, expectError, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { appWithClientTokens, fixtures, newApiToken, ok, until } from './support/fixtures.js';

type BulkMetrics = components['schemas']['BulkMetrics'];
type ClientMetricsEnv = components['schemas']['ClientMetricsEnv'];
type BulkRegistration = components['schemas']['BulkRegistration'];

let app: TestApp;
/** Client tokens of every project, for development and for production. */
let devToken: string;
let prodToken: string;
let frontendToken: string;

beforeAll(async () => {
  ({ app, devToken, prodToken } = await appWithClientTokens());
  frontendToken = await newApiToken(app, { type: 'frontend', environment: 'production' });
});

const unique = uniqueNames();
const { newFlag, usageOf, flagEnvironment } = fixtures(() => app, unique);

const HOUR_MS = 3_600_000;
const hourOf = (time: number) => new Date(Math.floor(time / HOUR_MS) * HOUR_MS).toISOString();

/** A metrics entry as Edge sends it: the current hour's start unless `timestamp` says otherwise. */
const entry = (featureName: string, appName: string, environment: string, counts: Partial<ClientMetricsEnv> = {}): ClientMetricsEnv => ({
  featureName,
  appName,
  environment,
  timestamp: hourOf(Date.now()),
  yes: 3,
  no: 1,
  variants: {},
  ...counts,
});

/** A registration as Edge forwards it. */
const registration = (appName: string, environment: string, instanceId = 'i-1'): BulkRegistration => ({
  appName,
  instanceId,
  environment,
  connectVia: [{ appName: 'unleash-edge', instanceId: 'edge-1' }],
  sdkVersion: 'unleash-client-node:6.12.1',
  strategies: ['default', 'flexibleRollout'],
  started: new Date().toISOString(),
  interval: 15_000,
});

/** Sends the bulk report with the token; expects it accepted. */
const sendBulk = (token: string, body: Partial<BulkMetrics>) =>
  ok(app.clientWith(token).POST('/api/client/metrics/bulk', { body: { applications: [], metrics: [], ...body } }), 202);

/** The flag's hourly counts once there are `rows` of them. */
const countedRows = async (flag: string, rows = 1) => (await until(`the counts of ${flag}`, () => usageOf(flag), (u) => u.metrics.length >= rows)).metrics;

const application = (appName: string) => app.admin.GET('/api/admin/metrics/applications/{appName}', { params: { path: { appName } } });
const applicationOnceThere = async (appName: string) => (await until(`the application ${appName}`, () => application(appName), (r) => r.response.status === 200)).data!;

describe('POST /api/client/metrics/bulk: metrics', () => {
  it("counts an entry in the flag's hourly usage of the entry's environment, once", async () => {
    const [flag, appName] = [await newFlag(), unique('app')];
    const now = Date.now();
    await sendBulk(prodToken, { metrics: [entry(flag, appName, 'production', { yes: 974, no: 50, variants: { blue: 500, green: 474 } })] });
    const counted = [{ environment: 'production', appName, timestamp: hourOf(now), yes: 974, no: 50, variants: { blue: 500, green: 474 } }];
    expect(await countedRows(flag)).toEqual(counted);
    // Still so after a later flush: nothing of the report was kept back to be counted again.
    const witness = await newFlag();
    await sendBulk(prodToken, { metrics: [entry(witness, appName, 'production')] });
    await countedRows(witness);
    expect((await usageOf(flag)).metrics).toEqual(counted);
  });

  it('adds up two entries of one flag, application and hour into one hourly count', async () => {
    const [flag, appName] = [await newFlag(), unique('app')];
    await sendBulk(prodToken, { metrics: [entry(flag, appName, 'production', { yes: 1, no: 2, variants: { a: 1 } }), entry(flag, appName, 'production', { yes: 10, no: 0, variants: { a: 2, b: 3 } })] });
    expect((await countedRows(flag)).map(({ yes, no, variants }) => ({ yes, no, variants }))).toEqual([{ yes: 11, no: 2, variants: { a: 3, b: 3 } }]);
  });

  it('counts entries of different hours each in its own hour', async () => {
    const [flag, appName] = [await newFlag(), unique('app')];
    const [now, earlier] = [Date.now(), Date.now() - 3 * HOUR_MS];
    await sendBulk(prodToken, { metrics: [entry(flag, appName, 'production', { timestamp: hourOf(earlier), yes: 5 }), entry(flag, appName, 'production', { timestamp: new Date(now).toISOString(), yes: 7 })] });
    const rows = await countedRows(flag, 2);
    expect(rows.map(({ timestamp, yes }) => ({ timestamp, yes }))).toEqual([
      { timestamp: hourOf(now), yes: 7 },
      { timestamp: hourOf(earlier), yes: 5 },
    ]);
  });

  it('counts an entry without a timestamp in the current hour', async () => {
    const [flag, appName] = [await newFlag(), unique('app')];
    const { timestamp: _none, ...untimed } = entry(flag, appName, 'production');
    const before = Date.now();
    await sendBulk(prodToken, { metrics: [untimed] });
    const [row] = await countedRows(flag);
    expect([hourOf(before), hourOf(Date.now())]).toContain(row!.timestamp);
  });

  it("ignores the entries of an environment the token does not read, and counts the rest of the body", async () => {
    const [flag, other, appName] = [await newFlag(), await newFlag(), unique('app')];
    await sendBulk(prodToken, { metrics: [entry(flag, appName, 'development', { yes: 9 }), entry(flag, appName, 'production', { yes: 4 }), entry(other, appName, 'development')] });
    // Both were gathered by the same request, so they would have been written in the same flush.
    expect((await countedRows(flag)).map(({ environment, yes }) => ({ environment, yes }))).toEqual([{ environment: 'production', yes: 4 }]);
    expect((await usageOf(other)).metrics).toEqual([]);
  });

  it("counts every environment's entries with an admin token", async () => {
    const [flag, appName] = [await newFlag(), unique('app')];
    await ok(app.admin.POST('/api/client/metrics/bulk', { body: { applications: [], metrics: [entry(flag, appName, 'development', { yes: 2 }), entry(flag, appName, 'production', { yes: 6 })] } }), 202);
    const rows = await countedRows(flag, 2);
    expect(rows.map(({ environment, yes }) => ({ environment, yes })).sort((a, b) => a.environment.localeCompare(b.environment))).toEqual([
      { environment: 'development', yes: 2 },
      { environment: 'production', yes: 6 },
    ]);
  });

  it("sets the flag's lastSeenAt in the entry's environment only", async () => {
    const [flag, appName] = [await newFlag(), unique('app')];
    await sendBulk(devToken, { metrics: [entry(flag, appName, 'development')] });
    await countedRows(flag);
    expect(typeof (await flagEnvironment(flag, 'development')).lastSeenAt).toBe('string');
    expect((await flagEnvironment(flag, 'production')).lastSeenAt).toBeNull();
  });

  it('accepts what Edge sends besides: seenTokens, impactMetrics, connectVia and fields not listed', async () => {
    const [flag, appName] = [await newFlag(), unique('app')];
    const body = {
      applications: [{ ...registration(appName, 'production'), sdkType: 'backend', projects: ['default'], platformName: 'node', yggdrasilVersion: null }],
      metrics: [{ ...entry(flag, appName, 'production'), sdkVersion: 'unleash-client-node:6.12.1', platformName: 'node', yggdrasilVersion: null }],
      seenTokens: [prodToken],
      impactMetrics: [{ name: 'checkout_latency', type: 'counter', samples: [] }],
    };
    expect((await call(app, 'POST', '/api/client/metrics/bulk', { token: prodToken, body })).status).toBe(202);
    expect((await countedRows(flag)).map(({ yes, no }) => ({ yes, no }))).toEqual([{ yes: 3, no: 1 }]);
  });
});

describe('POST /api/client/metrics/bulk: applications', () => {
  it('registers each application in its environment, with its instance, SDK and strategies', async () => {
    const appName = unique('app');
    await sendBulk(prodToken, { applications: [registration(appName, 'production', 'pod-7')] });
    expect(await applicationOnceThere(appName)).toMatchObject({
      appName,
      strategies: ['default', 'flexibleRollout'],
      instances: [{ instanceId: 'pod-7', environment: 'production', sdkVersion: 'unleash-client-node:6.12.1' }],
    });
  });

  it('lists the applications it registered in the applications list', async () => {
    const [first, second] = [unique('app'), unique('app')];
    await sendBulk(prodToken, { applications: [registration(first, 'production'), registration(second, 'production')] });
    const listed = async () => (await ok(app.admin.GET('/api/admin/metrics/applications'), 200)).applications.map((a) => a.appName);
    expect(await until('both applications', listed, (names) => names.includes(first) && names.includes(second))).toEqual(expect.arrayContaining([first, second]));
  });

  it('ignores an application of an environment the token does not read, and registers the rest', async () => {
    const [readable, other] = [unique('app'), unique('app')];
    await sendBulk(prodToken, { applications: [registration(other, 'development'), registration(readable, 'production')] });
    await applicationOnceThere(readable);
    expectError(await application(other), 404, 'NotFoundError');
  });

  it('notes the metrics on the registered instance of the same application and environment, not on a default one', async () => {
    const [flag, appName] = [await newFlag(), unique('app')];
    await sendBulk(prodToken, { applications: [registration(appName, 'production', 'pod-1')], metrics: [entry(flag, appName, 'production')] });
    await countedRows(flag);
    expect((await applicationOnceThere(appName)).instances.map((i) => i.instanceId)).toEqual(['pod-1']);
  });

  it('creates the application of metrics sent without its registration', async () => {
    const [flag, appName] = [await newFlag(), unique('app')];
    await sendBulk(prodToken, { metrics: [entry(flag, appName, 'production')] });
    expect((await applicationOnceThere(appName)).instances).toMatchObject([{ instanceId: 'default', environment: 'production' }]);
  });
});

describe('POST /api/client/metrics/bulk: who may send, and what', () => {
  it('answers 401 without a token', async () => {
    expectError(await call(app, 'POST', '/api/client/metrics/bulk', { token: null, body: { applications: [], metrics: [] } }), 401, 'AuthenticationRequired');
  });

  it('answers 403 to a frontend token', async () => {
    expectError(await call(app, 'POST', '/api/client/metrics/bulk', { token: frontendToken, body: { applications: [], metrics: [] } }), 403, 'NoAccessError');
  });

  // Bodies the types forbid, so sent raw.
  it.each([
    ['no metrics field', { applications: [] }],
    ['no applications field', { metrics: [] }],
    ['an entry without featureName', { applications: [], metrics: [{ appName: 'a', environment: 'production', yes: 1 }] }],
    ['an entry without environment', { applications: [], metrics: [{ featureName: 'f', appName: 'a', yes: 1 }] }],
    ['a negative count', { applications: [], metrics: [{ featureName: 'f', appName: 'a', environment: 'production', yes: -1 }] }],
    ['a count that is not an integer', { applications: [], metrics: [{ featureName: 'f', appName: 'a', environment: 'production', no: 1.5 }] }],
    ['a timestamp that is not a date-time', { applications: [], metrics: [{ featureName: 'f', appName: 'a', environment: 'production', timestamp: 'yesterday' }] }],
    ['a flag name longer than 100 characters', { applications: [], metrics: [{ featureName: 'f'.repeat(101), appName: 'a', environment: 'production' }] }],
    ['an application without instanceId', { applications: [{ appName: 'a', environment: 'production' }], metrics: [] }],
    ['metrics that are not a list', { applications: [], metrics: {} }],
    ['JSON cut short', '{"applications": [], "metrics": ['],
  ])('refuses a body with %s with 400', async (_what, body) => {
    expectError(await call(app, 'POST', '/api/client/metrics/bulk', { token: prodToken, body }), 400, 'ValidationError');
  });

  it('counts none of the entries of a body refused for one bad entry', async () => {
    const [flag, witness, appName] = [await newFlag(), await newFlag(), unique('app')];
    const bad = { applications: [], metrics: [entry(flag, appName, 'production'), { ...entry(flag, appName, 'production'), yes: -1 }] };
    expectError(await call(app, 'POST', '/api/client/metrics/bulk', { token: prodToken, body: bad }), 400, 'ValidationError');
    // A later report, written in a later or the same flush, shows the refused one's would have been there by now.
    await sendBulk(prodToken, { metrics: [entry(witness, appName, 'production')] });
    await countedRows(witness);
    expect((await usageOf(flag)).metrics).toEqual([]);
  });
});
