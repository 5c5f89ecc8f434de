// Automatic progression: every instance looks for active milestones whose time has passed; one hands each over to the
// next milestone (the plan's row locked, the milestone marked), so it happens once however many instances look.
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { releaseConfig, type AppConfig } from '../../kernel/config.js';
import { runPeriodically } from '../../kernel/periodic.js';
import { systemCaller } from '../../shared/caller.js';
import { changeRequestEnvironments } from '../change-requests/guard.js';
import type { EventLog } from '../events/event-log.js';
import { nextMilestone, startMilestone } from './milestones.js';
import { proposeForReview } from '../change-requests/propose.js';

const m = t.releasePlanMilestones;
const p = t.releasePlanDefinitions;

/** Whether the active milestone's time (not counting a pause) has passed at `now`. */
const isDue = (milestone: typeof m.$inferSelect, now: Date) =>
  milestone.startedAt !== null &&
  milestone.pausedAt === null &&
  milestone.progressionExecutedAt === null &&
  milestone.transitionCondition !== null &&
  milestone.startedAt.getTime() + milestone.transitionCondition.intervalMinutes * 60_000 <= now.getTime();

/** Active, running milestones of plans on active flags whose time has passed, and that a milestone follows. */
async function dueMilestones(db: Db, now: Date) {
  return db
    .select({ planId: p.id, milestoneId: m.id })
    .from(m)
    .innerJoin(p, eq(p.activeMilestoneId, m.id))
    .innerJoin(t.features, and(eq(t.features.name, p.featureName), isNull(t.features.archivedAt)))
    .where(
      and(
        isNotNull(m.startedAt),
        isNull(m.pausedAt),
        isNull(m.progressionExecutedAt),
        isNotNull(m.transitionCondition),
        sql`${m.startedAt} + (${m.transitionCondition}->>'intervalMinutes')::float8 * interval '1 minute' <= ${now.toISOString()}::timestamptz`,
        sql`exists (select 1 from release_plan_milestones next where next.definition_id = ${m.definitionId} and next.sort_order > ${m.sortOrder})`,
      ),
    );
}

type Outcome = 'started' | 'skipped' | 'proposed';

/** Hands the milestone over to the next one, unless another instance is at it, it changed meanwhile, or it is the last. */
async function handOver(db: Db, events: EventLog, log: Logger, planId: string, milestoneId: string): Promise<Outcome> {
  return events.change(systemCaller, async (tx, record) => {
    const [plan] = await tx.select().from(p).where(eq(p.id, planId)).for('update', { skipLocked: true });
    if (!plan || plan.activeMilestoneId !== milestoneId) return 'skipped';
    const [milestone] = await tx.select().from(m).where(eq(m.id, milestoneId));
    const now = new Date();
    if (!milestone || !isDue(milestone, now)) return 'skipped';
    const next = await nextMilestone(tx, planId, milestone.sortOrder);
    if (!next) return 'skipped';
    const [flag] = await tx.select({ project: t.features.project }).from(t.features).where(eq(t.features.name, plan.featureName!));
    await tx.update(m).set({ progressionExecutedAt: now }).where(eq(m.id, milestoneId));
    if (flag && (await changeRequestEnvironments(tx, flag.project)).has(plan.environment!)) {
      const changeRequestId = await proposeForReview(tx, record, {
        project: flag.project,
        environment: plan.environment!,
        authorId: plan.createdByUserId,
        title: `Release plan "${plan.name}": start the milestone "${next.name}"`,
        feature: plan.featureName!,
        action: 'startMilestone',
        payload: { planId, milestoneId: next.id },
      });
      log.info({ planId, milestoneId: next.id, changeRequestId }, 'release plan: the next milestone is due where change requests are required; proposed for review');
      return 'proposed';
    }
    await startMilestone(tx, record, plan, next.id);
    return 'started';
  });
}

/** Looks for due milestones every RELEASE_PLAN_INTERVAL_MS; answers how to stop (waiting for a round under way). */
export function startReleaseProgression(db: Db, events: EventLog, log: Logger, config: AppConfig): () => Promise<void> {
  const round = async () => {
    for (const due of await dueMilestones(db, new Date())) await handOver(db, events, log, due.planId, due.milestoneId);
  };
  return runPeriodically(releaseConfig(config).progressionPollMs, round, (error) => log.warn({ err: error }, 'release plans: could not hand over due milestones; trying again shortly'));
}
