// A release plan's state changes that are not a milestone start: read, pause, resume, remove. Each locks the plan's row
// first, so that they, a milestone start and the automatic progression happen one after another.
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import type { RecordEvent } from '../events/event-log.js';
import { notFound } from '../../kernel/errors.js';
import { describePlans, planRow } from './view.js';

type ReleasePlan = components['schemas']['ReleasePlan'];
export type PlanRow = typeof t.releasePlanDefinitions.$inferSelect;

/** The plan as the contract's ReleasePlan; undefined when no plan has that id. */
export async function readReleasePlan(db: Db, planId: string): Promise<ReleasePlan | undefined> {
  const row = await planRow(db, planId);
  if (!row) return undefined;
  const [plan] = await describePlans(db, [row]);
  return plan;
}

/** The plan's row, locked until the transaction ends. */
export async function lockPlan(tx: Db, planId: string): Promise<PlanRow | undefined> {
  const [row] = await tx
    .select()
    .from(t.releasePlanDefinitions)
    .where(and(eq(t.releasePlanDefinitions.id, planId), eq(t.releasePlanDefinitions.discriminator, 'plan')))
    .for('update');
  return row;
}

/** What an event about the plan names: its flag, the flag's project, its environment. */
export async function planEventScope(tx: Db, row: PlanRow) {
  const [flag] = await tx.select({ project: t.features.project }).from(t.features).where(eq(t.features.name, row.featureName!));
  return { featureName: row.featureName, environment: row.environment, project: flag?.project ?? null };
}

async function activeMilestone(tx: Db, row: PlanRow) {
  if (!row.activeMilestoneId) return undefined;
  const [milestone] = await tx.select().from(t.releasePlanMilestones).where(eq(t.releasePlanMilestones.id, row.activeMilestoneId));
  return milestone;
}

/**
 * Pauses the plan's progression at its active milestone and records `release-plan-progressions-paused`; false (and
 * nothing done) when no milestone is active or it is paused already.
 */
export async function pausePlanInTransaction(tx: Db, record: RecordEvent, planId: string): Promise<boolean> {
  const row = await lockPlan(tx, planId);
  const milestone = row && (await activeMilestone(tx, row));
  if (!row || !milestone || milestone.pausedAt !== null) return false;
  await tx.update(t.releasePlanMilestones).set({ pausedAt: new Date() }).where(eq(t.releasePlanMilestones.id, milestone.id));
  await record({ type: 'release-plan-progressions-paused', ...(await planEventScope(tx, row)), data: (await readReleasePlan(tx, planId))! });
  return true;
}

/**
 * Resumes a paused plan: the active milestone's start moves on by the time it was paused, and every safeguard of the
 * plan watches again. Records `release-plan-progressions-resumed`; false when the plan is not paused.
 */
export async function resumePlanInTransaction(tx: Db, record: RecordEvent, planId: string): Promise<boolean> {
  // Safeguards before the plan: the order in which a firing safeguard locks them.
  await tx.update(t.releasePlanSafeguards).set({ triggeredAt: null, triggeredValue: null }).where(eq(t.releasePlanSafeguards.planId, planId));
  const row = await lockPlan(tx, planId);
  const milestone = row && (await activeMilestone(tx, row));
  if (!row || !milestone?.pausedAt) return false;
  const now = new Date();
  const startedAt = new Date((milestone.startedAt ?? milestone.pausedAt).getTime() + (now.getTime() - milestone.pausedAt.getTime()));
  await tx.update(t.releasePlanMilestones).set({ pausedAt: null, startedAt }).where(eq(t.releasePlanMilestones.id, milestone.id));
  await record({ type: 'release-plan-progressions-resumed', ...(await planEventScope(tx, row)), data: (await readReleasePlan(tx, planId))! });
  return true;
}

/** The ids of the plan's milestones. */
export async function milestoneIdsOf(tx: Db, planId: string): Promise<string[]> {
  const rows = await tx.select({ id: t.releasePlanMilestones.id }).from(t.releasePlanMilestones).where(eq(t.releasePlanMilestones.definitionId, planId));
  return rows.map((r) => r.id);
}

/**
 * Removes the plan; the strategies its milestones serve stay as the flag's own (`keepStrategies`) or go with it.
 * Records `release-plan-removed`.
 */
export async function removePlan(tx: Db, record: RecordEvent, row: PlanRow, keepStrategies: boolean): Promise<void> {
  const before = (await readReleasePlan(tx, row.id))!;
  const milestones = await milestoneIdsOf(tx, row.id);
  if (milestones.length > 0) {
    const linked = inArray(t.featureStrategies.milestoneId, milestones);
    if (keepStrategies) await tx.update(t.featureStrategies).set({ milestoneId: null }).where(linked);
    else await tx.delete(t.featureStrategies).where(linked);
  }
  await tx.delete(t.releasePlanDefinitions).where(eq(t.releasePlanDefinitions.id, row.id));
  await record({ type: 'release-plan-removed', ...(await planEventScope(tx, row)), preData: before });
}

/** The plan of the flag in the environment (its row locked); 404 when the flag has no plan with that id there. */
export async function requirePlan(tx: Db, featureName: string, environment: string, planId: string): Promise<PlanRow> {
  const row = await lockPlan(tx, planId);
  if (!row || row.featureName !== featureName || row.environment !== environment) {
    throw notFound(`The flag "${featureName}" has no release plan with id "${planId}" in the environment "${environment}".`);
  }
  return row;
}
