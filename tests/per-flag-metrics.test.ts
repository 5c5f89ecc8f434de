// One SDK metrics report counts several flags: each flag's hourly counts are stored and read back on their own.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok, reportMetrics, sdkMetrics, until } from './support/fixtures.js';

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  token = await newApiToken(app, { type: 'client', environment: 'production', projects: ['*'] });
});

const { createFlag, usageOf: usage } = fixtures(() => app, uniqueNames());

/** Sends one SDK report of the toggles' counts; expects it accepted. */
async function sendMetrics(appName: string, stop: string, toggles: Parameters<typeof sdkMetrics>[3]) {
  await ok(reportMetrics(app, token, sdkMetrics(appName, 'i-1', stop, toggles)), 202);
}

describe('hourly counts of one report with two flags', () => {
  it("stores each flag's yes, no and variant counts under that flag", async () => {
    const [first, second, untouched] = ['counted-first', 'counted-second', 'counted-none'];
    for (const flag of [first, second, untouched]) await createFlag('default', flag);
    const stop = new Date().toISOString();
    const hour = new Date(Math.floor(Date.parse(stop) / 3_600_000) * 3_600_000).toISOString();

    await sendMetrics('two-flags', stop, { [first]: { yes: 3, no: 1, variants: { a: 2 } }, [second]: { yes: 7, no: 2, variants: { b: 5, c: 1 } } });

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
    for (const flag of [first, second]) await createFlag('default', flag);
    const stop = new Date().toISOString();
    await sendMetrics('summed', stop, { [first]: { yes: 1, no: 0, variants: {} }, [second]: { yes: 0, no: 4, variants: {} } });
    await until('the first report', () => usage(second), (u) => u.metrics.length > 0);
    await sendMetrics('summed', stop, { [first]: { yes: 10, no: 1, variants: {} } });
    const firstCounts = await until('the second report', () => usage(first), (u) => u.metrics[0]?.yes === 11);

    expect(firstCounts.metrics.map(({ yes, no }) => ({ yes, no }))).toEqual([{ yes: 11, no: 1 }]);
    expect((await usage(second)).metrics.map(({ yes, no }) => ({ yes, no }))).toEqual([{ yes: 0, no: 4 }]);
  });
});
