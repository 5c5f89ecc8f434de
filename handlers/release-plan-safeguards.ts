import { and, eq } from 'drizzle-orm';
import { ulid } from 'ulid';
import type { components } from '../generated/api.js';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { notFound } from '../kernel/errors.js';
import { resolveTarget } from '../domain/flags/strategy-target.js';
import { planEventScope, requirePlan } from '../domain/release-plans/plans.js';
import { describeSafeguard } from '../domain/release-plans/view.js';

const s = t.releasePlanSafeguards;
type PathOfPlan = { projectId: string; featureName: string; environment: string; planId: string };

async function planOf(tx: Db, params: PathOfPlan) {
  const target = await resolveTarget(tx, params);
  return requirePlan(tx, target.feature.name, target.environment, params.planId);
}

async function requireSafeguard(tx: Db, planId: string, id: string) {
  const [row] = await tx.select().from(s).where(and(eq(s.id, id), eq(s.planId, planId)));
  if (!row) throw notFound(`The release plan "${planId}" has no safeguard with id "${id}".`);
  return row;
}

/** The stored columns of a safeguard: a metric id given here, an action that pauses the plan unless it says otherwise. */
const columnsOf = (body: components['schemas']['UpsertSafeguard'], metricId: string) => ({
  actionType: body.action?.type ?? 'pauseReleasePlanProgressions',
  triggerCondition: body.triggerCondition,
  impactMetric: { ...body.impactMetric, id: metricId, source: 'internal' as const },
  triggeredAt: null,
  triggeredValue: null,
});

export const releasePlanSafeguardHandlers = {
  async createReleasePlanSafeguard({ params, body }, { change }) {
    const safeguard = await change(async (tx, record) => {
      const plan = await planOf(tx, params);
      const [row] = await tx.insert(s).values({ id: ulid(), planId: plan.id, ...columnsOf(body, ulid()) }).returning();
      const created = describeSafeguard(row!);
      await record({ type: 'safeguard-changed', ...(await planEventScope(tx, plan)), data: created });
      return created;
    });
    return { status: 201, body: safeguard };
  },

  async updateReleasePlanSafeguard({ params, body }, { change }) {
    const safeguard = await change(async (tx, record) => {
      const plan = await planOf(tx, params);
      const before = await requireSafeguard(tx, plan.id, params.safeguardId);
      const [row] = await tx.update(s).set(columnsOf(body, before.impactMetric.id ?? ulid())).where(eq(s.id, before.id)).returning();
      const after = describeSafeguard(row!);
      await record({ type: 'safeguard-changed', ...(await planEventScope(tx, plan)), data: after, preData: describeSafeguard(before) });
      return after;
    });
    return { status: 200, body: safeguard };
  },

  async deleteReleasePlanSafeguard({ params }, { change }) {
    await change(async (tx, record) => {
      const plan = await planOf(tx, params);
      const before = await requireSafeguard(tx, plan.id, params.safeguardId);
      await tx.delete(s).where(eq(s.id, before.id));
      await record({ type: 'safeguard-deleted', ...(await planEventScope(tx, plan)), preData: describeSafeguard(before) });
    });
    return { status: 204, body: undefined };
  },
} satisfies Partial<Handlers>;
