// The payloads the contract's x-event-meaning declares are the ones recorded: each event type whose data or preData
// names a schema is recorded here and checked against it, and every other event recorded on the way has the payload
// its meaning says (an object, or none).
import { beforeAll, describe, expect, it } from 'vitest';
import { eventMeaning } from '../generated/events.js';
import { startTestApp, type TestApp } from './support/app.js';
import { validatorOf } from './support/contract.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { importDocument } from './support/state.js';
import type { TemplateMilestone } from './support/release-plans.js';

type EventType = keyof typeof eventMeaning;
interface Recorded {
  type: EventType;
  data?: unknown;
  preData?: unknown;
}

let app: TestApp;
const unique = uniqueNames();
const { newFlag, newProject } = fixtures(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);
/** Every event the steps recorded, whatever its type. */
const recorded: Recorded[] = [];

/** Runs a call that must succeed and keeps the events it recorded (read after each: the list holds the newest 100). */
async function step<Result extends { response: { status: number }; error?: unknown }>(run: () => Promise<Result>): Promise<Result> {
  const since = await latestEventId();
  const result = await run();
  expect(result.response.status, JSON.stringify(result.error)).toBeLessThan(300);
  recorded.push(...((await eventsSince(since)) as Recorded[]));
  return result;
}

const namedSchema = (payload: string | null): payload is string => payload !== null && payload !== 'object';
const typesNamingSchemas = (Object.keys(eventMeaning) as EventType[]).filter((type) => namedSchema(eventMeaning[type].data) || namedSchema(eventMeaning[type].preData));

beforeAll(async () => {
  app = await startTestApp();
  const api = app.admin;
  const flag = await newFlag('payloads');
  const parent = await newFlag('parent');
  const inDevelopment = { projectId: 'default', featureName: flag, environment: 'development' };
  const tagType = unique('tag-type');
  const tag = { type: 'simple', value: unique('tag') };
  const definition = unique('definition');

  await step(() => api.POST('/api/admin/tag-types', { body: { name: tagType } }));
  await step(() => api.PUT('/api/admin/tag-types/{typeName}', { params: { path: { typeName: tagType } }, body: { description: 'described' } }));
  await step(() => api.DELETE('/api/admin/tag-types/{typeName}', { params: { path: { typeName: tagType } } }));
  await step(() => api.POST('/api/admin/tags', { body: tag }));
  await step(() => api.POST('/api/admin/features/{featureName}/tags', { params: { path: { featureName: flag } }, body: tag }));
  await step(() => api.DELETE('/api/admin/features/{featureName}/tags/{type}/{value}', { params: { path: { featureName: flag, ...tag } } }));
  await step(() => api.DELETE('/api/admin/tags/{type}/{value}', { params: { path: tag } }));

  const strategiesPath = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies';
  const strategyPath = `${strategiesPath}/{strategyId}` as const;
  const added = await step(() => api.POST(strategiesPath, { params: { path: inDevelopment }, body: { name: 'default' } }));
  const strategyId = added.data!.id;
  await step(() => api.PUT(strategyPath, { params: { path: { ...inDevelopment, strategyId } }, body: { name: 'flexibleRollout', parameters: { rollout: '50' } } }));
  await step(() => api.DELETE(strategyPath, { params: { path: { ...inDevelopment, strategyId } } }));

  const flagPath = { projectId: 'default', featureName: flag };
  await step(() => api.POST('/api/admin/projects/{projectId}/features/{featureName}/lifecycle/complete', { params: { path: flagPath }, body: { status: 'kept' } }));
  await step(() => api.POST('/api/admin/projects/{projectId}/features/{featureName}/lifecycle/complete', { params: { path: flagPath }, body: { status: 'discarded' } }));
  await step(() => api.POST('/api/admin/projects/{projectId}/features/{featureName}/lifecycle/uncomplete', { params: { path: flagPath } }));
  await step(() => api.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', { params: { path: flagPath }, body: { feature: parent } }));

  const strategyName = { strategyName: definition };
  await step(() => api.POST('/api/admin/strategies', { body: { name: definition } }));
  await step(() => api.PUT('/api/admin/strategies/{strategyName}', { params: { path: strategyName }, body: { name: definition, description: 'described' } }));
  await step(() => api.POST('/api/admin/strategies/{strategyName}/deprecate', { params: { path: strategyName } }));
  await step(() => api.POST('/api/admin/strategies/{strategyName}/reactivate', { params: { path: strategyName } }));
  await step(() => api.DELETE('/api/admin/strategies/{strategyName}', { params: { path: strategyName } }));

  const configPath = { projectId: await newProject('configured'), environment: 'production' };
  await step(() => api.PUT('/api/admin/projects/{projectId}/environments/{environment}/change-requests/config', { params: { path: configPath }, body: { changeRequestsEnabled: true } }));
  await step(() => api.PUT('/api/admin/projects/{projectId}/environments/{environment}/change-requests/config', { params: { path: configPath }, body: { changeRequestsEnabled: true, requiredApprovals: 2 } }));

  const milestones: TemplateMilestone[] = [
    { name: 'half', transitionCondition: { intervalMinutes: 60 }, strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50' } }] },
    { name: 'all', strategies: [{ name: 'default' }] },
  ];
  const template = (await step(() => api.POST('/api/admin/release-plan-templates', { body: { name: unique('template'), milestones } }))).data!;
  const templatePath = { params: { path: { templateId: template.id } } };
  await step(() => api.PUT('/api/admin/release-plan-templates/{templateId}', { ...templatePath, body: { name: template.name, description: 'described', milestones } }));
  const plansPath = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans';
  const plan = (await step(() => api.POST(plansPath, { params: { path: inDevelopment }, body: { templateId: template.id } }))).data!;
  const inPlan = { params: { path: { ...inDevelopment, planId: plan.id } } };
  await step(() => api.POST(`${plansPath}/{planId}/milestones/{milestoneId}/start`, { params: { path: { ...inPlan.params.path, milestoneId: plan.milestones[0]!.id } } }));
  await step(() => api.POST(`${plansPath}/{planId}/pause`, inPlan));
  await step(() => api.POST(`${plansPath}/{planId}/resume`, inPlan));
  const safeguard = { impactMetric: { metricName: 'errors', timeRange: 'hour' as const, aggregationMode: 'count' as const, labelSelectors: {} }, triggerCondition: { operator: '>' as const, threshold: 1 } };
  const created = (await step(() => api.POST(`${plansPath}/{planId}/safeguards`, { ...inPlan, body: safeguard }))).data!;
  const inSafeguard = { params: { path: { ...inPlan.params.path, safeguardId: created.id } } };
  await step(() => api.PUT(`${plansPath}/{planId}/safeguards/{safeguardId}`, { ...inSafeguard, body: { ...safeguard, triggerCondition: { operator: '<', threshold: 0 } } }));
  await step(() => api.DELETE(`${plansPath}/{planId}/safeguards/{safeguardId}`, inSafeguard));
  await step(() => api.DELETE(`${plansPath}/{planId}`, inPlan));
  await step(() => api.DELETE('/api/admin/release-plan-templates/{templateId}', templatePath));

  const importedType = unique('imported-type');
  const document = { version: 2 as const, tagTypes: [{ name: importedType, description: 'imported' }], tags: [{ type: importedType, value: 'imported' }] };
  await step(() => importDocument(app, document));
});

describe("the events recorded match their type's declared payload", () => {
  it.each(typesNamingSchemas)('%s is recorded, with each payload its meaning names a schema for matching that schema', (type) => {
    const meaning = eventMeaning[type];
    const events = recorded.filter((event) => event.type === type);
    for (const field of ['data', 'preData'] as const) {
      const schema = meaning[field];
      if (!namedSchema(schema)) continue;
      const payloads = events.map((event) => event[field]).filter((payload) => payload !== null && payload !== undefined);
      expect(payloads.length, `no ${type} event recorded with ${field}`).toBeGreaterThan(0);
      const validate = validatorOf({ $ref: `#/components/schemas/${schema}` });
      for (const payload of payloads) expect(validate(payload), `${type} ${field}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('every other recorded payload is an object where its meaning says object, and absent where it says null', () => {
    expect(recorded.length).toBeGreaterThan(typesNamingSchemas.length);
    for (const event of recorded) {
      for (const field of ['data', 'preData'] as const) {
        const declared = eventMeaning[event.type][field];
        const payload = event[field] ?? null;
        if (declared === null) expect(payload, `${event.type} ${field}`).toBeNull();
        else if (payload !== null) expect(typeof payload === 'object' && !Array.isArray(payload), `${event.type} ${field}`).toBe(true);
      }
    }
  });
});
