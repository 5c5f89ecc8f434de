// Starting a milestone: its strategies become the plan's strategies on the flag, served before the flag's own.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { notFound } from '../../kernel/errors.js';
import type { RecordEvent } from '../events/event-log.js';
import { linkSegments } from '../flags/strategy-values.js';
import { milestoneIdsOf, planEventScope, readReleasePlan, type PlanRow } from './plans.js';

/**
 * Replaces the strategies the plan's milestones serve with this milestone's, makes it the active one (started now,
 * not paused) and records `release-plan-milestone-started`. The plan's row must be locked (lockPlan).
 */
export async function startMilestone(tx: Db, record: RecordEvent, plan: PlanRow, milestoneId: string): Promise<void> {
  const [milestone] = await tx
    .select()
    .from(t.releasePlanMilestones)
    .where(and(eq(t.releasePlanMilestones.id, milestoneId), eq(t.releasePlanMilestones.definitionId, plan.id)));
  if (!milestone) throw notFound(`The release plan "${plan.id}" has no milestone with id "${milestoneId}".`);
  await tx.delete(t.featureStrategies).where(inArray(t.featureStrategies.milestoneId, await milestoneIdsOf(tx, plan.id)));
  const strategies = await tx
    .select()
    .from(t.releasePlanMilestoneStrategies)
    .where(eq(t.releasePlanMilestoneStrategies.milestoneId, milestoneId))
    .orderBy(asc(t.releasePlanMilestoneStrategies.sortOrder));
  for (const s of strategies) {
    const id = randomUUID();
    await tx.insert(t.featureStrategies).values({
      id,
      featureName: plan.featureName!,
      environment: plan.environment!,
      strategyName: s.strategyName,
      title: s.title,
      disabled: s.disabled ?? false,
      sortOrder: s.sortOrder,
      parameters: s.parameters,
      constraints: s.constraints,
      variants: s.variants,
      milestoneId,
    });
    await linkSegments(tx, id, s.segments);
  }
  await tx
    .update(t.releasePlanMilestones)
    .set({ startedAt: new Date(), pausedAt: null, progressionExecutedAt: null })
    .where(eq(t.releasePlanMilestones.id, milestoneId));
  await tx.update(t.releasePlanDefinitions).set({ activeMilestoneId: milestoneId }).where(eq(t.releasePlanDefinitions.id, plan.id));
  await record({ type: 'release-plan-milestone-started', ...(await planEventScope(tx, plan)), data: (await readReleasePlan(tx, plan.id))! });
}

/** The milestone after the given one in its plan, if any. */
export async function nextMilestone(tx: Db, planId: string, sortOrder: number) {
  const [next] = await tx
    .select()
    .from(t.releasePlanMilestones)
    .where(and(eq(t.releasePlanMilestones.definitionId, planId), gt(t.releasePlanMilestones.sortOrder, sortOrder)))
    .orderBy(asc(t.releasePlanMilestones.sortOrder))
    .limit(1);
  return next;
}
