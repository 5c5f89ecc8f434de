// GET /api/admin/client-metrics/features/{featureName}/raw?hoursBack=N: the flag's hourly counts of the last N hours,
// the current one included (48 without it, up to 168: the admin UI's 7-day usage view); outside 1…168 a 400.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok, reportMetrics, sdkMetrics, until } from './support/fixtures.js';

const HOUR = 3_600_000;
const FLAG = 'usage-period';
/** How many hours before now each report's bucket ended. */
const AGES = [0, 30, 100, 200];

let app: TestApp;
const { createFlag } = fixtures(() => app, uniqueNames());

beforeAll(async () => {
  app = await startTestApp();
  const token = await newApiToken(app, { type: 'client', environment: 'production', projects: ['*'] });
  await createFlag('default', FLAG);
  const now = Date.now();
  for (const [i, age] of AGES.entries()) {
    const stop = new Date(now - age * HOUR).toISOString();
    await ok(reportMetrics(app, token, sdkMetrics('web', 'i-1', stop, { [FLAG]: { yes: i + 1, no: 0, variants: {} } })), 202);
  }
  await until(
    'the four hours stored',
    () => app.db.select().from(t.clientMetricsHourly).where(eq(t.clientMetricsHourly.featureName, FLAG)),
    (rows) => rows.length === AGES.length,
  );
});

/** The ages in hours (from the current hour) of the hours answered for `hoursBack`, newest first. */
async function agesAnswered(hoursBack?: number): Promise<number[]> {
  const usage = await ok(app.admin.GET('/api/admin/client-metrics/features/{featureName}/raw', { params: { path: { featureName: FLAG }, query: { hoursBack } } }));
  const currentHour = Math.floor(Date.now() / HOUR) * HOUR;
  return usage.metrics.map((m) => (currentHour - Date.parse(m.timestamp)) / HOUR);
}

describe("a flag's usage over a number of hours", () => {
  it('answers the last 48 hours without hoursBack', async () => {
    expect(await agesAnswered()).toEqual([0, 30]);
  });

  it('answers only the current hour for hoursBack=1', async () => {
    expect(await agesAnswered(1)).toEqual([0]);
  });

  it('counts the current hour among the hours asked: 30 hours leave out the hour 30 hours back, 31 include it', async () => {
    expect(await agesAnswered(30)).toEqual([0]);
    expect(await agesAnswered(31)).toEqual([0, 30]);
  });

  it('answers up to 7 days (hoursBack=168), and nothing older', async () => {
    expect(await agesAnswered(168)).toEqual([0, 30, 100]);
  });

  it('refuses hoursBack outside 1 to 168 with a 400', async () => {
    for (const hoursBack of ['0', '169', 'week']) {
      const answer = await app.admin.GET('/api/admin/client-metrics/features/{featureName}/raw', {
        params: { path: { featureName: FLAG }, query: { hoursBack: hoursBack as unknown as number } },
      });
      expectError(answer, 400, 'ValidationError');
    }
  });
});
