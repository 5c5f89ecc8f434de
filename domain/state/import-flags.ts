// The flags of an import, written in batches: 10,000 flags cost a few dozen statements, not tens of thousands.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { components } from '../../generated/api.js';
import type { Db } from '../../db/connect.js';
import { insertInBatches, INSERT_BATCH } from '../../db/batches.js';
import * as t from '../../db/schema.js';
import type { LifecycleStageName } from '../../db/schema.js';
import { AppError, badRequest } from '../../kernel/errors.js';
import type { EventInput } from '../events/event-log.js';
import { featureTypeAliases } from '../flags/feature-types.js';
import { normalizeConstraints, normalizeParameters, normalizeVariants } from '../flags/strategy-rules.js';

type Schemas = components['schemas'];
/** A flag as the document gives it; a version 1 flag may leave its project out (`default`, or where it is now). */
export type ImportedFlag = Omit<Schemas['StateFeature'], 'project'> & { project?: string };

/** A flag of the document with where it is in it, for messages (`body.features[3]`, `…environments[1]`). */
export interface PlacedFlag {
  flag: ImportedFlag;
  where: string;
  environmentWhere: (index: number) => string;
}

interface Existing {
  projects: Map<string, { defaultStickiness: string; environments: Set<string> }>;
  environmentTypes: Map<string, string>;
  strategyNames: Set<string>;
  segments: Map<number, { project: string | null }>;
  tagTypes: Set<string>;
}

async function existing(tx: Db): Promise<Existing> {
  const [projects, links, environments, definitions, segments, tagTypes] = await Promise.all([
    tx.select().from(t.projects),
    tx.select().from(t.projectEnvironments),
    tx.select().from(t.environments),
    tx.select({ name: t.strategies.name }).from(t.strategies),
    tx.select({ id: t.segments.id, project: t.segments.project }).from(t.segments),
    tx.select({ name: t.tagTypes.name }).from(t.tagTypes),
  ]);
  const projectMap = new Map(projects.map((p) => [p.id, { defaultStickiness: p.defaultStickiness, environments: new Set<string>() }]));
  for (const link of links) projectMap.get(link.project)?.environments.add(link.environment);
  return {
    projects: projectMap,
    environmentTypes: new Map(environments.map((e) => [e.name, e.type])),
    strategyNames: new Set(definitions.map((d) => d.name)),
    segments: new Map(segments.map((s) => [s.id, { project: s.project }])),
    tagTypes: new Set(tagTypes.map((tt) => tt.name)),
  };
}

/** Runs a check whose message names a field of the strategy, prefixing where the strategy is in the document. */
function prefixed<T>(at: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof AppError) throw new AppError(error.status, error.errorName, `${at}.${error.message}`);
    throw error;
  }
}

/** Whether following parents from `start` reaches `target`. */
function reaches(parentsOf: Map<string, string[]>, start: string, target: string): boolean {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (name === target) return true;
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...(parentsOf.get(name) ?? []));
  }
  return false;
}

export interface FlagImportResult {
  events: EventInput[];
}

/**
 * Writes the document's flags: new ones whole; existing ones skipped with `keep`, else their metadata replaced
 * and, for each environment the document lists, their state, variants and strategies (tags and parents too when
 * the document gives them). Every rule a flag's own operations check is checked here, naming the place.
 */
export async function importFlags(tx: Db, placed: PlacedFlag[], keep: boolean, createdBy: { name: string; userId: number | null }): Promise<FlagImportResult> {
  const state = await existing(tx);
  const featureTypes = new Set((await tx.select({ id: t.featureTypes.id }).from(t.featureTypes)).map((ft) => ft.id));
  const current = new Map((await tx.select({ name: t.features.name, project: t.features.project }).from(t.features)).map((f) => [f.name, f]));
  const seen = new Map<string, string>();
  const chosen: PlacedFlag[] = [];
  for (const item of placed) {
    const before = seen.get(item.flag.name);
    if (before) throw badRequest(`${item.where}.name: the flag "${item.flag.name}" is in the document twice, also at ${before}.`);
    seen.set(item.flag.name, item.where);
    if (keep && current.has(item.flag.name)) continue;
    chosen.push({ ...item, flag: { ...item.flag, project: item.flag.project ?? current.get(item.flag.name)?.project ?? 'default' } });
  }
  const started = Date.now();
  let order = 0;

  const flagRows: (typeof t.features.$inferInsert)[] = [];
  const environmentRows: (typeof t.featureEnvironments.$inferInsert)[] = [];
  const strategyRows: (typeof t.featureStrategies.$inferInsert)[] = [];
  const segmentLinks: (typeof t.featureStrategySegments.$inferInsert)[] = [];
  const tagRows: (typeof t.tags.$inferInsert)[] = [];
  const flagTagRows: (typeof t.featureTags.$inferInsert)[] = [];
  const stageRows: (typeof t.featureLifecycles.$inferInsert)[] = [];
  const listedEnvironments: { featureName: string; environment: string }[] = [];
  const takenStrategyIds = new Set((await tx.select({ id: t.featureStrategies.id }).from(t.featureStrategies)).map((s) => s.id));
  const events: EventInput[] = [];

  for (const { flag, where, environmentWhere } of chosen) {
    const project = state.projects.get(flag.project!);
    if (!project) throw badRequest(`${where}.project: no project with id "${flag.project}" exists.`);
    const type = featureTypeAliases[flag.type ?? 'release'] ?? flag.type ?? 'release';
    if (!featureTypes.has(type)) throw badRequest(`${where}.type: "${flag.type}" is not a flag type.`);
    const createdAt = flag.createdAt ? new Date(flag.createdAt) : new Date(started);
    const archivedAt = flag.archivedAt ? new Date(flag.archivedAt) : null;
    flagRows.push({
      name: flag.name,
      project: flag.project!,
      type,
      description: flag.description ?? null,
      impressionData: flag.impressionData ?? false,
      stale: flag.stale ?? false,
      createdAt,
      archivedAt,
      createdBy: createdBy.name,
      createdByUserId: createdBy.userId,
    });
    const listed = new Map<string, NonNullable<ImportedFlag['environments']>[number] & { where: string }>();
    (flag.environments ?? []).forEach((environment, k) => {
      const at = environmentWhere(k);
      if (!project.environments.has(environment.name)) throw badRequest(`${at}.name: the project "${flag.project}" does not use the environment "${environment.name}".`);
      if (listed.has(environment.name)) throw badRequest(`${at}.name: the environment "${environment.name}" is listed twice for the flag "${flag.name}".`);
      listed.set(environment.name, { ...environment, where: at });
    });
    let stage: LifecycleStageName = 'initial';
    for (const environment of current.has(flag.name) ? listed.keys() : project.environments) {
      const given = listed.get(environment);
      if (given) listedEnvironments.push({ featureName: flag.name, environment });
      const enabled = given?.enabled ?? false;
      if (enabled) stage = state.environmentTypes.get(environment) === 'production' ? 'live' : stage === 'live' ? 'live' : 'pre-live';
      environmentRows.push({ featureName: flag.name, environment, enabled, variants: normalizeVariants(given?.variants ?? [], `${given?.where}.variants`, project.defaultStickiness) });
      (given?.strategies ?? []).forEach((strategy, j) => {
        const at = `${given!.where}.strategies[${j}]`;
        if (!state.strategyNames.has(strategy.name)) throw badRequest(`${at}.name: no strategy named "${strategy.name}" exists.`);
        const id = strategy.id && !takenStrategyIds.has(strategy.id) ? strategy.id : randomUUID();
        takenStrategyIds.add(id);
        for (const segmentId of new Set(strategy.segments ?? [])) {
          const segment = state.segments.get(segmentId);
          if (!segment) throw badRequest(`${at}.segments: no segment with id ${segmentId} exists.`);
          if (segment.project !== null && segment.project !== flag.project) throw badRequest(`${at}.segments: the segment ${segmentId} belongs to the project "${segment.project}".`);
          segmentLinks.push({ strategyId: id, segmentId });
        }
        strategyRows.push({
          id,
          featureName: flag.name,
          environment,
          strategyName: strategy.name,
          title: strategy.title ?? null,
          disabled: strategy.disabled ?? false,
          sortOrder: strategy.sortOrder ?? j,
          parameters: prefixed(at, () => normalizeParameters(strategy.name, strategy.parameters, flag.name, project.defaultStickiness)),
          constraints: normalizeConstraints(strategy.constraints, `${at}.constraints`),
          variants: normalizeVariants(strategy.variants ?? [], `${at}.variants`, project.defaultStickiness),
          // Creation order breaks sortOrder ties: the document's order is kept.
          createdAt: new Date(started + order++),
        });
      });
    }
    (flag.tags ?? []).forEach((tag, k) => {
      if (!state.tagTypes.has(tag.type)) throw badRequest(`${where}.tags[${k}].type: no tag type named "${tag.type}" exists.`);
      tagRows.push({ type: tag.type, value: tag.value });
      flagTagRows.push({ featureName: flag.name, tagType: tag.type, tagValue: tag.value });
    });
    if (!current.has(flag.name)) {
      stageRows.push({ featureName: flag.name, stage: 'initial', createdAt });
      if (stage !== 'initial') stageRows.push({ featureName: flag.name, stage, createdAt });
      if (archivedAt) stageRows.push({ featureName: flag.name, stage: 'archived', createdAt: archivedAt });
    }
    const { environments: _, ...metadata } = flag;
    events.push({ type: 'feature-import', featureName: flag.name, project: flag.project!, data: metadata, tags: flag.tags ?? [] });
  }

  const dependencyRows = await checkedDependencies(tx, chosen);

  // Replaced flags: their listed environments, and their tags and parents when the document gives them, start over.
  const replacedRows = new Map(flagRows.filter((row) => current.has(row.name)).map((row) => [row.name, row]));
  const given = new Map(chosen.map((item) => [item.flag.name, item.flag]));
  for (const { name, createdBy: _by, createdByUserId: _id, createdAt, archivedAt, ...changes } of replacedRows.values()) {
    // Creation and archiving stay as they are unless the document says otherwise.
    const flag = given.get(name)!;
    const set = { ...changes, ...(flag.createdAt !== undefined && { createdAt }), ...(flag.archivedAt !== undefined && { archivedAt }) };
    await tx.update(t.features).set(set).where(eq(t.features.name, name));
  }
  const replacedByEnvironment = new Map<string, string[]>();
  for (const { featureName, environment } of listedEnvironments) {
    if (replacedRows.has(featureName)) replacedByEnvironment.set(environment, [...(replacedByEnvironment.get(environment) ?? []), featureName]);
  }
  for (const [environment, names] of replacedByEnvironment) {
    for (let start = 0; start < names.length; start += INSERT_BATCH) {
      const batch = names.slice(start, start + INSERT_BATCH);
      await tx.delete(t.featureStrategies).where(and(eq(t.featureStrategies.environment, environment), inArray(t.featureStrategies.featureName, batch)));
      await tx.delete(t.featureEnvironments).where(and(eq(t.featureEnvironments.environment, environment), inArray(t.featureEnvironments.featureName, batch)));
    }
  }
  const withTags = chosen.filter((item) => item.flag.tags !== undefined && current.has(item.flag.name)).map((item) => item.flag.name);
  if (withTags.length > 0) await tx.delete(t.featureTags).where(inArray(t.featureTags.featureName, withTags));
  const withParents = chosen.filter((item) => item.flag.dependencies !== undefined && current.has(item.flag.name)).map((item) => item.flag.name);
  if (withParents.length > 0) await tx.delete(t.featureDependencies).where(inArray(t.featureDependencies.child, withParents));

  await insertInBatches(tx, t.features, flagRows.filter((row) => !current.has(row.name)));
  await insertInBatches(tx, t.featureEnvironments, environmentRows);
  await insertInBatches(tx, t.featureStrategies, strategyRows);
  await insertInBatches(tx, t.featureStrategySegments, segmentLinks);
  await insertInBatches(tx, t.tags, tagRows);
  await insertInBatches(tx, t.featureTags, flagTagRows);
  await insertInBatches(tx, t.featureDependencies, dependencyRows);
  await insertInBatches(tx, t.featureLifecycles, stageRows);
  return { events };
}

/** The parents the document gives, checked as adding each would be: existing, active, same project, no cycle. */
async function checkedDependencies(tx: Db, chosen: PlacedFlag[]) {
  const flags = new Map((await tx.select({ name: t.features.name, project: t.features.project, archivedAt: t.features.archivedAt }).from(t.features)).map((f) => [f.name, f]));
  for (const { flag } of chosen) flags.set(flag.name, { name: flag.name, project: flag.project!, archivedAt: flag.archivedAt ? new Date(flag.archivedAt) : null });
  const parentsOf = new Map<string, string[]>();
  for (const d of await tx.select().from(t.featureDependencies)) parentsOf.set(d.child, [...(parentsOf.get(d.child) ?? []), d.parent]);
  for (const { flag } of chosen) if (flag.dependencies !== undefined) parentsOf.set(flag.name, []);
  const rows: (typeof t.featureDependencies.$inferInsert)[] = [];
  for (const { flag, where } of chosen) {
    (flag.dependencies ?? []).forEach((dependency, j) => {
      const at = `${where}.dependencies[${j}].feature`;
      const parent = flags.get(dependency.feature);
      if (!parent) throw badRequest(`${at}: no flag named "${dependency.feature}" exists.`);
      if (parent.archivedAt !== null) throw badRequest(`${at}: the parent flag "${parent.name}" is archived.`);
      if (parent.project !== flag.project) throw badRequest(`${at}: the parent flag "${parent.name}" is in another project ("${parent.project}").`);
      if (reaches(parentsOf, parent.name, flag.name)) throw badRequest(`${at}: making "${flag.name}" depend on "${parent.name}" would create a cycle.`);
      parentsOf.set(flag.name, [...(parentsOf.get(flag.name) ?? []), parent.name]);
      const enabled = dependency.enabled ?? true;
      rows.push({ child: flag.name, parent: parent.name, enabled, variants: enabled ? [...new Set(dependency.variants ?? [])] : [] });
    });
  }
  return rows;
}
