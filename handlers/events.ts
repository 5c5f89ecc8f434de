import { count, desc, eq } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import * as t from '../db/schema.js';
import { toEvent } from '../domain/events/event-view.js';
import { searchEvents } from '../domain/events/event-search.js';

/** Events listed when no project is asked for. */
const RECENT_EVENTS = 100;

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

  async searchEvents({ query }, { db }) {
    return { status: 200, body: await searchEvents(db, query ?? {}) };
  },

  async getFeatureEvents({ params }, { db }) {
    const rows = await db.select().from(t.events).where(eq(t.events.featureName, params.featureName)).orderBy(desc(t.events.id));
    return { status: 200, body: { version: 1, toggleName: params.featureName, events: rows.map(toEvent), totalEvents: rows.length } };
  },
} satisfies Partial<Handlers>;
