import { and, asc, eq } from 'drizzle-orm';
import { ulid } from 'ulid';
import type { Handlers } from '../domain/handler-context.js';
import * as t from '../db/schema.js';
import { conflict } from '../kernel/errors.js';
import { systemCaller } from '../shared/caller.js';
import { requireActiveFeature } from '../domain/flags/feature-view.js';
import { resolveTarget } from '../domain/flags/strategy-target.js';
import { requireProject } from '../domain/lookups.js';
import { startMilestone } from '../domain/release-plans/milestones.js';
import { pausePlanInTransaction, readReleasePlan, removePlan, requirePlan, resumePlanInTransaction } from '../domain/release-plans/plans.js';
import { writeMilestones } from '../domain/release-plans/templates.js';
import { describePlans, readTemplate } from '../domain/release-plans/view.js';

const d = t.releasePlanDefinitions;

export const releasePlanHandlers = {
  async getFeatureReleasePlans({ params }, { db }) {
    await requireProject(db, params.projectId);
    const flag = await requireActiveFeature(db, params.projectId, params.featureName);
    const rows = await db.select().from(d).where(and(eq(d.discriminator, 'plan'), eq(d.featureName, flag.name))).orderBy(asc(d.environment));
    return { status: 200, body: await describePlans(db, rows) };
  },

  async addReleasePlan({ params, body }, { change, caller }) {
    const plan = await change(async (tx, record) => {
      const target = await resolveTarget(tx, params);
      const template = await readTemplate(tx, body.templateId);
      const [existing] = await tx.select({ id: d.id }).from(d).where(and(eq(d.discriminator, 'plan'), eq(d.featureName, target.feature.name), eq(d.environment, target.environment)));
      if (existing) throw conflict(`The flag "${target.feature.name}" already has a release plan in the environment "${target.environment}"; remove it first.`);
      const id = ulid();
      await tx.insert(d).values({
        id,
        discriminator: 'plan',
        name: template.name,
        description: template.description ?? null,
        featureName: target.feature.name,
        environment: target.environment,
        templateId: template.id,
        createdByUserId: caller.userId ?? systemCaller.userId!,
      });
      const scope = { featureName: target.feature.name, project: target.feature.project, defaultStickiness: target.defaultStickiness };
      await writeMilestones(tx, id, template.milestones, scope);
      const added = (await readReleasePlan(tx, id))!;
      await record({ type: 'release-plan-added', featureName: target.feature.name, project: target.feature.project, environment: target.environment, data: added });
      return added;
    });
    return { status: 201, body: plan };
  },

  async deleteReleasePlan({ params, query }, { change }) {
    await change(async (tx, record) => {
      const target = await resolveTarget(tx, params);
      const row = await requirePlan(tx, target.feature.name, target.environment, params.planId);
      await removePlan(tx, record, row, query?.keepStrategies ?? true);
    });
    return { status: 204, body: undefined };
  },

  async startReleasePlanMilestone({ params }, { change }) {
    const plan = await change(async (tx, record) => {
      const target = await resolveTarget(tx, params);
      const row = await requirePlan(tx, target.feature.name, target.environment, params.planId);
      await startMilestone(tx, record, row, params.milestoneId);
      return (await readReleasePlan(tx, row.id))!;
    });
    return { status: 200, body: plan };
  },

  async pauseReleasePlan({ params }, { change }) {
    const plan = await change(async (tx, record) => {
      const target = await resolveTarget(tx, params);
      const row = await requirePlan(tx, target.feature.name, target.environment, params.planId);
      if (!(await pausePlanInTransaction(tx, record, row.id))) throw conflict('The plan has no running milestone to pause: start one first, or resume it if it is paused.');
      return (await readReleasePlan(tx, row.id))!;
    });
    return { status: 200, body: plan };
  },

  async resumeReleasePlan({ params }, { change }) {
    const plan = await change(async (tx, record) => {
      const target = await resolveTarget(tx, params);
      const row = await requirePlan(tx, target.feature.name, target.environment, params.planId);
      if (!(await resumePlanInTransaction(tx, record, row.id))) throw conflict('The plan is not paused; there is nothing to resume.');
      return (await readReleasePlan(tx, row.id))!;
    });
    return { status: 200, body: plan };
  },
} satisfies Partial<Handlers>;
