// The feature search grammar (`OPERATOR:value,value…`) turned into SQL conditions over `features`, one
// EXISTS per related table, so that a filter selects flags without trimming what is listed for them.
import { and, asc, desc, eq, gte, lt, inArray, isNotNull, isNull, not, or, sql, type SQL } from 'drizzle-orm';
import type { operations } from '../../generated/api.js';
import * as t from '../../db/schema.js';
import { badRequest } from '../../kernel/errors.js';

export type SearchQuery = NonNullable<operations['searchFeatures']['parameters']['query']>;

interface Filter {
  operator: string;
  values: string[];
}

function parseFilter(raw: string | undefined): Filter | undefined {
  if (raw === undefined) return undefined;
  const colon = raw.indexOf(':');
  if (colon < 0) return undefined;
  const values = raw
    .slice(colon + 1)
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return { operator: raw.slice(0, colon), values };
}

const anyOf = (conditions: SQL[]): SQL => (conditions.length > 0 ? or(...conditions)! : sql`false`);
const allOf = (conditions: SQL[]): SQL => (conditions.length > 0 ? and(...conditions)! : sql`true`);

/** IS / IS_ANY_OF select flags matching any value; IS_NOT / IS_NONE_OF those matching none. */
function isFilter(filter: Filter | undefined, matchesAny: (values: string[]) => SQL): SQL | undefined {
  if (!filter) return undefined;
  const condition = matchesAny(filter.values);
  return filter.operator === 'IS' || filter.operator === 'IS_ANY_OF' ? condition : not(condition);
}

/** The INCLUDE family over a per-value test: any, none, all, or not all of the values. */
function includeFilter(filter: Filter | undefined, has: (value: string) => SQL, hasAny: (values: string[]) => SQL): SQL | undefined {
  if (!filter || filter.values.length === 0) return undefined;
  switch (filter.operator) {
    case 'INCLUDE':
    case 'INCLUDE_ANY_OF':
      return hasAny(filter.values);
    case 'DO_NOT_INCLUDE':
    case 'EXCLUDE_IF_ANY_OF':
      return not(hasAny(filter.values));
    case 'INCLUDE_ALL_OF':
      return allOf(filter.values.map(has));
    default:
      return not(allOf(filter.values.map(has)));
  }
}

const f = t.features;

function tagPair(value: string): SQL {
  const colon = value.indexOf(':');
  return sql`(${t.featureTags.tagType} = ${value.slice(0, colon)} and ${t.featureTags.tagValue} = ${value.slice(colon + 1)})`;
}

const hasTags = (values: string[]) =>
  sql`exists (select 1 from ${t.featureTags} where ${t.featureTags.featureName} = ${f.name} and ${anyOf(values.map(tagPair))})`;

const hasSegments = (names: string[]) => sql`exists (
  select 1 from ${t.featureStrategies}
  join ${t.featureStrategySegments} on ${t.featureStrategySegments.strategyId} = ${t.featureStrategies.id}
  join ${t.segments} on ${t.segments.id} = ${t.featureStrategySegments.segmentId}
  where ${t.featureStrategies.featureName} = ${f.name} and ${inArray(t.segments.name, names)})`;

/** Not stale, and older than its flag type's expected lifetime. */
export const isPotentiallyStale = sql`(not ${f.stale} and exists (
  select 1 from ${t.featureTypes} where ${t.featureTypes.id} = ${f.type} and ${t.featureTypes.lifetimeDays} is not null
  and ${f.createdAt} <= now() - make_interval(days => ${t.featureTypes.lifetimeDays})))`;

const stateCondition: Record<string, SQL> = { active: not(f.stale), stale: eq(f.stale, true), 'potentially-stale': isPotentiallyStale };

/** `term` anywhere in a text, for (i)like: its own `%`, `_` and `\` match themselves. */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function textCondition(query: string | undefined): SQL | undefined {
  const terms = (query ?? '')
    .split(',')
    .map((term) => term.trim())
    .filter(Boolean);
  if (terms.length === 0) return undefined;
  return anyOf(
    terms.map((term) => {
      const pattern = likePattern(term);
      return sql`(${f.name} ilike ${pattern} or ${f.description} ilike ${pattern} or exists (
        select 1 from ${t.featureTags} where ${t.featureTags.featureName} = ${f.name}
        and (${t.featureTags.tagType} || ':' || ${t.featureTags.tagValue}) ilike ${pattern}))`;
    }),
  );
}

function statusCondition(entries: string[] | undefined): SQL | undefined {
  const wanted = (entries ?? []).flatMap((entry) => {
    const match = /^(.+):(enabled|disabled)$/.exec(entry);
    return match ? [sql`(${t.featureEnvironments.environment} = ${match[1]} and ${t.featureEnvironments.enabled} = ${match[2] === 'enabled'})`] : [];
  });
  if (wanted.length === 0) return undefined;
  return sql`exists (select 1 from ${t.featureEnvironments} where ${t.featureEnvironments.featureName} = ${f.name} and ${anyOf(wanted)})`;
}

function createdAtCondition(raw: string | undefined): SQL | undefined {
  if (raw === undefined) return undefined;
  const [operator, date] = raw.split(':') as [string, string];
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) throw badRequest(`createdAt: "${date}" is not a calendar date (YYYY-MM-DD).`);
  return operator === 'IS_BEFORE' ? lt(f.createdAt, day) : gte(f.createdAt, day);
}

function createdByCondition(ids: string[]): SQL {
  const numbers = ids.filter((id) => /^-?\d{1,9}$/.test(id)).map(Number);
  return numbers.length > 0 ? and(isNotNull(f.createdByUserId), inArray(f.createdByUserId, numbers))! : sql`false`;
}

/** Every condition the query asks for; flags must meet all of them. */
export function searchConditions(query: SearchQuery): SQL {
  const conditions = [
    query.archived === 'IS:true' ? isNotNull(f.archivedAt) : isNull(f.archivedAt),
    textCondition(query.query),
    isFilter(parseFilter(query.project), (values) => inArray(f.project, values)),
    isFilter(parseFilter(query.type), (values) => inArray(f.type, values)),
    isFilter(parseFilter(query.state), (values) => anyOf(values.flatMap((v) => stateCondition[v] ?? []))),
    isFilter(parseFilter(query.createdBy), createdByCondition),
    includeFilter(parseFilter(query.tag), (value) => hasTags([value]), hasTags),
    includeFilter(parseFilter(query.segment), (name) => hasSegments([name]), hasSegments),
    statusCondition(query.status),
    createdAtCondition(query.createdAt),
  ];
  return allOf(conditions.filter((c) => c !== undefined));
}

const sortColumns: Record<string, SQL> = {
  name: sql`${f.name}`,
  type: sql`${f.type}`,
  project: sql`${f.project}`,
  stale: sql`${f.stale}`,
  lastSeenAt: sql`${f.lastSeenAt}`,
};

/** Whether the user marked the flag as a favourite. */
export const isFavoriteOf = (userId: number) =>
  sql`exists (select 1 from ${t.favoriteFeatures} where ${t.favoriteFeatures.userId} = ${userId} and ${t.favoriteFeatures.featureName} = ${f.name})`;

/**
 * The order of the results: the user's favourites first when asked (and a user asks), then the asked sort
 * (nulls last), then oldest first, then by name.
 */
export function searchOrder(query: SearchQuery, userId: number | undefined): SQL[] {
  const favoritesFirst = query.favoritesFirst === 'true' && userId !== undefined ? [sql`${isFavoriteOf(userId)} desc`] : [];
  return [...favoritesFirst, ...askedOrder(query)];
}

function askedOrder(query: SearchQuery): SQL[] {
  const direction = query.sortOrder === 'desc' ? sql`desc` : sql`asc`;
  const sortBy = query.sortBy ?? 'createdAt';
  const environment = sortBy.startsWith('environment:') ? sortBy.slice('environment:'.length) : undefined;
  const column =
    environment !== undefined
      ? sql`(select ${t.featureEnvironments.enabled} from ${t.featureEnvironments} where ${t.featureEnvironments.featureName} = ${f.name} and ${t.featureEnvironments.environment} = ${environment})`
      : sortColumns[sortBy];
  if (!column) return [query.sortOrder === 'desc' ? desc(f.createdAt) : asc(f.createdAt), asc(f.name)];
  return [sql`${column} ${direction} nulls last`, asc(f.createdAt), asc(f.name)];
}

export function pageOf(query: SearchQuery): { offset: number; limit: number } {
  const limit = Math.min(Number(query.limit ?? 0) || 50, 1000);
  return { offset: Number(query.offset ?? 0), limit };
}
