import { and, count, gte, sql } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import { isAnyOf } from '../db/any-of.js';
import { prepared } from '../db/prepared.js';
import * as t from '../db/schema.js';
import { describeFeatures, type FeatureRow } from '../domain/flags/feature-view.js';
import { present } from '../kernel/present.js';
import { describeUser } from '../domain/access/user-records.js';
import { userIdOf } from '../shared/caller.js';
import { favoriteFlagsAmong } from '../domain/flags/favorites.js';
import { currentStages } from '../domain/flags/lifecycle.js';
import { pageOf, searchConditions, searchOrder } from '../domain/flags/search-filters.js';

const HOUR_MS = 3_600_000;

const recentCountsQuery = (db: Db) =>
  prepared(db, 'recentCounts', (db) =>
    db
      .select({
        featureName: t.clientMetricsHourly.featureName,
        environment: t.clientMetricsHourly.environment,
        yes: sql<string>`sum(${t.clientMetricsHourly.yes})`,
        no: sql<string>`sum(${t.clientMetricsHourly.no})`,
      })
      .from(t.clientMetricsHourly)
      .where(and(isAnyOf(t.clientMetricsHourly.featureName, sql.placeholder('names')), gte(t.clientMetricsHourly.hour, sql.placeholder('since'))))
      .groupBy(t.clientMetricsHourly.featureName, t.clientMetricsHourly.environment)
      .prepare('recentCounts'),
  );

/** Evaluations SDKs reported in the last hour, per flag and environment. */
async function recentCounts(db: Db, names: string[]) {
  const rows = await recentCountsQuery(db).execute({ names, since: new Date(Date.now() - HOUR_MS).toISOString() });
  return new Map(rows.map((r) => [`${r.featureName}\n${r.environment}`, { yes: Number(r.yes), no: Number(r.no) }]));
}

/** The image of each user among the creators; API tokens (ids 0 and below) have none. */
async function creatorImages(db: Db, rows: FeatureRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((r) => r.createdByUserId).filter((id): id is number => id !== null && id > 0))];
  if (ids.length === 0) return new Map();
  const users = await db.select().from(t.users).where(isAnyOf(t.users.id, ids));
  return new Map(users.map((user) => [user.id, describeUser(user).imageUrl]));
}

/** Flags in the search shape: the admin shape plus segment names, tag colours, lifecycle, counts and creator. */
async function describeFound(db: Db, rows: FeatureRow[], userId: number | undefined) {
  if (rows.length === 0) return [];
  const names = rows.map((r) => r.name);
  const [features, tagTypes, stages, counts, favorites, images] = await Promise.all([
    describeFeatures(db, rows),
    db.select({ name: t.tagTypes.name, color: t.tagTypes.color }).from(t.tagTypes),
    currentStages(db, names),
    recentCounts(db, names),
    favoriteFlagsAmong(db, names, userId),
    creatorImages(db, rows),
  ]);
  const segmentIds = [...new Set(features.flatMap((f) => f.environments.flatMap((e) => e.strategies.flatMap((s) => s.segments))))];
  const segments = segmentIds.length ? await db.select({ id: t.segments.id, name: t.segments.name }).from(t.segments).where(isAnyOf(t.segments.id, segmentIds)) : [];
  const segmentName = new Map(segments.map((s) => [s.id, s.name]));
  const color = new Map(tagTypes.map((type) => [type.name, type.color]));
  return features.map((feature, i) => {
    const row = rows[i]!;
    const dependencyType = feature.dependencies.length > 0 ? ('child' as const) : feature.children.length > 0 ? ('parent' as const) : null;
    const usedSegments = feature.environments.flatMap((e) => e.strategies.flatMap((s) => s.segments.map((id) => segmentName.get(id)!)));
    return {
      name: feature.name,
      ...present('description', feature.description),
      type: feature.type,
      project: feature.project,
      favorite: favorites.has(feature.name),
      createdAt: feature.createdAt,
      stale: feature.stale,
      ...present('archivedAt', feature.archivedAt),
      impressionData: feature.impressionData,
      ...present('lastSeenAt', feature.lastSeenAt),
      ...present('dependencyType', dependencyType),
      environments: feature.environments.map((env) => ({
        ...env,
        variantCount: env.variants.length,
        ...(counts.get(`${feature.name}\n${env.name}`) ?? { yes: 0, no: 0 }),
        changeRequestIds: [],
      })),
      segments: [...new Set(usedSegments)].sort(),
      tags: feature.tags.map((tag) => ({ ...tag, color: color.get(tag.type) ?? null })),
      ...present('lifecycle', stages.get(feature.name)),
      createdBy: { id: row.createdByUserId ?? 0, name: row.createdBy ?? 'unknown', ...present('imageUrl', images.get(row.createdByUserId ?? 0)) },
    };
  });
}

export const featureSearchHandlers = {
  async searchFeatures({ query }, { db, caller }) {
    const userId = userIdOf(caller);
    const where = searchConditions(query);
    const { offset, limit } = pageOf(query);
    // The page stops reading early; counting reads every match, so the two run side by side.
    const [features, total] = await Promise.all([
      db
        .select()
        .from(t.features)
        .where(where)
        .orderBy(...searchOrder(query, userId))
        .limit(limit)
        .offset(offset)
        .then((rows) => describeFound(db, rows, userId)),
      db
        .select({ total: count() })
        .from(t.features)
        .where(where)
        .then(([row]) => row?.total ?? 0),
    ]);
    return { status: 200, body: { features, total } };
  },
} satisfies Partial<Handlers>;
