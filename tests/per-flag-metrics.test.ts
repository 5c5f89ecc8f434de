// One SDK metrics report counts several flags: each flag's hourly counts are stored and read back on their own.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';
import { until } from './support/fixtures.js';

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  const created = await call(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: 'sdk', type: 'client', environment: 'production', projects: ['*'] } });
  expect(created.status, created.text).toBe(201);
  token = created.json.secret;
});

async function createFlag(name: string) {
  const created = await call(app, 'POST', '/api/admin/projects/default/features', { body: { name } });
  expect(created.status, created.text).toBe(201);
}

const report = (appName: string, stop: string, toggles: Record<string, unknown>) => ({
  appName,
  instanceId: 'i-1',
  environment: 'default',
  bucket: { start: new Date(Date.parse(stop) - 10_000).toISOString(), stop, toggles },
});

type Usage = { version: number; featureName: string; metrics: { environment: string; appName: string; timestamp: string; yes: number; no: number; variants: Record<string, number> }[] };

async function usage(flag: string): Promise<Usage> {
  const response = await call(app, 'GET', `/api/admin/client-metrics/features/${flag}/raw`);
  expect(response.status, response.text).toBe(200);
  return response.json;
}

describe('hourly counts of one report with two flags', () => {
  it("stores each flag's yes, no and variant counts under that flag", async () => {
    const [first, second, untouched] = ['counted-first', 'counted-second', 'counted-none'];
    for (const flag of [first, second, untouched]) await createFlag(flag);
    const stop = new Date().toISOString();
    const hour = new Date(Math.floor(Date.parse(stop) / 3_600_000) * 3_600_000).toISOString();

    const sent = await call(app, 'POST', '/api/client/metrics', {
      token,
      body: report('two-flags', stop, { [first]: { yes: 3, no: 1, variants: { a: 2 } }, [second]: { yes: 7, no: 2, variants: { b: 5, c: 1 } } }),
    });
    expect(sent.status, sent.text).toBe(202);

    await until('both flags counted', () => Promise.all([usage(first), usage(second)]), ([a, b]) => a.metrics.length > 0 && b.metrics.length > 0);
    expect(await usage(first)).toEqual({
      version: 1,
      featureName: first,
      metrics: [{ environment: 'production', appName: 'two-flags', timestamp: hour, yes: 3, no: 1, variants: { a: 2 } }],
    });
    expect(await usage(second)).toEqual({
      version: 1,
      featureName: second,
      metrics: [{ environment: 'production', appName: 'two-flags', timestamp: hour, yes: 7, no: 2, variants: { b: 5, c: 1 } }],
    });
    expect((await usage(untouched)).metrics).toEqual([]);
  });

  it('adds a second report to each flag separately', async () => {
    const [first, second] = ['summed-first', 'summed-second'];
    for (const flag of [first, second]) await createFlag(flag);
    const stop = new Date().toISOString();
    const send = async (toggles: Record<string, unknown>) => {
      const sent = await call(app, 'POST', '/api/client/metrics', { token, body: report('summed', stop, toggles) });
      expect(sent.status, sent.text).toBe(202);
    };

    await send({ [first]: { yes: 1, no: 0, variants: {} }, [second]: { yes: 0, no: 4, variants: {} } });
    await until('the first report', () => usage(second), (u) => u.metrics.length > 0);
    await send({ [first]: { yes: 10, no: 1, variants: {} } });
    const firstCounts = await until('the second report', () => usage(first), (u) => u.metrics[0]?.yes === 11);

    expect(firstCounts.metrics.map(({ yes, no }) => ({ yes, no }))).toEqual([{ yes: 11, no: 1 }]);
    expect((await usage(second)).metrics.map(({ yes, no }) => ({ yes, no }))).toEqual([{ yes: 0, no: 4 }]);
  });
});
