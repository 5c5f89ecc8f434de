// A strategy input checked against every rule (definition, parameters, constraints, variants, segments) and turned into
// the columns it is stored with: for a flag's own strategies and for a release template's.
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import { badRequest } from '../../kernel/errors.js';
import { normalizeConstraints, normalizeParameters, normalizeVariants } from './strategy-rules.js';

type StrategyInput = Pick<components['schemas']['CreateFeatureStrategy'], 'name' | 'title' | 'disabled' | 'parameters' | 'constraints' | 'variants' | 'segments'>;

/** Where a strategy is used: a flag of a project, or (both null) a template that any project's flag may use. */
export interface StrategyScope {
  featureName: string | null;
  project: string | null;
  defaultStickiness: string;
}

/** The strategy columns for an input, with every rule checked; `where` prefixes the field names in messages. */
export async function strategyValues(db: Db, scope: StrategyScope, input: StrategyInput, where = '') {
  const [definition] = await db.select().from(t.strategies).where(eq(t.strategies.name, input.name));
  if (!definition) throw badRequest(`${where}name: no strategy named "${input.name}" exists.`);
  const segmentIds = [...new Set(input.segments ?? [])];
  if (segmentIds.length > 0) {
    const found = await db.select().from(t.segments).where(inArray(t.segments.id, segmentIds));
    const missing = segmentIds.find((id) => !found.some((s) => s.id === id));
    if (missing !== undefined) throw badRequest(`${where}segments: no segment with id ${missing} exists.`);
    const foreign = scope.project === null ? undefined : found.find((s) => s.project !== null && s.project !== scope.project);
    if (foreign) throw badRequest(`${where}segments: the segment "${foreign.name}" belongs to the project "${foreign.project}".`);
  }
  return {
    columns: {
      strategyName: input.name,
      title: input.title ?? null,
      disabled: input.disabled ?? false,
      parameters: normalizeParameters(input.name, input.parameters, scope.featureName, scope.defaultStickiness),
      constraints: normalizeConstraints(input.constraints, `${where}constraints`),
      variants: normalizeVariants(input.variants ?? [], `${where}variants`, scope.defaultStickiness),
    },
    segmentIds,
  };
}

/** Replaces the segments a flag strategy is linked to. */
export async function linkSegments(tx: Db, strategyId: string, segmentIds: number[]) {
  await tx.delete(t.featureStrategySegments).where(eq(t.featureStrategySegments.strategyId, strategyId));
  if (segmentIds.length > 0) await tx.insert(t.featureStrategySegments).values(segmentIds.map((segmentId) => ({ strategyId, segmentId })));
}
