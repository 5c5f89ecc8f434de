import { and, asc, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { notFound } from '../kernel/errors.js';
import { requireFeature } from '../domain/flags/feature-view.js';

const HOUR_MS = 3_600_000;
/** How many hours of a flag's raw usage are answered when `hoursBack` is not given, the current hour included. */
const USAGE_HOURS = 48;

type ApplicationRow = typeof t.clientApplications.$inferSelect;

async function describeApplications(db: Db, rows: ApplicationRow[]) {
  if (rows.length === 0) return [];
  const instances = await db
    .select()
    .from(t.clientInstances)
    .where(inArray(t.clientInstances.appName, rows.map((r) => r.appName)))
    .orderBy(asc(t.clientInstances.instanceId));
  return rows.map((row) => {
    const mine = instances.filter((i) => i.appName === row.appName);
    return {
      appName: row.appName,
      createdAt: row.createdAt.toISOString(),
      lastSeen: row.lastSeen.toISOString(),
      strategies: row.strategies,
      environments: [...new Set(mine.map((i) => i.environment))].sort(),
      instances: mine.map((i) => ({
        instanceId: i.instanceId,
        environment: i.environment,
        sdkVersion: i.sdkVersion,
        clientIp: i.clientIp,
        lastSeen: i.lastSeen.toISOString(),
      })),
    };
  });
}

export const applicationHandlers = {
  async getApplications(_request, { db }) {
    const rows = await db.select().from(t.clientApplications).orderBy(asc(t.clientApplications.appName));
    return { status: 200, body: { applications: await describeApplications(db, rows) } };
  },

  async getApplication({ params }, { db }) {
    const rows = await db.select().from(t.clientApplications).where(eq(t.clientApplications.appName, params.appName));
    if (rows.length === 0) throw notFound(`No application named "${params.appName}" has registered.`);
    const [application] = await describeApplications(db, rows);
    return { status: 200, body: application! };
  },

  async getFeatureUsage({ params, query }, { db }) {
    const feature = await requireFeature(db, params.featureName);
    const since = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - ((query?.hoursBack ?? USAGE_HOURS) - 1) * HOUR_MS);
    const rows = await db
      .select()
      .from(t.clientMetricsHourly)
      .where(and(eq(t.clientMetricsHourly.featureName, feature.name), gte(t.clientMetricsHourly.hour, since)))
      .orderBy(desc(t.clientMetricsHourly.hour), asc(t.clientMetricsHourly.environment), asc(t.clientMetricsHourly.appName));
    const metrics = rows.map((r) => ({ environment: r.environment, appName: r.appName, timestamp: r.hour.toISOString(), yes: r.yes, no: r.no, variants: r.variants }));
    return { status: 200, body: { version: 1, featureName: feature.name, metrics } };
  },
} satisfies Partial<Handlers>;
