// The admin playground: what every flag gives a context, and why, as Unleash's playground answers.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../client/index.js';
import type { components } from '../generated/api.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok, rollout } from './support/fixtures.js';
import { flagWith } from './support/frontend.js';

let app: TestApp;
/** A project of this file's own, so that every answer lists only the flags made here. */
let project: string;

const unique = uniqueNames();
const { newProject, createSegment, strategiesOf } = fixtures(() => app, unique);
const inProject = { get project() { return project; } };

beforeAll(async () => {
  app = await startTestApp();
  project = await newProject('project');
});

const playground = (body: components['schemas']['PlaygroundRequest'], client: ServiceClient = app.admin) => client.POST('/api/admin/playground', { body });
/** A context with `properties`, which the generated context types cannot take (their index signature is for strings only): cast. */
type WithProperties<Request> = Omit<Request, 'context'> & { context: Record<string, unknown> };
const withProperties = (body: WithProperties<components['schemas']['PlaygroundRequest']>) =>
  ok(app.admin.POST('/api/admin/playground', { body: body as components['schemas']['PlaygroundRequest'] }), 200);
const advancedWithProperties = (body: WithProperties<components['schemas']['AdvancedPlaygroundRequest']>) =>
  ok(app.admin.POST('/api/admin/playground/advanced', { body: body as components['schemas']['AdvancedPlaygroundRequest'] }), 200);

/** The playground's answer for one flag in development. */
async function feature(name: string, context: Omit<components['schemas']['PlaygroundContext'], 'appName'> = {}, environment = 'development') {
  const { data, error, response } = await playground({ environment, projects: [project], context: { appName: 'web', ...context } });
  expect(response.status, JSON.stringify(error)).toBe(200);
  const found = data!.features.find((f) => f.name === name);
  expect(found, `${name} is not in the answer`).toBeDefined();
  return found!;
}

describe('POST /api/admin/playground', () => {
  it('lists every flag of the projects, on or off, with its project', async () => {
    const on = await flagWith(app, unique('on'), [rollout(100)], inProject);
    const off = await flagWith(app, unique('off'), [rollout(100)], { ...inProject, on: false });
    const response = await playground({ environment: 'development', projects: [project], context: { appName: 'web' } });
    const byName = Object.fromEntries(response.data!.features.map((f) => [f.name, f]));
    expect(byName[on]).toMatchObject({ projectId: project, isEnabled: true, isEnabledInCurrentEnvironment: true, hasUnsatisfiedDependency: false });
    expect(byName[off]).toMatchObject({ projectId: project, isEnabled: false, isEnabledInCurrentEnvironment: false, variant: { name: 'disabled', enabled: false, feature_enabled: false } });
    expect(response.data!.features.every((f) => f.projectId === project)).toBe(true);
  });

  it('echoes the request as input', async () => {
    const body = { environment: 'development', projects: [project], context: { appName: 'web', userId: 'u-1', properties: { plan: 'pro' } } };
    expect((await withProperties(body)).input).toEqual(body);
  });

  it('reads a null context field as absent, at the top and in properties, and echoes it', async () => {
    const name = await flagWith(app, unique('nulls'), [
      { ...rollout(100), constraints: [{ contextName: 'userId', operator: 'NOT_IN', values: ['null'] }, { contextName: 'plan', operator: 'NOT_IN', values: ['pro'] }] },
    ], inProject);
    const context = { appName: 'web', userId: null, currentTime: null, team: null, properties: { plan: null } };
    const answer = await withProperties({ environment: 'development', projects: [project], context });
    expect(answer.input.context).toEqual(context);
    const strategy = answer.features.find((f) => f.name === name)!.strategies.data[0]!;
    expect(strategy.constraints.map((c) => c.result)).toEqual([true, true]);
    expect(strategy.result).toEqual({ evaluationStatus: 'complete', enabled: true });
  });

  it('gives each constraint its own result, and the strategy the result of them all', async () => {
    const name = await flagWith(app, unique('constraints'), [
      { ...rollout(100), constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }, { contextName: 'plan', operator: 'IN', values: ['pro'] }] },
    ], inProject);
    const answer = await withProperties({ environment: 'development', projects: [project], context: { appName: 'web', userId: 'alice', properties: { plan: 'free' } } });
    const explained = answer.features.find((f) => f.name === name)!;
    const strategy = explained.strategies.data[0]!;
    expect(strategy.constraints.map((c) => [c.contextName, c.operator, c.values, c.result])).toEqual([
      ['userId', 'IN', ['alice'], true],
      ['plan', 'IN', ['pro'], false],
    ]);
    expect(strategy.result).toEqual({ evaluationStatus: 'complete', enabled: false });
    expect(explained.strategies.result).toBe(false);
    expect(explained.isEnabled).toBe(false);
  });

  it('gives each segment of a strategy its constraints\' results', async () => {
    const segment = await createSegment({ name: unique('beta'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['bob'] }] });
    const name = await flagWith(app, unique('segmented'), [{ ...rollout(100), segments: [segment.id] }], inProject);
    const forBob = (await feature(name, { userId: 'bob' })).strategies.data[0]!.segments;
    expect(forBob).toEqual([{ id: segment.id, name: segment.name, result: true, constraints: [expect.objectContaining({ contextName: 'userId', values: ['bob'], result: true })] }]);
    const forCarol = await feature(name, { userId: 'carol' });
    expect(forCarol.strategies.data[0]!.segments[0]!.result).toBe(false);
    expect(forCarol.isEnabled).toBe(false);
  });

  it('cannot evaluate a custom strategy: unknown when its constraints hold, and the flag is not on', async () => {
    const definition = unique('custom');
    const created = await app.admin.POST('/api/admin/strategies', { body: { name: definition, parameters: [] } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const name = await flagWith(app, unique('custom-flag'), [{ name: definition, constraints: [{ contextName: 'userId', operator: 'IN', values: ['dave'] }] }], inProject);
    const holds = await feature(name, { userId: 'dave' });
    expect(holds.strategies.data[0]!.result).toEqual({ evaluationStatus: 'incomplete', enabled: 'unknown' });
    expect(holds.strategies.result).toBe('unknown');
    expect(holds.isEnabled).toBe(false);
    const fails = await feature(name, { userId: 'erin' });
    expect(fails.strategies.data[0]!.result).toEqual({ evaluationStatus: 'incomplete', enabled: false });
    expect(fails.strategies.result).toBe(false);
  });

  it('says when a parent flag is not in the state a dependency asks for', async () => {
    const parent = await flagWith(app, unique('parent'), [{ ...rollout(100), constraints: [{ contextName: 'userId', operator: 'IN', values: ['frank'] }] }], inProject);
    const child = await flagWith(app, unique('child'), [rollout(100)], inProject);
    const dependency = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
      params: { path: { projectId: project, featureName: child } },
      body: { feature: parent, enabled: true },
    });
    expect(dependency.response.status, JSON.stringify(dependency.error)).toBeLessThan(300);
    expect(await feature(child, { userId: 'frank' })).toMatchObject({ isEnabled: true, hasUnsatisfiedDependency: false });
    expect(await feature(child, { userId: 'gina' })).toMatchObject({ isEnabled: false, hasUnsatisfiedDependency: true, strategies: { result: true } });
  });

  it('gives the flag variant the context gets, and the flag\'s variants', async () => {
    const variants = [{ name: 'blue', weight: 1000, weightType: 'fix', stickiness: 'default', payload: { type: 'string', value: 'b' } }];
    const name = await flagWith(app, unique('variants'), [rollout(100)], { ...inProject, variants });
    const explained = await feature(name, { userId: 'u-1' });
    expect(explained.variant).toEqual({ name: 'blue', enabled: true, payload: { type: 'string', value: 'b' }, feature_enabled: true, featureEnabled: true });
    expect(explained.variants).toEqual([expect.objectContaining({ name: 'blue', weight: 1000 })]);
  });

  it('gives the strategy variant of the applying strategy, with that strategy\'s variants', async () => {
    const name = await flagWith(app, unique('strategy-variants'), [{ ...rollout(100), variants: [{ name: 'green', weight: 1000, weightType: 'fix', stickiness: 'default' }] }], {
      ...inProject,
      variants: [{ name: 'blue', weight: 1000, weightType: 'fix', stickiness: 'default' }],
    });
    const explained = await feature(name, { userId: 'u-1' });
    expect(explained.variant.name).toBe('green');
    expect(explained.variants.map((v: any) => v.name)).toEqual(['green']);
    expect(explained.strategies.data[0]!.result).toMatchObject({ evaluationStatus: 'complete', enabled: true, variant: { name: 'green', enabled: true } });
  });

  it('lists each strategy with its id, title and edit link, disabled ones in their place without evaluating them', async () => {
    const name = await flagWith(app, unique('strategies'), [
      { ...rollout(100), title: 'Staff', constraints: [{ contextName: 'userId', operator: 'IN', values: ['staff'] }] },
      { ...rollout(100), title: 'Paused', disabled: true },
      { ...rollout(0), title: 'Nobody' },
    ], inProject);
    const stored = await strategiesOf(name, 'development', project);
    const explained = await feature(name, { userId: 'someone' });
    expect(explained.strategies.data.map((s: any) => [s.id, s.title, s.disabled, s.result])).toEqual([
      [stored[0]!.id, 'Staff', false, { evaluationStatus: 'complete', enabled: false }],
      [stored[1]!.id, 'Paused', true, { evaluationStatus: 'unevaluated', enabled: 'unknown' }],
      [stored[2]!.id, 'Nobody', false, { evaluationStatus: 'complete', enabled: false }],
    ]);
    expect(explained.strategies.data[0]!.links.edit).toBe(`/projects/${project}/features/${name}/strategies/edit?environmentId=development&strategyId=${stored[0]!.id}`);
  });

  it('evaluates the flags of the environment asked for', async () => {
    const name = await flagWith(app, unique('production'), [rollout(100)], { ...inProject, environment: 'production' });
    expect((await feature(name, {}, 'production')).isEnabled).toBe(true);
    expect((await feature(name, {}, 'development')).isEnabled).toBe(false);
  });

  it('evaluates every project with projects "*" or none', async () => {
    const name = await flagWith(app, unique('anywhere'), [rollout(100)], inProject);
    for (const projects of ['*' as const, undefined]) {
      const response = await playground({ environment: 'development', ...(projects && { projects }), context: { appName: 'web' } });
      expect(response.data!.features.map((f) => f.name)).toContain(name);
    }
  });
});

describe('POST /api/admin/playground: what it refuses', () => {
  it('refuses an environment that does not exist with 400 naming it', async () => {
    const error = expectError(await playground({ environment: 'nowhere', context: { appName: 'web' } }), 400, 'ValidationError');
    expect(error.message).toContain('"nowhere"');
  });

  it('refuses a project that does not exist with 400 naming it', async () => {
    const error = expectError(await playground({ environment: 'development', projects: [project, 'no-such-project'], context: { appName: 'web' } }), 400, 'ValidationError');
    expect(error.message).toContain('"no-such-project"');
  });

  it('refuses a context without appName with 400 naming it', async () => {
    const error = expectError(await call(app, 'POST', '/api/admin/playground', { body: { environment: 'development', context: { userId: 'u-1' } } }), 400, 'ValidationError');
    expect(error.message).toContain('appName');
  });

  it('refuses a context value that is not a string with 400 naming it', async () => {
    const body = { environment: 'development', context: { appName: 'web', seats: 5 } };
    const error = expectError(await call(app, 'POST', '/api/admin/playground', { body }), 400, 'ValidationError');
    expect(error.message).toContain('seats');
  });

  it('refuses frontend and client tokens with 403', async () => {
    for (const type of ['frontend', 'client'] as const) {
      const token = await newApiToken(app, { type, environment: 'development' });
      expectError(await playground({ environment: 'development', context: { appName: 'web' } }, app.clientWith(token)), 403, 'NoAccessError');
    }
  });
});

const advanced = (body: components['schemas']['AdvancedPlaygroundRequest']) => app.admin.POST('/api/admin/playground/advanced', { body });

describe('POST /api/admin/playground/advanced', () => {
  it('evaluates every combination of comma-separated values in every environment, each with its context', async () => {
    const name = await flagWith(app, unique('combined'), [{ ...rollout(100), constraints: [{ contextName: 'userId', operator: 'IN', values: ['u-1'] }] }], inProject);
    const response = await advanced({ environments: ['development', 'production'], projects: [project], context: { appName: 'web,ios', userId: 'u-1,u-2' } });
    expect(response.response.status, JSON.stringify(response.error)).toBe(200);
    const found = response.data!.features.find((f) => f.name === name)!;
    expect(found.projectId).toBe(project);
    expect(Object.keys(found.environments).sort()).toEqual(['development', 'production']);
    const development = found.environments.development!.map((e) => [e.environment, e.context, e.isEnabled]);
    expect(development).toEqual([
      ['development', { appName: 'web', userId: 'u-1' }, true],
      ['development', { appName: 'web', userId: 'u-2' }, false],
      ['development', { appName: 'ios', userId: 'u-1' }, true],
      ['development', { appName: 'ios', userId: 'u-2' }, false],
    ]);
    expect(found.environments.production!.every((e) => e.isEnabled === false && e.environment === 'production')).toBe(true);
  });

  it('combines lists, custom fields in properties coming out at the top of each context', async () => {
    const name = await flagWith(app, unique('plans'), [{ ...rollout(100), constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] }], inProject);
    const answer = await advancedWithProperties({ environments: ['development'], projects: [project], context: { appName: 'web', properties: { plan: ['free', 'pro'] } } });
    const found = answer.features.find((f) => f.name === name)!;
    expect(found.environments.development!.map((e) => [e.context, e.isEnabled])).toEqual([
      [{ appName: 'web', plan: 'free' }, false],
      [{ appName: 'web', plan: 'pro' }, true],
    ]);
  });

  it('leaves a null field out of every combination, as absent', async () => {
    const name = await flagWith(app, unique('null-combined'), [{ ...rollout(100), constraints: [{ contextName: 'plan', operator: 'NOT_IN', values: ['pro'] }] }], inProject);
    const answer = await advancedWithProperties({ environments: ['development'], projects: [project], context: { appName: 'web,ios', userId: null, properties: { plan: null } } });
    const found = answer.features.find((f) => f.name === name)!;
    expect(found.environments.development!.map((e) => [e.context, e.isEnabled])).toEqual([
      [{ appName: 'web' }, true],
      [{ appName: 'ios' }, true],
    ]);
  });

  it('explains each combination as the plain playground does', async () => {
    const name = await flagWith(app, unique('explained'), [{ ...rollout(100), constraints: [{ contextName: 'userId', operator: 'IN', values: ['u-1'] }] }], inProject);
    const response = await advanced({ environments: ['development'], projects: [project], context: { appName: 'web', userId: 'u-1' } });
    const [only] = response.data!.features.find((f) => f.name === name)!.environments.development!;
    const { environment: _environment, context: _context, ...rest } = only!;
    expect(rest).toEqual(await feature(name, { userId: 'u-1' }));
  });

  it('refuses more than 15,000 evaluations with 400 saying what to reduce', async () => {
    const many = Array.from({ length: 200 }, (_, i) => `u-${i}`);
    const error = expectError(
      await advanced({ environments: ['development'], context: { appName: 'web', userId: many, sessionId: many } }),
      400,
      'ValidationError',
    );
    expect(error.message).toContain('15000');
  });

  it('refuses an environment that does not exist with 400 naming it', async () => {
    const error = expectError(await advanced({ environments: ['development', 'nowhere'], context: { appName: 'web' } }), 400, 'ValidationError');
    expect(error.message).toContain('"nowhere"');
  });

  it('refuses an empty list of environments with 400', async () => {
    expectError(await advanced({ environments: [], context: { appName: 'web' } }), 400, 'ValidationError');
  });
});
