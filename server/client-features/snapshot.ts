// Everything the client API serves, read from the database in one consistent pass.
import { inArray, isNull, max } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';

export type ClientConstraint = components['schemas']['ClientConstraint'];
type StrategyVariant = components['schemas']['StrategyVariant'];
type Variant = components['schemas']['Variant'];

export interface ClientStrategy {
  name: string;
  constraints: ClientConstraint[];
  parameters: Record<string, string>;
  variants: StrategyVariant[];
  segments: number[];
}

export interface FlagInEnvironment {
  enabled: boolean;
  strategies: ClientStrategy[];
  variants: Variant[];
}

export interface FlagRecord {
  name: string;
  project: string;
  type: string;
  description: string | null;
  stale: boolean;
  impressionData: boolean;
  /** `type:value` of each tag. */
  tags: Set<string>;
  environments: Map<string, FlagInEnvironment>;
  dependencies: { feature: string; enabled: boolean; variants?: string[] }[];
}

export interface ClientSegment {
  id: number;
  name: string;
  constraints: ClientConstraint[];
}

export interface Snapshot {
  /** The highest event id when the snapshot was read. */
  revision: number;
  /** Active flags, by name. */
  flags: FlagRecord[];
  segments: Map<number, ClientSegment>;
}

const byOrder = (a: { sortOrder: number; createdAt: Date; id: string }, b: { sortOrder: number; createdAt: Date; id: string }) =>
  a.sortOrder - b.sortOrder || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);

/** Reads the snapshot in one repeatable-read transaction, in a fixed number of queries. */
export async function readSnapshot(db: Db): Promise<Snapshot> {
  return db.transaction(
    async (tx) => {
      const [revisionRow] = await tx.select({ id: max(t.events.id) }).from(t.events);
      const active = tx.select({ name: t.features.name }).from(t.features).where(isNull(t.features.archivedAt));
      const [features, states, strategies, links, segments, dependencies, tags] = await Promise.all([
        tx.select().from(t.features).where(isNull(t.features.archivedAt)),
        tx.select().from(t.featureEnvironments).where(inArray(t.featureEnvironments.featureName, active)),
        tx.select().from(t.featureStrategies).where(inArray(t.featureStrategies.featureName, active)),
        tx.select().from(t.featureStrategySegments),
        tx.select().from(t.segments),
        tx.select().from(t.featureDependencies).where(inArray(t.featureDependencies.child, active)),
        tx.select().from(t.featureTags).where(inArray(t.featureTags.featureName, active)),
      ]);
      const segmentsOf = new Map<string, number[]>();
      for (const link of links) segmentsOf.set(link.strategyId, [...(segmentsOf.get(link.strategyId) ?? []), link.segmentId]);

      const records = new Map<string, FlagRecord>();
      for (const f of features.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        records.set(f.name, {
          name: f.name,
          project: f.project,
          type: f.type,
          description: f.description,
          stale: f.stale,
          impressionData: f.impressionData,
          tags: new Set(),
          environments: new Map(),
          dependencies: [],
        });
      }
      for (const state of states) {
        records.get(state.featureName)?.environments.set(state.environment, {
          enabled: state.enabled,
          strategies: [],
          variants: state.variants as Variant[],
        });
      }
      for (const s of strategies.filter((s) => !s.disabled).sort(byOrder)) {
        records.get(s.featureName)?.environments.get(s.environment)?.strategies.push({
          name: s.strategyName,
          constraints: s.constraints as ClientConstraint[],
          parameters: s.parameters as Record<string, string>,
          variants: s.variants as StrategyVariant[],
          segments: (segmentsOf.get(s.id) ?? []).sort((a, b) => a - b),
        });
      }
      for (const d of dependencies) {
        records.get(d.child)?.dependencies.push({ feature: d.parent, enabled: d.enabled, ...(d.enabled && d.variants.length > 0 && { variants: d.variants }) });
      }
      for (const tag of tags) records.get(tag.featureName)?.tags.add(`${tag.tagType}:${tag.tagValue}`);

      return {
        revision: Number(revisionRow?.id ?? 0),
        flags: [...records.values()],
        segments: new Map(segments.map((s) => [s.id, { id: s.id, name: s.name, constraints: s.constraints as ClientConstraint[] }])),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

