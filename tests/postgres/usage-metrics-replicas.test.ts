// Two instances on one PostgreSQL database: each counts the requests it answers and writes them in its
// flushes; the usage metrics of either add up both.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { pollAs, requestRates, until } from '../support/fixtures.js';

let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  first = await startTestApp();
  second = await startTestApp();
});

type RequestsPerSecond = Awaited<ReturnType<typeof requestRates>>;

/** Requests per application and endpoint group over the window: each point's rate times the 5-minute step. */
const requests = (body: RequestsPerSecond) =>
  Object.fromEntries(
    [...body.clientMetrics.data.result, ...body.adminMetrics.data.result].map((s) => [
      `${s.metric.appName} ${s.metric.endpoint}`,
      s.values.reduce((sum, [, rate]) => sum + Math.round(Number(rate) * 300), 0),
    ]),
  );

describe('usage metrics of two instances on one PostgreSQL database', () => {
  it('add up the client API polls each instance answered, read from either', async () => {
    await pollAs(first, 'replica-a', 7);
    await pollAs(second, 'replica-a', 2);
    await pollAs(second, 'replica-b', 3);
    const expected = { 'replica-a /api/client/features': 9, 'replica-b /api/client/features': 3 };
    const counted = (body: RequestsPerSecond) => Object.fromEntries(Object.keys(expected).map((key) => [key, requests(body)[key]]));
    // Each instance flushes on its own timer, so the counts may come in parts: wait for both applications' flushes.
    const seesBoth = (b: RequestsPerSecond) => JSON.stringify(counted(b)) === JSON.stringify(expected);
    expect(counted(await until('the first to see both', () => requestRates(first), seesBoth))).toEqual(expected);
    expect(counted(await until('the second to see both', () => requestRates(second), seesBoth))).toEqual(expected);
  });

  it('add up the admin calls each instance answered', async () => {
    const headers = { 'unleash-appname': 'replica-admin' };
    await first.admin.GET('/api/admin/projects', { headers });
    await second.admin.GET('/api/admin/projects', { headers });
    await second.admin.GET('/api/admin/tag-types', { headers });
    const body = await until('both instances’ calls', () => requestRates(first), (b) => requests(b)['replica-admin /api/admin'] === 3);
    expect(requests(body)['replica-admin /api/admin']).toBe(3);
  });
});
