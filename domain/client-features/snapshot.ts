// Everything the client API serves, read from the database in one consistent pass.
import { and, inArray, isNull, max } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { strategyOrder } from '../../db/strategy-order.js';
import type { components } from '../../generated/api.js';
import { StringPool } from '../../kernel/string-pool.js';

export type ClientConstraint = components['schemas']['ClientConstraint'];
type ClientFeature = components['schemas']['ClientFeature'];
type Variant = components['schemas']['Variant'];

/** A strategy as SDKs get it, with the ids of its segments always listed (inlined later for older SDKs). */
export type ClientStrategy = Required<components['schemas']['ClientStrategy']>;

export interface FlagInEnvironment {
  enabled: boolean;
  strategies: ClientStrategy[];
  variants: Variant[];
}

/** A flag with what every environment serves: the fields SDKs get, plus what filters and shapes need. */
export interface FlagRecord extends Pick<ClientFeature, 'name' | 'project' | 'type' | 'description' | 'stale' | 'impressionData'> {
  /** `type:value` of each tag. */
  tags: Set<string>;
  environments: Map<string, FlagInEnvironment>;
  dependencies: components['schemas']['Dependency'][];
}

export type ClientSegment = components['schemas']['ClientSegment'];

export interface Snapshot {
  /** The highest event id when the snapshot was read. */
  revision: number;
  /** Active flags by name; updated in place when a few of them change. */
  flags: Map<string, FlagRecord>;
  segments: Map<number, ClientSegment>;
}

/** Flags in name order: the order SDKs get them in, the same on every replica. */
export const byFlagName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The active flags among `names` (all of them when null) in the client shape, in a fixed number of
 * queries whatever their number.
 */
async function readFlags(tx: Db, names: string[] | null): Promise<FlagRecord[]> {
  const active = tx
    .select({ name: t.features.name })
    .from(t.features)
    .where(names ? and(isNull(t.features.archivedAt), inArray(t.features.name, names)) : isNull(t.features.archivedAt));
  const strategyIds = tx.select({ id: t.featureStrategies.id }).from(t.featureStrategies).where(inArray(t.featureStrategies.featureName, active));
  const [features, states, strategies, links, dependencies, tags] = await Promise.all([
    tx.select().from(t.features).where(inArray(t.features.name, active)),
    tx.select().from(t.featureEnvironments).where(inArray(t.featureEnvironments.featureName, active)),
    tx.select().from(t.featureStrategies).where(inArray(t.featureStrategies.featureName, active)),
    names ? tx.select().from(t.featureStrategySegments).where(inArray(t.featureStrategySegments.strategyId, strategyIds)) : tx.select().from(t.featureStrategySegments),
    tx.select().from(t.featureDependencies).where(inArray(t.featureDependencies.child, active)),
    tx.select().from(t.featureTags).where(inArray(t.featureTags.featureName, active)),
  ]);
  const segmentsOf = new Map<string, number[]>();
  for (const link of links) segmentsOf.set(link.strategyId, [...(segmentsOf.get(link.strategyId) ?? []), link.segmentId]);

  const pool = new StringPool();
  const records = new Map<string, FlagRecord>();
  for (const f of features.sort(byFlagName)) {
    records.set(f.name, {
      name: f.name,
      project: pool.of(f.project),
      type: pool.of(f.type),
      description: f.description,
      stale: f.stale,
      impressionData: f.impressionData,
      tags: new Set(),
      environments: new Map(),
      dependencies: [],
    });
  }
  for (const state of states) {
    records.get(state.featureName)?.environments.set(pool.of(state.environment), {
      enabled: state.enabled,
      strategies: [],
      variants: pool.within(state.variants),
    });
  }
  for (const s of strategies.filter((s) => !s.disabled).sort(strategyOrder)) {
    records.get(s.featureName)?.environments.get(s.environment)?.strategies.push({
      name: pool.of(s.strategyName),
      constraints: pool.within(s.constraints),
      parameters: pool.within(s.parameters),
      variants: pool.within(s.variants),
      segments: (segmentsOf.get(s.id) ?? []).sort((a, b) => a - b),
    });
  }
  for (const d of dependencies) {
    records.get(d.child)?.dependencies.push({ feature: d.parent, enabled: d.enabled, ...(d.enabled && d.variants.length > 0 && { variants: pool.within(d.variants) }) });
  }
  for (const tag of tags) records.get(tag.featureName)?.tags.add(pool.of(`${tag.tagType}:${tag.tagValue}`));
  return [...records.values()];
}

const readOnly = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

async function revisionOf(tx: Db): Promise<number> {
  const [row] = await tx.select({ id: max(t.events.id) }).from(t.events);
  return Number(row?.id ?? 0);
}

/** Everything, in one repeatable-read transaction. */
export async function readSnapshot(db: Db): Promise<Snapshot> {
  return db.transaction(async (tx) => {
    const [revision, flags, segments] = await Promise.all([revisionOf(tx as Db), readFlags(tx as Db, null), tx.select().from(t.segments)]);
    return {
      revision,
      flags: new Map(flags.map((flag) => [flag.name, flag])),
      segments: new Map(segments.map((s) => [s.id, { id: s.id, name: s.name, constraints: s.constraints }])),
    };
  }, readOnly);
}

/**
 * `previous` with the named flags read again: what a change to a few flags costs instead of a full read.
 * Children of a changed flag are read again too, since deleting a parent removes their dependency. The
 * flags are replaced in place, in one synchronous step once the read is done, so no reader sees half of it.
 */
export async function readChangedFlags(db: Db, previous: Snapshot, changed: Set<string>): Promise<Snapshot> {
  const names = new Set(changed);
  for (const flag of previous.flags.values()) if (flag.dependencies.some((d) => changed.has(d.feature))) names.add(flag.name);
  const [revision, fresh] = await db.transaction(
    async (tx) => Promise.all([revisionOf(tx as Db), readFlags(tx as Db, [...names])]),
    readOnly,
  );
  for (const name of names) previous.flags.delete(name);
  for (const flag of fresh) previous.flags.set(flag.name, flag);
  return { revision, flags: previous.flags, segments: previous.segments };
}

