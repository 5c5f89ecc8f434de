// GET /api/admin/metrics/rps without PROMETHEUS_API: the service's own request counts, per 5 minutes,
// application and endpoint group, read back as Prometheus query_range matrices.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';
import { pollAs, requestRates, until } from './support/fixtures.js';
import { registration } from './support/sdk-reports.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

const rps = () => requestRates(app);

type QueryResult = Awaited<ReturnType<typeof rps>>['clientMetrics'];

/** The requests a series counted over the window: each point's rate times the 5-minute step. */
function requestsOf(result: QueryResult, appName: string, endpoint: string): number {
  const series = result.data.result.find((s) => s.metric.appName === appName && s.metric.endpoint === endpoint);
  return series ? series.values.reduce((sum, [, rate]) => sum + Math.round(Number(rate) * 300), 0) : 0;
}

/** The requests of `appName` the database holds (written by the flushes). */
async function storedRequests(appName: string): Promise<number> {
  const { rows } = (await app.db.execute(sql`select coalesce(sum(count), 0)::int as n from request_counts where app_name = ${appName}`)) as unknown as { rows: { n: number }[] };
  return Number(rows[0]!.n);
}

describe('GET /api/admin/metrics/rps from the service’s own counts', () => {
  it('reads back the client API polls of each application as requests per second', async () => {
    await pollAs(app, 'usage-a', 7);
    await pollAs(app, 'usage-b', 3);
    const body = await until('the polls being counted', rps, (b) => requestsOf(b.clientMetrics, 'usage-a', '/api/client/features') === 7);
    expect(requestsOf(body.clientMetrics, 'usage-b', '/api/client/features')).toBe(3);
  });

  it('answers 72 points per series, 5 minutes apart, the last one the current 5 minutes', async () => {
    await pollAs(app, 'usage-points', 1);
    const before = Date.now() / 1000;
    const series = (await rps()).clientMetrics.data.result.find((s) => s.metric.appName === 'usage-points')!;
    expect(series.metric).toEqual({ appName: 'usage-points', endpoint: '/api/client/features' });
    expect(series.values).toHaveLength(72);
    const times = series.values.map(([time]) => Number(time));
    expect(times.slice(1).map((time, i) => time - times[i]!)).toEqual(Array(71).fill(300));
    expect(times.at(-1)! % 300).toBe(0);
    expect(before - times.at(-1)!).toBeLessThan(300 + 1);
    expect(series.values.map(([, rate]) => rate).filter((rate) => rate !== 0)).toEqual([1 / 300]);
  });

  it('answers in the shape of a Prometheus query_range result, each sample [Unix seconds as a string, the rate as a number] as the interface types it', async () => {
    const body = await rps();
    for (const result of [body.clientMetrics, body.adminMetrics]) {
      expect(result.status).toBe('success');
      expect(result.data.resultType).toBe('matrix');
      for (const series of result.data.result) for (const [time, rate] of series.values) expect([typeof time, typeof rate]).toEqual(['string', 'number']);
    }
  });

  it('counts admin API calls in adminMetrics under the caller’s application name, and not in clientMetrics', async () => {
    const headers = { 'unleash-appname': 'usage-admin-script' };
    await app.admin.GET('/api/admin/projects', { headers });
    await app.admin.GET('/api/admin/tag-types', { headers });
    await app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'simple' } }, headers });
    const body = await until('the admin calls being counted', rps, (b) => requestsOf(b.adminMetrics, 'usage-admin-script', '/api/admin') >= 3);
    expect(requestsOf(body.adminMetrics, 'usage-admin-script', '/api/admin')).toBe(3);
    expect(body.clientMetrics.data.result.filter((s) => s.metric.appName === 'usage-admin-script')).toEqual([]);
  });

  it('counts calls that name no application as `unknown`', async () => {
    const before = requestsOf((await rps()).adminMetrics, 'unknown', '/api/admin');
    await until('the calls being counted', rps, (b) => requestsOf(b.adminMetrics, 'unknown', '/api/admin') > before);
  });

  it('does not count a path that no route answers, so that probes cannot grow the groups', async () => {
    const headers = { 'unleash-appname': 'usage-prober' };
    // Raw: paths the contract does not have.
    await call(app, 'GET', '/api/admin-random-1', { headers });
    await call(app, 'GET', '/api/admin/no-such-path', { headers });
    await app.admin.GET('/api/client/features', { headers });
    const body = await until('the poll being counted', rps, (b) => requestsOf(b.clientMetrics, 'usage-prober', '/api/client/features') === 1);
    expect([...body.clientMetrics.data.result, ...body.adminMetrics.data.result].filter((s) => s.metric.appName === 'usage-prober')).toHaveLength(1);
  });

  it('groups the client API by its second path segment, as Unleash’s endpoint label does', async () => {
    const headers = { 'unleash-appname': 'usage-groups' };
    const registered = await app.admin.POST('/api/client/register', { headers, body: registration('usage-groups', 'i-1') });
    expect(registered.response.status, JSON.stringify(registered.error)).toBe(202);
    await app.admin.GET('/api/client/features/{featureName}', { params: { path: { featureName: 'no-such-flag' } }, headers });
    const body = await until('the register call being counted', rps, (b) => requestsOf(b.clientMetrics, 'usage-groups', '/api/client/register') === 1);
    expect(requestsOf(body.clientMetrics, 'usage-groups', '/api/client/features')).toBe(1);
  });

  it('counts a refused client API poll', async () => {
    expect((await app.clientWith().GET('/api/client/features', { headers: { 'unleash-appname': 'usage-refused' } })).response.status).toBe(401);
    const body = await rps();
    expect(requestsOf(body.clientMetrics, 'usage-refused', '/api/client/features')).toBe(1);
  });

  it('adds the counts another instance stored in the database', async () => {
    const bucket = new Date(Math.floor(Date.now() / 300_000) * 300_000 - 3_600_000);
    await app.db.execute(sql`insert into request_counts (bucket, app_name, endpoint, count) values (${bucket}, 'usage-elsewhere', '/api/client/features', 600)`);
    const series = (await rps()).clientMetrics.data.result.find((s) => s.metric.appName === 'usage-elsewhere')!;
    expect(series.values.filter(([, rate]) => rate !== 0)).toEqual([[String(bucket.getTime() / 1000), 2]]);
  });

  it('leaves out the counts older than 6 hours', async () => {
    const bucket = new Date(Math.floor(Date.now() / 300_000) * 300_000 - 6 * 3_600_000);
    await app.db.execute(sql`insert into request_counts (bucket, app_name, endpoint, count) values (${bucket}, 'usage-long-ago', '/api/admin', 300)`);
    const body = await rps();
    expect(body.adminMetrics.data.result.filter((s) => s.metric.appName === 'usage-long-ago')).toEqual([]);
  });

  it('writes the counts to the database at the next flush', async () => {
    await pollAs(app, 'usage-written', 2);
    expect(await until('the counts being written', () => storedRequests('usage-written'), (n) => n === 2)).toBe(2);
  });

  it('keeps the counts a failed write could not store, and stores them at the next write that succeeds', async () => {
    const failures = () => app.logs.filter((line) => line.includes('could not write client metrics')).length;
    const before = failures();
    // A failure that may pass on a later try (a serialization failure), as a lost connection or a deadlock would be.
    await app.db.execute(sql.raw(`create function test_fail_request_counts() returns trigger language plpgsql as $$
      begin raise exception 'test: request counts unavailable' using errcode = '40001'; end $$`));
    await app.db.execute(sql`create trigger test_fail_request_counts before insert on request_counts for each row execute function test_fail_request_counts()`);
    try {
      await pollAs(app, 'usage-kept', 4);
      await until('a write failing', async () => failures(), (n) => n > before);
    } finally {
      await app.db.execute(sql`drop trigger test_fail_request_counts on request_counts`);
      await app.db.execute(sql`drop function test_fail_request_counts()`);
    }
    expect(await until('the kept counts being written', () => storedRequests('usage-kept'), (n) => n === 4)).toBe(4);
    expect(requestsOf((await rps()).clientMetrics, 'usage-kept', '/api/client/features')).toBe(4);
  });
});
