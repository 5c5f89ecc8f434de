// Release templates and plans made and driven through the admin API, as the admin of the app `current()` returns.
import { expect } from 'vitest';
import type { components, ServiceClient } from '../../client/index.js';
import type { TestApp } from './app.js';
import { ok } from './fixtures.js';

type Schemas = components['schemas'];
export type TemplateMilestone = Schemas['UpsertReleasePlanTemplate']['milestones'][number];

/** A milestone whose one strategy is on for the users listed (distinct per milestone, so that an SDK tells them apart). */
export const milestoneFor = (name: string, users: string[], intervalMinutes?: number): TemplateMilestone => ({
  name,
  ...(intervalMinutes !== undefined && { transitionCondition: { intervalMinutes } }),
  strategies: [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: users }] }],
});

/** Three milestones, on for `m1`, `m2`, then `m3`; the first two hand over after `intervalMinutes`. */
export const threeSteps = (intervalMinutes?: number) => [
  milestoneFor('first', ['m1'], intervalMinutes),
  milestoneFor('second', ['m2'], intervalMinutes),
  milestoneFor('third', ['m3']),
];

export interface PlanPlace {
  projectId?: string;
  featureName: string;
  environment?: string;
}

const placeOf = ({ projectId = 'default', featureName, environment = 'development' }: PlanPlace) => ({ projectId, featureName, environment });

export function releasePlans(current: () => TestApp, unique: (prefix: string) => string) {
  const admin = () => current().admin;

  async function createTemplate(milestones: TemplateMilestone[], name = unique('template'), client: ServiceClient = admin()) {
    return ok(client.POST('/api/admin/release-plan-templates', { body: { name, milestones } }), 201);
  }

  async function addPlan(place: PlanPlace, templateId: string) {
    return ok(admin().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans', { params: { path: placeOf(place) }, body: { templateId } }), 201);
  }

  const planPath = (place: PlanPlace, planId: string) => ({ params: { path: { ...placeOf(place), planId } } });

  const start = (place: PlanPlace, planId: string, milestoneId: string, client: ServiceClient = admin()) =>
    client.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/milestones/{milestoneId}/start', {
      params: { path: { ...placeOf(place), planId, milestoneId } },
    });

  const pause = (place: PlanPlace, planId: string) => admin().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/pause', planPath(place, planId));
  const resume = (place: PlanPlace, planId: string) => admin().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/resume', planPath(place, planId));

  const remove = (place: PlanPlace, planId: string, keepStrategies?: boolean, client: ServiceClient = admin()) =>
    client.DELETE('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}', {
      params: { path: { ...placeOf(place), planId }, ...(keepStrategies !== undefined && { query: { keepStrategies } }) },
    });

  /** The flag's plan in the place's environment, as listed. */
  async function planIn(place: PlanPlace) {
    const { projectId, featureName, environment } = placeOf(place);
    const plans = await ok(admin().GET('/api/admin/projects/{projectId}/features/{featureName}/release-plans', { params: { path: { projectId, featureName } } }), 200);
    const plan = plans.find((p) => p.environment === environment);
    expect(plan, `no plan for ${featureName} in ${environment}`).toBeDefined();
    return plan!;
  }

  /** The name of the flag's active milestone in the place's environment, if any. */
  const activeMilestone = async (place: PlanPlace) => {
    const plan = await planIn(place);
    return plan.milestones.find((m) => m.id === plan.activeMilestoneId)?.name;
  };

  /** A plan of the template's milestones added to the flag in the place, its first milestone started. */
  async function runningPlan(place: PlanPlace, milestones: TemplateMilestone[]) {
    const template = await createTemplate(milestones);
    const plan = await addPlan(place, template.id);
    return ok(start(place, plan.id, plan.milestones[0]!.id), 200);
  }

  return { createTemplate, addPlan, start, pause, resume, remove, planIn, activeMilestone, runningPlan };
}
