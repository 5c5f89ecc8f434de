// The instance's state as documents: version 1 (the interface's: one environment's flags and the custom strategy
// definitions) and version 2 (the whole flag configuration, in a stable order so that two exports compare equal).
import { asc, eq, isNull } from 'drizzle-orm';
import type { components } from '../../generated/api.js';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { strategyOrder } from '../../db/strategy-order.js';

type Schemas = components['schemas'];
type StrategyRow = typeof t.featureStrategies.$inferSelect;

/** Rows grouped by a key, each group in the rows' order. */
function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** Strategies per flag and environment in evaluation order, with their segment ids. */
async function strategiesByFlagEnvironment(db: Db) {
  const [strategies, links] = await Promise.all([db.select().from(t.featureStrategies), db.select().from(t.featureStrategySegments)]);
  const segmentsOf = groupBy(links, (link) => link.strategyId);
  strategies.sort(strategyOrder);
  const grouped = groupBy(strategies, (s) => `${s.featureName}\u0000${s.environment}`);
  return { get: (flag: string, environment: string) => grouped.get(`${flag}\u0000${environment}`) ?? [], segmentsOf: (s: StrategyRow) => (segmentsOf.get(s.id) ?? []).map((l) => l.segmentId).sort((a, b) => a - b) };
}

export interface V1Options {
  environment: string;
  featureToggles: boolean;
  strategies: boolean;
}

export async function exportV1(db: Db, options: V1Options): Promise<Schemas['StateV1']> {
  const document: Schemas['StateV1'] = { version: 1 };
  if (options.featureToggles) {
    const [flags, environments, strategies] = await Promise.all([
      db.select().from(t.features).where(isNull(t.features.archivedAt)).orderBy(asc(t.features.name)),
      db.select().from(t.featureEnvironments).where(eq(t.featureEnvironments.environment, options.environment)),
      strategiesByFlagEnvironment(db),
    ]);
    const stateOf = new Map(environments.map((e) => [e.featureName, e]));
    document.features = flags.map((flag) => ({
      name: flag.name,
      description: flag.description,
      type: flag.type,
      project: flag.project,
      enabled: stateOf.get(flag.name)?.enabled ?? false,
      stale: flag.stale,
      impressionData: flag.impressionData,
      strategies: strategies.get(flag.name, options.environment).map((s) => ({ name: s.strategyName, parameters: s.parameters, constraints: s.constraints })),
      variants: stateOf.get(flag.name)?.variants ?? [],
    }));
  }
  if (options.strategies) {
    const definitions = await db.select().from(t.strategies).where(eq(t.strategies.builtIn, false)).orderBy(asc(t.strategies.name));
    document.strategies = definitions.map((d) => ({ name: d.name, description: d.description, parameters: d.parameters }));
  }
  return document;
}

export async function exportV2(db: Db): Promise<Schemas['StateV2']> {
  const [environments, projects, projectEnvironments, contextFields, definitions, tagTypes, tags, segments, flags, flagEnvironments, featureTags, dependencies, strategies] =
    await Promise.all([
      db.select().from(t.environments).orderBy(asc(t.environments.sortOrder), asc(t.environments.name)),
      db.select().from(t.projects).orderBy(asc(t.projects.id)),
      db.select().from(t.projectEnvironments),
      db.select().from(t.contextFields).orderBy(asc(t.contextFields.sortOrder), asc(t.contextFields.name)),
      db.select().from(t.strategies).where(eq(t.strategies.builtIn, false)).orderBy(asc(t.strategies.name)),
      db.select().from(t.tagTypes).orderBy(asc(t.tagTypes.name)),
      db.select().from(t.tags).orderBy(asc(t.tags.type), asc(t.tags.value)),
      db.select().from(t.segments).orderBy(asc(t.segments.id)),
      db.select().from(t.features).orderBy(asc(t.features.name)),
      db.select().from(t.featureEnvironments),
      db.select().from(t.featureTags).orderBy(asc(t.featureTags.tagType), asc(t.featureTags.tagValue)),
      db.select().from(t.featureDependencies).orderBy(asc(t.featureDependencies.parent)),
      strategiesByFlagEnvironment(db),
    ]);
  const environmentsOfProject = groupBy(projectEnvironments, (link) => link.project);
  const environmentsOfFlag = groupBy(flagEnvironments.sort((a, b) => (a.environment < b.environment ? -1 : a.environment > b.environment ? 1 : 0)), (e) => e.featureName);
  const tagsOfFlag = groupBy(featureTags, (tag) => tag.featureName);
  const parentsOfFlag = groupBy(dependencies, (d) => d.child);
  return {
    version: 2,
    environments: environments.map((e) => ({ name: e.name, type: e.type, enabled: e.enabled, sortOrder: e.sortOrder })),
    projects: projects.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      mode: p.mode,
      defaultStickiness: p.defaultStickiness,
      environments: (environmentsOfProject.get(p.id) ?? []).map((link) => link.environment).sort(),
    })),
    contextFields: contextFields.map((f) => ({ name: f.name, description: f.description, stickiness: f.stickiness, sortOrder: f.sortOrder, legalValues: f.legalValues })),
    strategies: definitions.map((d) => ({ name: d.name, title: d.title, description: d.description, deprecated: d.deprecated, parameters: d.parameters })),
    tagTypes: tagTypes.map((tt) => ({ name: tt.name, description: tt.description, icon: tt.icon, color: tt.color })),
    tags: tags.map((tag) => ({ type: tag.type, value: tag.value })),
    segments: segments.map((s) => ({ id: s.id, name: s.name, description: s.description, project: s.project, constraints: s.constraints })),
    features: flags.map((flag) => ({
      name: flag.name,
      project: flag.project,
      type: flag.type,
      description: flag.description,
      impressionData: flag.impressionData,
      stale: flag.stale,
      createdAt: flag.createdAt.toISOString(),
      archivedAt: flag.archivedAt?.toISOString() ?? null,
      tags: (tagsOfFlag.get(flag.name) ?? []).map((tag) => ({ type: tag.tagType, value: tag.tagValue })),
      dependencies: (parentsOfFlag.get(flag.name) ?? []).map((d) => ({ feature: d.parent, enabled: d.enabled, ...(d.variants.length > 0 && { variants: d.variants }) })),
      environments: (environmentsOfFlag.get(flag.name) ?? []).map((e) => ({
        name: e.environment,
        enabled: e.enabled,
        variants: e.variants,
        strategies: strategies.get(flag.name, e.environment).map((s) => ({
          id: s.id,
          name: s.strategyName,
          title: s.title,
          disabled: s.disabled,
          sortOrder: s.sortOrder,
          parameters: s.parameters,
          constraints: s.constraints,
          variants: s.variants,
          segments: strategies.segmentsOf(s),
        })),
      })),
    })),
  };
}
