// The event log's search (`GET /api/admin/search/events`): Unleash's filters (`OPERATOR:value,value…`) and
// free text turned into SQL conditions over `events`, newest first, one page at a time.
import { and, desc, gte, inArray, lt, not, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { operations } from '../../generated/api.js';
import { eventMeaning } from '../../generated/events.js';
import { badRequest } from '../../kernel/errors.js';
import { likePattern } from '../flags/search-filters.js';
import { toEvent } from './event-view.js';
import type { EventType } from './event-log.js';

export type EventSearchQuery = NonNullable<operations['searchEvents']['parameters']['query']>;

/** A page holds 50 events unless asked otherwise, and never more than 1000 (Unleash's bounds). */
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 1000;

const e = t.events;

interface Filter {
  include: boolean;
  values: string[];
}

/** `IS:a` / `IS_ANY_OF:a,b` select events matching any value; `IS_NOT` / `IS_NONE_OF` those matching none. */
function parseFilter(raw: string | undefined): Filter | undefined {
  if (raw === undefined) return undefined;
  const colon = raw.indexOf(':');
  const operator = raw.slice(0, colon);
  const values = raw
    .slice(colon + 1)
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return { include: operator === 'IS' || operator === 'IS_ANY_OF', values };
}

function filterOn(raw: string | undefined, matchesAny: (values: string[]) => SQL): SQL | undefined {
  const filter = parseFilter(raw);
  if (!filter) return undefined;
  const condition = filter.values.length > 0 ? matchesAny(filter.values) : sql`false`;
  return filter.include ? condition : not(condition);
}

/** Values that must be whole numbers (event and user ids); anything else cannot match and is refused. */
function integers(field: string, values: string[]): number[] {
  return values.map((value) => {
    if (!/^-?\d{1,9}$/.test(value)) throw badRequest(`${field}: "${value}" is not a number; give ids, as in IS_ANY_OF:12,13.`);
    return Number(value);
  });
}

function eventTypes(values: string[]): EventType[] {
  for (const value of values) {
    if (!(value in eventMeaning)) throw badRequest(`type: "${value}" is not an event type; use one of the EventType names, as in IS:feature-created.`);
  }
  return values as EventType[];
}

/** `IS:yyyy-mm-dd` as the UTC midnight starting that day. */
function day(field: string, raw: string | undefined): Date | undefined {
  if (raw === undefined) return undefined;
  const date = raw.slice(raw.indexOf(':') + 1);
  const start = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== date) throw badRequest(`${field}: "${date}" is not a calendar date (YYYY-MM-DD).`);
  return start;
}

const DAY_MS = 86_400_000;

/** Free text anywhere in the flag's name, the project, environment, type, creator, or the data before or after. */
function textCondition(query: string | undefined): SQL | undefined {
  const term = query?.trim();
  if (!term) return undefined;
  const pattern = likePattern(term);
  return or(
    sql`${e.featureName} ilike ${pattern}`,
    sql`${e.project} ilike ${pattern}`,
    sql`${e.environment} ilike ${pattern}`,
    sql`${e.type} ilike ${pattern}`,
    sql`${e.createdBy} ilike ${pattern}`,
    sql`${e.data}::text ilike ${pattern}`,
    sql`${e.preData}::text ilike ${pattern}`,
  );
}

/** Every condition the query asks for; events must meet all of them. Throws a 400 for a value that cannot match. */
export function eventConditions(query: EventSearchQuery): SQL | undefined {
  const from = day('from', query.from);
  const to = day('to', query.to);
  const conditions = [
    textCondition(query.query),
    filterOn(query.id, (values) => inArray(e.id, integers('id', values))),
    filterOn(query.feature, (values) => inArray(e.featureName, values)),
    filterOn(query.project, (values) => inArray(e.project, values)),
    filterOn(query.type, (values) => inArray(e.type, eventTypes(values))),
    filterOn(query.createdBy, (values) => inArray(e.createdByUserId, integers('createdBy', values))),
    filterOn(query.environment, (values) => inArray(e.environment, values)),
    from && gte(e.createdAt, from),
    // `to` names the last day included.
    to && lt(e.createdAt, new Date(to.getTime() + DAY_MS)),
  ].filter((c): c is SQL => c !== undefined);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

export function pageOf(query: EventSearchQuery): { offset: number; limit: number } {
  const limit = Math.min(Number(query.limit ?? 0) || DEFAULT_PAGE, MAX_PAGE);
  return { offset: Number(query.offset ?? 0), limit };
}

/** One page of the matching events, newest first, and how many match in all. */
export async function searchEvents(db: Db, query: EventSearchQuery) {
  const where = eventConditions(query);
  const { offset, limit } = pageOf(query);
  // The page stops reading early; counting reads every match, so the two run side by side.
  const [rows, total] = await Promise.all([
    db.select().from(e).where(where).orderBy(desc(e.id)).limit(limit).offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(e)
      .where(where)
      .then(([row]) => row?.n ?? 0),
  ]);
  return { events: rows.map(toEvent), total };
}
