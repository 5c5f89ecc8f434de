// Safeguards of running release plans: every instance evaluates them each SAFEGUARD_INTERVAL_MS; one fires each (the
// safeguard's row locked), pausing its plan and, when its action says so, turning the flag off in the plan's environment.
import { and, eq, isNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import { systemCaller } from '../../shared/caller.js';
import { runPeriodically } from '../../kernel/periodic.js';
import type { EventLog, RecordEvent } from '../events/event-log.js';
import type { HandlerContext } from '../handler-context.js';
import { withinTransaction } from '../change-requests/actions.js';
import { impactMetricValue } from '../impact-metrics/query.js';
import { pausePlanInTransaction, readReleasePlan } from '../release-plans/plans.js';

type Condition = components['schemas']['SafeguardTriggerCondition'];
type Services = Omit<HandlerContext, 'db' | 'change' | 'caller' | 'log' | 'clientIp' | 'secureCookies'>;

const conditionHolds = (value: number, { operator, threshold }: Condition) => (operator === '>' ? value > threshold : value < threshold);

/** A safeguard that watches: its plan has an active milestone that is not paused, and it has not fired. */
async function watching(db: Db) {
  return db
    .select({
      safeguard: t.releasePlanSafeguards,
      planId: t.releasePlanDefinitions.id,
      featureName: t.releasePlanDefinitions.featureName,
      environment: t.releasePlanDefinitions.environment,
      project: t.features.project,
    })
    .from(t.releasePlanSafeguards)
    .innerJoin(t.releasePlanDefinitions, eq(t.releasePlanDefinitions.id, t.releasePlanSafeguards.planId))
    .innerJoin(t.releasePlanMilestones, eq(t.releasePlanMilestones.id, t.releasePlanDefinitions.activeMilestoneId))
    .innerJoin(t.features, eq(t.features.name, t.releasePlanDefinitions.featureName))
    .where(and(isNull(t.releasePlanSafeguards.triggeredAt), isNull(t.releasePlanMilestones.pausedAt), isNull(t.features.archivedAt)));
}

type Watched = Awaited<ReturnType<typeof watching>>[number];

/** Fires the safeguard unless another instance did: marks it, pauses the plan, turns the flag off if asked, records it. */
async function fire(tx: Db, record: RecordEvent, context: Omit<HandlerContext, 'db' | 'change'>, watched: Watched, value: number): Promise<boolean> {
  const [locked] = await tx
    .select({ id: t.releasePlanSafeguards.id })
    .from(t.releasePlanSafeguards)
    .where(and(eq(t.releasePlanSafeguards.id, watched.safeguard.id), isNull(t.releasePlanSafeguards.triggeredAt)))
    .for('update', { skipLocked: true });
  if (!locked) return false;
  const triggeredAt = new Date();
  await tx.update(t.releasePlanSafeguards).set({ triggeredAt, triggeredValue: value }).where(eq(t.releasePlanSafeguards.id, locked.id));
  const paused = await pausePlanInTransaction(tx, record, watched.planId);
  const { featureName, environment, project } = watched as Watched & { featureName: string; environment: string };
  const turnOff = watched.safeguard.actionType === 'disableFeatureEnvironment';
  if (turnOff) {
    await context.operations.disableFeatureEnvironment(
      { params: { projectId: project, featureName, environment }, body: undefined, query: undefined, headers: {} } as never,
      withinTransaction(context, tx, record),
    );
  }
  const plan = await readReleasePlan(tx, watched.planId);
  const { impactMetric, triggerCondition } = watched.safeguard;
  await record({
    type: 'safeguard-triggered',
    project,
    featureName,
    environment,
    data: {
      planId: watched.planId,
      planName: plan?.name,
      safeguardId: watched.safeguard.id,
      metricName: impactMetric.metricName,
      aggregationMode: impactMetric.aggregationMode,
      timeRange: impactMetric.timeRange,
      labelSelectors: impactMetric.labelSelectors,
      operator: triggerCondition.operator,
      threshold: triggerCondition.threshold,
      value,
      triggeredAt: triggeredAt.toISOString(),
      planPaused: paused,
      flagTurnedOff: turnOff,
    },
  });
  return true;
}

/** Evaluates every watching safeguard once; answers how many fired. */
export async function evaluateSafeguards(db: Db, events: EventLog, context: Omit<HandlerContext, 'db' | 'change'>): Promise<number> {
  let fired = 0;
  for (const watched of await watching(db)) {
    const value = await impactMetricValue(db, watched.safeguard.impactMetric);
    if (value === null || !conditionHolds(value, watched.safeguard.triggerCondition)) continue;
    if (await events.change(systemCaller, (tx, record) => fire(tx, record, context, watched, value))) {
      fired++;
      context.log.warn(
        { planId: watched.planId, safeguardId: watched.safeguard.id, featureName: watched.featureName, environment: watched.environment, value, threshold: watched.safeguard.triggerCondition.threshold },
        'a safeguard fired: its release plan is paused',
      );
    }
  }
  return fired;
}

/** Starts evaluating every `intervalMs`; answers how to stop (waiting for a round under way). */
export function startSafeguardWatch(db: Db, events: EventLog, services: Services, log: Logger, intervalMs: number): () => Promise<void> {
  const context = { ...services, caller: systemCaller, log, clientIp: '127.0.0.1', secureCookies: false };
  return runPeriodically(
    intervalMs,
    () => evaluateSafeguards(db, events, context),
    (error) => log.warn({ err: error }, 'safeguards: could not evaluate them; trying again shortly'),
  );
}
