// Release templates, plans and safeguards read in the contract's shapes.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import { notFound } from '../../kernel/errors.js';

type Schemas = components['schemas'];
type DefinitionRow = typeof t.releasePlanDefinitions.$inferSelect;
type MilestoneRow = typeof t.releasePlanMilestones.$inferSelect;
type SafeguardRow = typeof t.releasePlanSafeguards.$inferSelect;

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The milestones of the definitions, in order, with their strategies. */
async function milestonesOf(db: Db, definitionIds: string[]): Promise<Map<string, Schemas['ReleasePlanMilestone'][]>> {
  const byDefinition = new Map<string, Schemas['ReleasePlanMilestone'][]>(definitionIds.map((id) => [id, []]));
  if (definitionIds.length === 0) return byDefinition;
  const milestones = await db
    .select()
    .from(t.releasePlanMilestones)
    .where(inArray(t.releasePlanMilestones.definitionId, definitionIds))
    .orderBy(asc(t.releasePlanMilestones.sortOrder));
  const strategies = milestones.length
    ? await db
        .select()
        .from(t.releasePlanMilestoneStrategies)
        .where(inArray(t.releasePlanMilestoneStrategies.milestoneId, milestones.map((m) => m.id)))
        .orderBy(asc(t.releasePlanMilestoneStrategies.sortOrder))
    : [];
  for (const m of milestones) {
    byDefinition.get(m.definitionId)!.push({
      ...describeMilestone(m),
      strategies: strategies
        .filter((s) => s.milestoneId === m.id)
        .map((s) => ({
          id: s.id,
          milestoneId: s.milestoneId,
          sortOrder: s.sortOrder,
          title: s.title,
          name: s.strategyName,
          strategyName: s.strategyName,
          parameters: s.parameters,
          constraints: s.constraints,
          variants: s.variants,
          segments: s.segments,
          disabled: s.disabled,
        })),
    });
  }
  return byDefinition;
}

const describeMilestone = (m: MilestoneRow) => ({
  id: m.id,
  name: m.name,
  sortOrder: m.sortOrder,
  releasePlanDefinitionId: m.definitionId,
  transitionCondition: m.transitionCondition,
  startedAt: iso(m.startedAt),
  pausedAt: iso(m.pausedAt),
  progressionExecutedAt: iso(m.progressionExecutedAt),
});

export const describeSafeguard = (row: SafeguardRow): Schemas['ReleasePlanSafeguard'] => ({
  id: row.id,
  action: { type: row.actionType, id: row.planId },
  triggerCondition: row.triggerCondition,
  impactMetric: row.impactMetric,
  triggeredAt: iso(row.triggeredAt),
  triggeredValue: row.triggeredValue,
});

export async function describeTemplates(db: Db, rows: DefinitionRow[]): Promise<Schemas['ReleasePlanTemplate'][]> {
  const milestones = await milestonesOf(db, rows.map((r) => r.id));
  return rows.map((row) => ({
    id: row.id,
    discriminator: 'template',
    name: row.name,
    description: row.description,
    project: null,
    createdByUserId: row.createdByUserId,
    createdAt: row.createdAt.toISOString(),
    milestones: milestones.get(row.id)!,
    archivedAt: iso(row.archivedAt),
  }));
}

export async function describePlans(db: Db, rows: DefinitionRow[]): Promise<Schemas['ReleasePlan'][]> {
  const ids = rows.map((r) => r.id);
  const [milestones, safeguards] = await Promise.all([
    milestonesOf(db, ids),
    ids.length ? db.select().from(t.releasePlanSafeguards).where(inArray(t.releasePlanSafeguards.planId, ids)).orderBy(asc(t.releasePlanSafeguards.createdAt), asc(t.releasePlanSafeguards.id)) : [],
  ]);
  return rows.map((row) => ({
    id: row.id,
    discriminator: 'plan',
    name: row.name,
    description: row.description,
    featureName: row.featureName!,
    environment: row.environment!,
    createdByUserId: row.createdByUserId,
    createdAt: row.createdAt.toISOString(),
    activeMilestoneId: row.activeMilestoneId,
    milestones: milestones.get(row.id)!,
    releasePlanTemplateId: row.templateId ?? '',
    safeguards: safeguards.filter((s) => s.planId === row.id).map(describeSafeguard),
  }));
}

export async function requireTemplate(db: Db, id: string) {
  const [row] = await db
    .select()
    .from(t.releasePlanDefinitions)
    .where(and(eq(t.releasePlanDefinitions.id, id), eq(t.releasePlanDefinitions.discriminator, 'template')));
  if (!row) throw notFound(`No release template with id "${id}" exists.`);
  return row;
}

export async function readTemplate(db: Db, id: string): Promise<Schemas['ReleasePlanTemplate']> {
  const [template] = await describeTemplates(db, [await requireTemplate(db, id)]);
  return template!;
}

export async function planRow(db: Db, id: string): Promise<DefinitionRow | undefined> {
  const [row] = await db
    .select()
    .from(t.releasePlanDefinitions)
    .where(and(eq(t.releasePlanDefinitions.id, id), eq(t.releasePlanDefinitions.discriminator, 'plan')));
  return row;
}
