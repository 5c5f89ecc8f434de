// Reads flags in the admin shape: metadata, environments with strategies and variants, dependencies, tags.
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { isAnyOf } from '../../db/any-of.js';
import { prepared } from '../../db/prepared.js';
import * as t from '../../db/schema.js';
import { strategyOrder } from '../../db/strategy-order.js';
import { notFound } from '../../kernel/errors.js';
import { present } from '../../kernel/present.js';

export type FeatureRow = typeof t.features.$inferSelect;
type StrategyRow = typeof t.featureStrategies.$inferSelect;

/** The fields of a flag that metadata events record. */
export const featureMetadata = (row: FeatureRow) => ({
  name: row.name,
  project: row.project,
  type: row.type,
  description: row.description,
  impressionData: row.impressionData,
});

export function describeStrategy(row: StrategyRow, segmentIds: number[]) {
  return {
    id: row.id,
    name: row.strategyName,
    ...present('title', row.title),
    featureName: row.featureName,
    environment: row.environment,
    disabled: row.disabled,
    sortOrder: row.sortOrder,
    parameters: row.parameters,
    constraints: row.constraints,
    variants: row.variants,
    segments: [...segmentIds].sort((a, b) => a - b),
  };
}

export type DescribedStrategy = ReturnType<typeof describeStrategy>;

/** Segment ids per strategy id, for the given strategies. */
export async function segmentsOfStrategies(db: Db, strategyIds: string[]): Promise<Map<string, number[]>> {
  const links = strategyIds.length
    ? await db.select().from(t.featureStrategySegments).where(isAnyOf(t.featureStrategySegments.strategyId, strategyIds))
    : [];
  const byStrategy = new Map<string, number[]>();
  for (const link of links) byStrategy.set(link.strategyId, [...(byStrategy.get(link.strategyId) ?? []), link.segmentId]);
  return byStrategy;
}


const names = sql.placeholder('names');

/** The reads behind `describeFeatures`, each of every row of the flags named by the `names` placeholder. */
const featureChildren = (db: Db) =>
  prepared(db, 'featureChildren', (db) => ({
    featureEnvironments: db.select().from(t.featureEnvironments).where(isAnyOf(t.featureEnvironments.featureName, names)).prepare('featureEnvironmentsOf'),
    strategies: db.select().from(t.featureStrategies).where(isAnyOf(t.featureStrategies.featureName, names)).prepare('featureStrategiesOf'),
    segmentLinks: db
      .select({ strategyId: t.featureStrategySegments.strategyId, segmentId: t.featureStrategySegments.segmentId })
      .from(t.featureStrategySegments)
      .innerJoin(t.featureStrategies, eq(t.featureStrategies.id, t.featureStrategySegments.strategyId))
      .where(isAnyOf(t.featureStrategies.featureName, names))
      .prepare('segmentLinksOf'),
    dependencies: db
      .select()
      .from(t.featureDependencies)
      .where(or(isAnyOf(t.featureDependencies.child, names), isAnyOf(t.featureDependencies.parent, names)))
      .prepare('dependenciesOf'),
    tags: db
      .select()
      .from(t.featureTags)
      .where(isAnyOf(t.featureTags.featureName, names))
      .orderBy(asc(t.featureTags.tagType), asc(t.featureTags.tagValue))
      .prepare('featureTagsOf'),
    environments: db.select().from(t.environments).orderBy(asc(t.environments.sortOrder), asc(t.environments.name)).prepare('environments'),
  }));

/** Flags in the admin shape, in a bounded number of queries whatever their number. */
export async function describeFeatures(db: Db, rows: FeatureRow[]) {
  if (rows.length === 0) return [];
  const reads = featureChildren(db);
  const wanted = { names: rows.map((r) => r.name) };
  const [featureEnvs, strategies, links, dependencies, tags, environments] = await Promise.all([
    reads.featureEnvironments.execute(wanted),
    reads.strategies.execute(wanted),
    reads.segmentLinks.execute(wanted),
    reads.dependencies.execute(wanted),
    reads.tags.execute(wanted),
    reads.environments.execute(),
  ]);
  const segmentIds = new Map<string, number[]>();
  for (const link of links) segmentIds.set(link.strategyId, [...(segmentIds.get(link.strategyId) ?? []), link.segmentId]);
  strategies.sort(strategyOrder);
  return rows.map((row) => ({
    name: row.name,
    project: row.project,
    type: row.type,
    ...present('description', row.description),
    stale: row.stale,
    impressionData: row.impressionData,
    archived: row.archivedAt !== null,
    ...present('archivedAt', row.archivedAt?.toISOString()),
    createdAt: row.createdAt.toISOString(),
    ...present('lastSeenAt', row.lastSeenAt?.toISOString()),
    environments: environments
      .map((env) => {
        const state = featureEnvs.find((fe) => fe.featureName === row.name && fe.environment === env.name);
        if (!state) return undefined;
        const envStrategies = strategies
          .filter((s) => s.featureName === row.name && s.environment === env.name)
          .map((s) => describeStrategy(s, segmentIds.get(s.id) ?? []));
        return {
          name: env.name,
          environment: env.name,
          featureName: row.name,
          type: env.type,
          enabled: state.enabled,
          sortOrder: env.sortOrder,
          strategies: envStrategies,
          variants: state.variants,
          hasStrategies: envStrategies.length > 0,
          hasEnabledStrategies: envStrategies.some((s) => !s.disabled),
          lastSeenAt: state.lastSeenAt?.toISOString() ?? null,
        };
      })
      .filter((e) => e !== undefined),
    dependencies: dependencies
      .filter((d) => d.child === row.name)
      .map((d) => ({ feature: d.parent, enabled: d.enabled, ...(d.enabled && d.variants.length > 0 && { variants: d.variants }) })),
    children: dependencies.filter((d) => d.parent === row.name).map((d) => d.child),
    tags: tags.filter((tag) => tag.featureName === row.name).map((tag) => ({ type: tag.tagType, value: tag.tagValue })),
  }));
}

export async function describeFeature(db: Db, row: FeatureRow) {
  const [described] = await describeFeatures(db, [row]);
  return described!;
}

/** The flag by name, whatever its project or state; 404 when it does not exist. */
export async function requireFeature(db: Db, name: string): Promise<FeatureRow> {
  const [row] = await db.select().from(t.features).where(eq(t.features.name, name));
  if (!row) throw notFound(`No flag named "${name}" exists.`);
  return row;
}

/** The active (not archived) flag of that project; 404 otherwise. */
export async function requireActiveFeature(db: Db, project: string, name: string): Promise<FeatureRow> {
  const [row] = await db
    .select()
    .from(t.features)
    .where(and(eq(t.features.name, name), eq(t.features.project, project), isNull(t.features.archivedAt)));
  if (!row) throw notFound(`No active flag named "${name}" exists in the project "${project}".`);
  return row;
}
