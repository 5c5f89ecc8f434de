import { count, desc, eq } from 'drizzle-orm';
import type { Handlers } from '../generated/handlers.js';
import * as t from '../db/schema.js';

/** Events listed when no project is asked for. */
const RECENT_EVENTS = 100;

export type EventRow = typeof t.events.$inferSelect;

/** An event row as the contract shows it. */
export const toEvent = (row: EventRow) => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  type: row.type,
  createdBy: row.createdBy,
  createdByUserId: row.createdByUserId,
  environment: row.environment,
  project: row.project,
  featureName: row.featureName,
  data: row.data as Record<string, unknown> | null,
  preData: row.preData as Record<string, unknown> | null,
  tags: row.tags,
});

export const eventHandlers = {
  async getEvents({ query }, { db }) {
    const project = query?.project;
    if (project !== undefined) {
      const rows = await db.select().from(t.events).where(eq(t.events.project, project)).orderBy(desc(t.events.id));
      return { status: 200, body: { version: 1, events: rows.map(toEvent), totalEvents: rows.length } };
    }
    const [rows, [total]] = await Promise.all([
      db.select().from(t.events).orderBy(desc(t.events.id)).limit(RECENT_EVENTS),
      db.select({ n: count() }).from(t.events),
    ]);
    return { status: 200, body: { version: 1, events: rows.map(toEvent), totalEvents: total?.n ?? 0 } };
  },

  async getFeatureEvents({ params }, { db }) {
    const rows = await db.select().from(t.events).where(eq(t.events.featureName, params.featureName)).orderBy(desc(t.events.id));
    return { status: 200, body: { version: 1, toggleName: params.featureName, events: rows.map(toEvent), totalEvents: rows.length } };
  },
} satisfies Partial<Handlers>;
