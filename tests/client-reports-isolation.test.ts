// SDK reports are written in batches: one record the database refuses must not take the others of its
// flush window with it, and what PostgreSQL cannot store is refused at the door.
// Validation now refuses every value found that the database would refuse, so to poison a record past it,
// this file adds test-only CHECK constraints (through `testApp.db`) that refuse names starting `poisoned-`.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok, registerClient, reportMetrics, sdkMetrics, until } from './support/fixtures.js';
import { registration } from './support/sdk-reports.js';

let app: TestApp;
let clientToken: string;
const unique = uniqueNames();
const POISON = 'poisoned-';
const WAIT_MS = 15_000;
const { newFlag, usageOf } = fixtures(() => app, unique);

beforeAll(async () => {
  // A flush window long enough for the reports each test sends back to back to share it.
  app = await startTestApp({ metricsFlushMs: 1000 });
  clientToken = await newApiToken(app, { type: 'client', environment: 'development', projects: ['*'] });
  await app.db.execute(sql.raw(`alter table client_applications add constraint test_poisoned_app check (app_name not like '${POISON}%')`));
  await app.db.execute(sql.raw(`alter table client_metrics_hourly add constraint test_poisoned_flag check (feature_name not like '${POISON}%')`));
});

const register = (appName: string) => registerClient(app, clientToken, appName);
const report = (appName: string, toggles: Parameters<typeof sdkMetrics>[3], stop = new Date()) =>
  reportMetrics(app, clientToken, sdkMetrics(appName, 'i-1', stop.toISOString(), toggles));
const applicationNames = async () => (await ok(app.admin.GET('/api/admin/metrics/applications'), 200)).applications.map((a) => a.appName);
const usage = async (featureName: string) => (await usageOf(featureName)).metrics;

const droppedLogs = () => app.logs.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'an SDK report the database refuses was dropped');

describe('one refused record in a flush window', () => {
  it('leaves the other applications registered in the same window stored, and drops only itself', async () => {
    const good = unique('good-app');
    const poisoned = unique(`${POISON}app`);
    const answers = await Promise.all([register(poisoned), register(good)]);
    expect(answers.map((a) => a.response.status)).toEqual([202, 202]);
    const names = await until('the good application', applicationNames, (list) => list.includes(good), WAIT_MS);
    expect(names).not.toContain(poisoned);
    expect(droppedLogs().map((entry) => entry.dropped)).toContainEqual(expect.objectContaining({ kind: 'application', appName: poisoned }));
  });

  it("stores a report's good counts when the same report holds one the database refuses", async () => {
    const flag = await newFlag();
    const appName = unique('app');
    const poisonedFlag = unique(`${POISON}flag`);
    expect((await report(appName, { [poisonedFlag]: { yes: 5, no: 5 }, [flag]: { yes: 3, no: 1 } })).response.status).toBe(202);
    const counts = await until('the good flag counts', () => usage(flag), (list) => list.length > 0, WAIT_MS);
    expect(counts).toEqual([expect.objectContaining({ appName, yes: 3, no: 1 })]);
    expect(await applicationNames()).toContain(appName);
    expect(droppedLogs().map((entry) => entry.dropped)).toContainEqual(expect.objectContaining({ kind: 'count', featureName: poisonedFlag }));
  });

  it('keeps counting a flag whose stored count is near the largest bigint, and stores the other reports of the window', async () => {
    const [full, other] = [await newFlag(), await newFlag()];
    const appName = unique('app');
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000);
    await app.db.execute(
      sql`insert into client_metrics_hourly (feature_name, app_name, environment, hour, yes, no) values (${full}, ${appName}, 'development', ${hour.toISOString()}, 9223372036854775000, 0)`,
    );
    const stop = new Date(hour.getTime() + 60_000);
    const answers = await Promise.all([report(appName, { [full]: { yes: 1_000_000_000_000, no: 0 } }, stop), report(appName, { [other]: { yes: 2, no: 0 } }, stop)]);
    expect(answers.map((a) => a.response.status)).toEqual([202, 202]);
    await until('the other flag counts', () => usage(other), (list) => list.length > 0, WAIT_MS);
    expect(await usage(full)).toEqual([expect.objectContaining({ appName, yes: Number.MAX_SAFE_INTEGER, no: 0 })]);
  });
});

describe('what PostgreSQL cannot store is refused at the door', () => {
  it('refuses an application name holding a lone surrogate, and stores the good registration sent beside it', async () => {
    const good = unique('good-app');
    const [bad, fine] = await Promise.all([
      // Raw: a lone surrogate escaped in the JSON text, which no JavaScript string sent as JSON carries.
      call(app, 'POST', '/api/client/register', { token: clientToken, body: JSON.stringify(registration('x', 'i-1')).replace('"x"', '"x\\ud800"') }),
      register(good),
    ]);
    expect(expectError(bad, 400, 'ValidationError').message).toContain('body.appName');
    expect(fine.response.status).toBe(202);
    await until('the good application', applicationNames, (list) => list.includes(good), WAIT_MS);
  });

  it('refuses a flag name longer than a flag name can be, which no index could hold either', async () => {
    const response = await report(unique('app'), { ['f'.repeat(101)]: { yes: 1, no: 0 } });
    expect(expectError(response, 400, 'ValidationError').message).toContain('body.bucket.toggles');
    const fits = await report(unique('app'), { ['f'.repeat(100)]: { yes: 1, no: 0 } });
    expect(fits.response.status).toBe(202);
  });
});
