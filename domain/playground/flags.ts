// The flags the playground evaluates, per environment: those of the client snapshot (as SDKs get them) with their
// strategies read from the database, so that each carries its id and title, and disabled ones are listed too.
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { strategyOrder } from '../../db/strategy-order.js';
import { clientFeature } from '../client-features/body.js';
import { byFlagName, type Snapshot } from '../client-features/snapshot.js';
import { badRequest } from '../../kernel/errors.js';
import { compileFlags, type CompiledFlags, type FeatureInput, type StrategyInput } from '../evaluation/index.js';

/** The flags of one environment, compiled twice: as SDKs evaluate them, and with only their disabled strategies. */
export interface EnvironmentFlags {
  environment: string;
  /** In name order. */
  names: string[];
  compiled: CompiledFlags;
  /** Each flag with its disabled strategies only, to explain their constraints without applying them. */
  disabled: CompiledFlags;
  /** Each strategy's place among its flag's strategies (disabled ones included), by id. */
  order: Map<string, number>;
}

/** 400 naming the first of `wanted` that `found` lacks. */
function requireAll(kind: string, wanted: readonly string[], found: readonly string[]) {
  const missing = wanted.find((name) => !found.includes(name));
  if (missing !== undefined) throw badRequest(`The ${kind} "${missing}" does not exist; name an existing one.`);
}

/** The environments exist, and the projects (null: every project). */
export async function requireScope(db: Db, environments: readonly string[], projects: readonly string[] | null): Promise<void> {
  const [envRows, projectRows] = await Promise.all([
    db.select({ name: t.environments.name }).from(t.environments).where(inArray(t.environments.name, [...environments])),
    projects?.length ? db.select({ id: t.projects.id }).from(t.projects).where(inArray(t.projects.id, [...projects])) : [],
  ]);
  requireAll('environment', environments, envRows.map((row) => row.name));
  if (projects) requireAll('project', projects, projectRows.map((row) => row.id));
}

type StrategyRow = typeof t.featureStrategies.$inferSelect & { segments: number[] };

/** Every strategy of the environments, in evaluation order, with its segment ids. */
async function strategiesOf(db: Db, environments: readonly string[]): Promise<StrategyRow[]> {
  const inEnvironments = inArray(t.featureStrategies.environment, [...environments]);
  const ids = db.select({ id: t.featureStrategies.id }).from(t.featureStrategies).where(inEnvironments);
  const [rows, links] = await Promise.all([
    db.select().from(t.featureStrategies).where(inEnvironments),
    db.select().from(t.featureStrategySegments).where(inArray(t.featureStrategySegments.strategyId, ids)),
  ]);
  const segments = new Map<string, number[]>();
  for (const link of links) segments.set(link.strategyId, [...(segments.get(link.strategyId) ?? []), link.segmentId]);
  return rows.map((row) => ({ ...row, segments: (segments.get(row.id) ?? []).sort((a, b) => a - b) })).sort(strategyOrder);
}

const strategyInput = (row: StrategyRow): StrategyInput => ({
  id: row.id,
  title: row.title,
  name: row.strategyName,
  parameters: row.parameters as Record<string, string>,
  constraints: row.constraints as StrategyInput['constraints'],
  variants: row.variants,
  segments: row.segments,
});

/** The flags of the projects (null: all) in each environment, ready to explain. */
export async function playgroundFlags(db: Db, snapshot: Snapshot, environments: readonly string[], projects: readonly string[] | null): Promise<EnvironmentFlags[]> {
  const flags = [...snapshot.flags.values()].filter((flag) => !projects || projects.includes(flag.project)).sort(byFlagName);
  const rows = await strategiesOf(db, environments);
  const segments = [...snapshot.segments.values()];
  return environments.map((environment) => {
    const byFlag = new Map<string, StrategyRow[]>();
    for (const row of rows) if (row.environment === environment) byFlag.set(row.featureName, [...(byFlag.get(row.featureName) ?? []), row]);
    const order = new Map<string, number>();
    const enabled: FeatureInput[] = [];
    const disabled: FeatureInput[] = [];
    for (const flag of flags) {
      const strategies = byFlag.get(flag.name) ?? [];
      strategies.forEach((row, i) => order.set(row.id, i));
      const served = clientFeature(flag, snapshot, environment, false);
      enabled.push({ ...served, strategies: strategies.filter((row) => !row.disabled).map(strategyInput) });
      const { dependencies: _dependencies, ...withoutParents } = served;
      disabled.push({ ...withoutParents, enabled: true, strategies: strategies.filter((row) => row.disabled).map(strategyInput) });
    }
    return { environment, names: flags.map((flag) => flag.name), compiled: compileFlags(enabled, segments), disabled: compileFlags(disabled, segments), order };
  });
}
