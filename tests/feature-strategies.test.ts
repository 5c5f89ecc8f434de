import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { envPath, fixtures, strategyParams } from './support/fixtures.js';

type Constraint = components['schemas']['Constraint'];
type StrategyVariant = components['schemas']['StrategyVariant'];
type JsonPatch = components['schemas']['JsonPatch'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const project = await app.admin.POST('/api/admin/projects', {
    body: { id: 'devonly', name: 'Development only', environments: ['development'] },
  });
  expect(project.response.status).toBe(201);
});

const unique = uniqueNames();
const { newFlag, flagEnvironment, turnOn, turnOff, strategiesOf: listStrategies, addStrategy } = fixtures(() => app, unique);

const { latestEventId, eventsSince } = eventReader(() => app);

const environmentRoute = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}';
const strategiesRoute = `${environmentRoute}/strategies` as const;
const strategyRoute = `${strategiesRoute}/{strategyId}` as const;
/** For bodies the types forbid. */
const strategiesPath = (featureName: string, environment = 'development') =>
  `/api/admin/projects/default/features/${featureName}/environments/${environment}/strategies`;

describe('turning a flag on and off in an environment', () => {
  it('adds a 100% gradual rollout before enabling a flag without strategies, and records both in that order', async () => {
    const name = await newFlag('on-fresh');
    const before = await latestEventId();
    await turnOn(name);

    const env = await flagEnvironment(name);
    expect(env.enabled).toBe(true);
    expect(env.strategies).toHaveLength(1);
    expect(env.strategies[0]).toMatchObject({
      name: 'flexibleRollout',
      disabled: false,
      parameters: { rollout: '100', stickiness: 'default', groupId: name },
      constraints: [],
      segments: [],
    });
    expect(env.hasStrategies).toBe(true);
    expect(env.hasEnabledStrategies).toBe(true);
    expect((await flagEnvironment(name, 'production')).enabled).toBe(false);

    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-strategy-add', 'feature-environment-enabled']);
    for (const event of events) expect(event).toMatchObject({ featureName: name, project: 'default', environment: 'development' });
    expect(events[0]!.data).toMatchObject({ id: env.strategies[0]!.id, name: 'flexibleRollout' });
  });

  it('writes nothing and adds no second strategy when the flag is already on', async () => {
    const name = await newFlag('on-twice');
    await turnOn(name);
    const before = await latestEventId();
    await turnOn(name);
    expect(await eventsSince(before)).toEqual([]);
    expect(await listStrategies(name)).toHaveLength(1);
  });

  it('turns a flag off with one event, keeping its strategies, and writes nothing when already off', async () => {
    const name = await newFlag('off');
    await turnOn(name);
    let before = await latestEventId();
    await turnOff(name);
    const env = await flagEnvironment(name);
    expect(env.enabled).toBe(false);
    expect(env.strategies).toHaveLength(1);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-environment-disabled', featureName: name, project: 'default', environment: 'development' });

    before = await latestEventId();
    await turnOff(name);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('re-enables with the existing strategies and adds nothing when one is enabled', async () => {
    const name = await newFlag('on-existing');
    const strategy = await addStrategy(name, { name: 'default' });
    const before = await latestEventId();
    await turnOn(name);
    const strategies = await listStrategies(name);
    expect(strategies.map((s) => s.id)).toEqual([strategy.id]);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-environment-enabled']);
  });

  it('adds a gradual rollout when every strategy is disabled', async () => {
    const name = await newFlag('on-disabled-only');
    const disabled = await addStrategy(name, { name: 'default', disabled: true });
    expect((await flagEnvironment(name)).hasEnabledStrategies).toBe(false);
    await turnOn(name);
    const strategies = await listStrategies(name);
    expect(strategies).toHaveLength(2);
    expect(strategies[0]!.id).toBe(disabled.id);
    expect(strategies[1]).toMatchObject({ name: 'flexibleRollout', disabled: false, parameters: { rollout: '100', stickiness: 'default', groupId: name } });
    expect((await flagEnvironment(name)).hasEnabledStrategies).toBe(true);
  });

  it('only changes the environment asked for', async () => {
    const name = await newFlag('on-one-env');
    await turnOn(name, 'production');
    expect((await flagEnvironment(name, 'production')).enabled).toBe(true);
    expect((await flagEnvironment(name, 'development')).enabled).toBe(false);
    expect(await listStrategies(name, 'development')).toEqual([]);
  });

  it.each(['on', 'off'] as const)('answers 404 to %s for an unknown project, flag or environment, or one not on the project, writing nothing', async (action) => {
    const name = await newFlag(`missing-${action}`);
    const other = await newFlag(`narrow-${action}`, 'devonly');
    const before = await latestEventId();
    const paths = [
      envPath(name, 'development', 'nowhere'),
      envPath('ghost-flag', 'development', 'default'),
      envPath(name, 'moon', 'default'),
      envPath(other, 'production', 'devonly'),
      envPath(name, 'development', 'devonly'),
    ];
    for (const path of paths) {
      const result = action === 'on' ? await app.admin.POST(`${environmentRoute}/on`, { params: { path } }) : await app.admin.POST(`${environmentRoute}/off`, { params: { path } });
      expectError(result, 404, 'NotFoundError');
    }
    expect(await eventsSince(before)).toEqual([]);
    expect((await flagEnvironment(name)).enabled).toBe(false);
  });

  it('answers 401 without a token', async () => {
    const name = await newFlag('on-anonymous');
    const response = await app.clientWith().POST(`${environmentRoute}/on`, { params: { path: envPath(name) } });
    expect(response.response.status).toBe(401);
    expect((await flagEnvironment(name)).enabled).toBe(false);
  });
});

describe('strategies of a flag in an environment', () => {
  it('adds a strategy with id, title, parameters as strings, constraints and variants, and records it', async () => {
    const name = await newFlag('add');
    const before = await latestEventId();
    const strategy = await addStrategy(name, {
      name: 'flexibleRollout',
      title: 'Half the users',
      parameters: { rollout: 50, stickiness: 'userId', groupId: 'group-a' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice', 'bob'] }],
      variants: [{ name: 'blue', weightType: 'variable', stickiness: 'userId', payload: { type: 'string', value: 'b' } }],
    });
    expect(typeof strategy.id).toBe('string');
    expect(strategy.id.length).toBeGreaterThan(0);
    expect(strategy).toMatchObject({
      name: 'flexibleRollout',
      title: 'Half the users',
      featureName: name,
      environment: 'development',
      disabled: false,
      sortOrder: 0,
      parameters: { rollout: '50', stickiness: 'userId', groupId: 'group-a' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice', 'bob'], caseInsensitive: false, inverted: false }],
      variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'userId', payload: { type: 'string', value: 'b' } }],
      segments: [],
    });

    const one = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { ...envPath(name), strategyId: strategy.id } },
    });
    expect(one.response.status).toBe(200);
    expect(one.data).toEqual(strategy);
    expect(await listStrategies(name)).toEqual([strategy]);
    expect((await flagEnvironment(name)).strategies).toEqual([strategy]);
    // Adding a strategy does not turn the flag on.
    expect((await flagEnvironment(name)).enabled).toBe(false);

    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-strategy-add', featureName: name, project: 'default', environment: 'development', data: strategy });
  });

  it('stores number and boolean parameters as strings and fills in the gradual rollout defaults', async () => {
    const name = await newFlag('params');
    const custom = await addStrategy(name, { name: 'default', parameters: { count: 3, ratio: 0.5, on: true, text: 'x' } });
    expect(custom.parameters).toEqual({ count: '3', ratio: '0.5', on: 'true', text: 'x' });
    const rollout = await addStrategy(name, { name: 'flexibleRollout' });
    expect(rollout.parameters).toEqual({ rollout: '100', stickiness: 'default', groupId: name });
    // No title: the key is left out, never null (tests/omitted-not-null.test.ts).
    expect(rollout).not.toHaveProperty('title');
  });

  it('gives new strategies the next sort order and lists them in order', async () => {
    const name = await newFlag('order-default');
    const first = await addStrategy(name, { name: 'default' });
    const second = await addStrategy(name, { name: 'remoteAddress', parameters: { IPs: '10.0.0.1' } });
    const third = await addStrategy(name, { name: 'applicationHostname', parameters: { hostNames: 'a.example' } });
    expect([first.sortOrder, second.sortOrder, third.sortOrder]).toEqual([0, 1, 2]);
    expect((await listStrategies(name)).map((s) => s.id)).toEqual([first.id, second.id, third.id]);
  });

  it('refuses an unknown strategy name with 400, adding no row and no event', async () => {
    const name = await newFlag('unknown-name');
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: envPath(name) },
      body: { name: 'noSuchStrategy' },
    });
    const error = expectError(result, 400, 'ValidationError');
    expect(error.message).toContain('noSuchStrategy');
    expect(await listStrategies(name)).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['an unknown field', { name: 'default', colour: 'red' }, 'colour'],
    ['a rollout above 100', { name: 'flexibleRollout', parameters: { rollout: '150' } }, '150'],
    ['no name', { title: 'nameless' }, 'name'],
    ['a segment id beyond the largest id', { name: 'default', segments: [2 ** 31] }, 'segments'],
  ])('refuses %s with 400 naming it', async (_case, body, field) => {
    const name = await newFlag('bad-body');
    const before = await latestEventId();
    const error = expectError(await call(app, 'POST', strategiesPath(name), { body }), 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect(await listStrategies(name)).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const name = await newFlag('content-type');
    const response = await call(app, 'POST', strategiesPath(name), { body: 'name=default', contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expect(await listStrategies(name)).toEqual([]);
  });

  it('answers 404 for an unknown strategy id on get, put, patch and delete, and for a strategy of another environment', async () => {
    const name = await newFlag('unknown-id');
    const production = await addStrategy(name, { name: 'default' }, 'production');
    const before = await latestEventId();
    for (const id of ['5b0e4d1e-0000-4000-8000-000000000000', production.id]) {
      expectError(await app.admin.GET(strategyRoute, strategyParams(name, id)), 404, 'NotFoundError');
      expectError(await app.admin.PUT(strategyRoute, { ...strategyParams(name, id), body: { name: 'default' } }), 404, 'NotFoundError');
      expectError(await app.admin.PATCH(strategyRoute, { ...strategyParams(name, id), body: [{ op: 'replace', path: '/title', value: 'x' }] }), 404, 'NotFoundError');
      expectError(await app.admin.DELETE(strategyRoute, strategyParams(name, id)), 404, 'NotFoundError');
    }
    expect(await eventsSince(before)).toEqual([]);
    expect(await listStrategies(name, 'production')).toEqual([production]);
  });

  it('answers 404 when listing strategies of an environment not on the project', async () => {
    const name = await newFlag('not-on-project', 'devonly');
    const production = { params: { path: envPath(name, 'production', 'devonly') } };
    expectError(await app.admin.GET(strategiesRoute, production), 404, 'NotFoundError');
    expectError(await app.admin.POST(strategiesRoute, { ...production, body: { name: 'default' } }), 404, 'NotFoundError');
  });

  it('replaces a strategy with PUT and records the change with data and preData', async () => {
    const name = await newFlag('put');
    const original = await addStrategy(name, { name: 'flexibleRollout', title: 'Before', parameters: { rollout: '10' } });
    const before = await latestEventId();
    const result = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { ...envPath(name), strategyId: original.id } },
      body: {
        name: 'flexibleRollout',
        title: 'After',
        disabled: true,
        parameters: { rollout: 75, stickiness: 'sessionId', groupId: 'g' },
        constraints: [{ contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], caseInsensitive: true }],
      },
    });
    expect(result.response.status).toBe(200);
    expect(result.data).toMatchObject({
      id: original.id,
      title: 'After',
      disabled: true,
      sortOrder: original.sortOrder,
      parameters: { rollout: '75', stickiness: 'sessionId', groupId: 'g' },
      constraints: [{ contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], caseInsensitive: true, inverted: false }],
    });
    expect(await listStrategies(name)).toEqual([result.data]);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'feature-strategy-update',
      featureName: name,
      project: 'default',
      environment: 'development',
      data: result.data,
      preData: original,
    });
  });

  it('refuses a PUT with an unknown strategy name, leaving the strategy as it was', async () => {
    const name = await newFlag('put-bad');
    const original = await addStrategy(name, { name: 'default', title: 'Kept' });
    const before = await latestEventId();
    const error = expectError(await app.admin.PUT(strategyRoute, { ...strategyParams(name, original.id), body: { name: 'madeUp' } }), 400, 'ValidationError');
    expect(error.message).toContain('madeUp');
    expect(await listStrategies(name)).toEqual([original]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('changes a strategy with a JSON patch and records it', async () => {
    const name = await newFlag('patch');
    const original = await addStrategy(name, { name: 'flexibleRollout', parameters: { rollout: '20' } });
    const before = await latestEventId();
    const result = await app.admin.PATCH('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { ...envPath(name), strategyId: original.id } },
      body: [
        { op: 'replace', path: '/title', value: 'Patched' },
        { op: 'replace', path: '/parameters/rollout', value: '30' },
        { op: 'add', path: '/constraints/-', value: { contextName: 'userId', operator: 'NUM_GT', value: '5' } },
      ],
    });
    expect(result.response.status).toBe(200);
    expect(result.data).toMatchObject({
      id: original.id,
      title: 'Patched',
      parameters: { rollout: '30', stickiness: 'default', groupId: name },
      constraints: [{ contextName: 'userId', operator: 'NUM_GT', value: '5', caseInsensitive: false, inverted: false }],
    });
    expect(await listStrategies(name)).toEqual([result.data]);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-strategy-update', featureName: name, project: 'default', environment: 'development', data: result.data, preData: original });
  });

  it.each<[string, JsonPatch, string | undefined]>([
    ['a failing test operation', [{ op: 'test', path: '/title', value: 'not the title' }], undefined],
    ['a path that does not exist', [{ op: 'replace', path: '/nothing/here', value: 1 }], undefined],
    ['an invalid constraint value', [{ op: 'add', path: '/constraints/-', value: { contextName: 'x', operator: 'NUM_EQ', value: 'ten' } }], 'ten'],
    ['an unknown strategy name', [{ op: 'replace', path: '/name', value: 'inventedStrategy' }], 'inventedStrategy'],
    ['a field outside the schema', [{ op: 'add', path: '/colour', value: 'red' }], 'colour'],
  ])('refuses a patch with %s with 400, changing nothing', async (_case, patch, mention) => {
    const name = await newFlag('patch-bad');
    const original = await addStrategy(name, { name: 'default', title: 'Original' });
    const before = await latestEventId();
    const error = expectError(await app.admin.PATCH(strategyRoute, { ...strategyParams(name, original.id), body: patch }), 400, 'ValidationError');
    if (mention) expect(error.message).toContain(mention);
    expect(await listStrategies(name)).toEqual([original]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('deletes a strategy with an event, keeping the flag on while another is left', async () => {
    const name = await newFlag('delete');
    const keep = await addStrategy(name, { name: 'default' });
    const gone = await addStrategy(name, { name: 'flexibleRollout' });
    await turnOn(name);
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { ...envPath(name), strategyId: gone.id } },
    });
    expect(result.response.status).toBe(200);
    expect((await listStrategies(name)).map((s) => s.id)).toEqual([keep.id]);
    expectError(await app.admin.GET(strategyRoute, strategyParams(name, gone.id)), 404, 'NotFoundError');
    expect((await flagEnvironment(name)).enabled).toBe(true);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-strategy-remove', featureName: name, project: 'default', environment: 'development', preData: gone });
  });

  it('turns the environment off when its last strategy is deleted', async () => {
    const name = await newFlag('delete-last');
    await turnOn(name);
    const [only] = await listStrategies(name);
    const before = await latestEventId();
    const response = await app.admin.DELETE(strategyRoute, strategyParams(name, only!.id));
    expect(response.response.status).toBe(200);
    const env = await flagEnvironment(name);
    expect(env.enabled).toBe(false);
    expect(env.strategies).toEqual([]);
    expect(env.hasStrategies).toBe(false);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-strategy-remove', 'feature-environment-disabled']);
    for (const event of events) expect(event).toMatchObject({ featureName: name, project: 'default', environment: 'development' });
    // The other environment is untouched.
    expect((await flagEnvironment(name, 'production')).enabled).toBe(false);
  });

  it('reorders strategies and records strategy-order-changed', async () => {
    const name = await newFlag('reorder');
    const a = await addStrategy(name, { name: 'default', title: 'a' });
    const b = await addStrategy(name, { name: 'default', title: 'b' });
    const c = await addStrategy(name, { name: 'default', title: 'c' });
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/set-sort-order', {
      params: { path: envPath(name) },
      body: [
        { id: c.id, sortOrder: 0 },
        { id: a.id, sortOrder: 1 },
        { id: b.id, sortOrder: 2 },
      ],
    });
    expect(result.response.status).toBe(200);
    const after = await listStrategies(name);
    expect(after.map((s) => [s.title, s.sortOrder])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
    ]);
    expect((await flagEnvironment(name)).strategies.map((s) => s.id)).toEqual([c.id, a.id, b.id]);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'strategy-order-changed',
      featureName: name,
      project: 'default',
      environment: 'development',
      data: { strategies: [{ id: c.id, sortOrder: 0 }, { id: a.id, sortOrder: 1 }, { id: b.id, sortOrder: 2 }] },
      preData: { strategies: [{ id: a.id, sortOrder: 0 }, { id: b.id, sortOrder: 1 }, { id: c.id, sortOrder: 2 }] },
    });
  });

  it('refuses a reorder naming an unknown strategy with 404, applying none of it', async () => {
    const name = await newFlag('reorder-bad');
    const a = await addStrategy(name, { name: 'default' });
    const b = await addStrategy(name, { name: 'default' });
    const before = await latestEventId();
    const response = await app.admin.POST(`${strategiesRoute}/set-sort-order`, {
      params: { path: envPath(name) },
      body: [
        { id: b.id, sortOrder: 0 },
        { id: 'no-such-strategy', sortOrder: 1 },
      ],
    });
    expectError(response, 404, 'NotFoundError');
    expect((await listStrategies(name)).map((s) => [s.id, s.sortOrder])).toEqual([
      [a.id, 0],
      [b.id, 1],
    ]);
    expect(await eventsSince(before)).toEqual([]);
  });
});

describe('constraints', () => {
  const valid: [Constraint['operator'], Partial<Constraint>][] = [
    ['IN', { values: ['a', 'b'] }],
    ['NOT_IN', { values: ['c'] }],
    ['STR_STARTS_WITH', { values: ['pre'] }],
    ['STR_ENDS_WITH', { values: ['.com', '.org'] }],
    ['STR_CONTAINS', { values: ['mid'] }],
    ['NUM_EQ', { value: '42' }],
    ['NUM_GT', { value: '-1.5' }],
    ['NUM_GTE', { value: '0' }],
    ['NUM_LT', { value: '100' }],
    ['NUM_LTE', { value: '3.25' }],
    ['DATE_AFTER', { value: '2024-01-31T12:00:00Z' }],
    ['DATE_BEFORE', { value: '2030-06-01T08:30:00.000+02:00' }],
    ['SEMVER_EQ', { value: '1.2.3' }],
    ['SEMVER_GT', { value: '2.0.0-beta.1' }],
    ['SEMVER_GTE', { value: '0.0.1' }],
    ['SEMVER_LT', { value: '10.20.30' }],
    ['SEMVER_LTE', { value: '1.0.0+build.5' }],
    ['REGEX', { value: '^user-[0-9]+$' }],
  ];

  it('covers all 18 operators', () => {
    expect(new Set(valid.map(([op]) => op)).size).toBe(18);
  });

  it.each(valid)('accepts %s with caseInsensitive and inverted', async (operator, values) => {
    const name = await newFlag(`op-${operator.toLowerCase()}`);
    const constraint: Constraint = { contextName: 'userId', operator, caseInsensitive: true, inverted: true, ...values };
    const strategy = await addStrategy(name, { name: 'default', constraints: [constraint] });
    expect(strategy.constraints).toHaveLength(1);
    expect(strategy.constraints[0]).toMatchObject(constraint);
    expect((await listStrategies(name))[0]!.constraints).toEqual(strategy.constraints);
  });

  it('defaults caseInsensitive and inverted to false', async () => {
    const name = await newFlag('op-defaults');
    const strategy = await addStrategy(name, {
      name: 'default',
      constraints: [
        { contextName: 'appName', operator: 'IN', values: ['web'] },
        { contextName: 'version', operator: 'SEMVER_GT', value: '1.0.0' },
      ],
    });
    expect(strategy.constraints).toMatchObject([
      { contextName: 'appName', operator: 'IN', values: ['web'], caseInsensitive: false, inverted: false },
      { contextName: 'version', operator: 'SEMVER_GT', value: '1.0.0', caseInsensitive: false, inverted: false },
    ]);
  });

  it.each([
    ['a non-number for NUM_GT', { contextName: 'age', operator: 'NUM_GT', value: 'twelve' }, 'twelve'],
    ['a non-number for NUM_EQ', { contextName: 'age', operator: 'NUM_EQ', value: '12abc' }, '12abc'],
    ['a date without time for DATE_AFTER', { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-01-31' }, '2024-01-31'],
    ['a non-date for DATE_BEFORE', { contextName: 'currentTime', operator: 'DATE_BEFORE', value: 'tomorrow' }, 'tomorrow'],
    ['an impossible date for DATE_AFTER', { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-13-45T25:00:00Z' }, '2024-13-45T25:00:00Z'],
    // RFC 3339 (section 5.7) limits the day to the days of the month: 30 February is not a date-time.
    ['a day the month does not have for DATE_AFTER', { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-02-30T00:00:00Z' }, '2024-02-30T00:00:00Z'],
    ['an invalid semver for SEMVER_EQ', { contextName: 'version', operator: 'SEMVER_EQ', value: '1.2' }, '1.2'],
    ['an invalid semver for SEMVER_LT', { contextName: 'version', operator: 'SEMVER_LT', value: 'v-one' }, 'v-one'],
    // Semantic Versioning 2.0.0 (FAQ): "v1.2.3" is not a semantic version.
    ['a v-prefixed version for SEMVER_GT', { contextName: 'version', operator: 'SEMVER_GT', value: 'v1.2.3' }, 'v1.2.3'],
    ['a pattern that does not compile for REGEX', { contextName: 'userId', operator: 'REGEX', value: '([a-z' }, '([a-z'],
    ['empty values for IN', { contextName: 'userId', operator: 'IN', values: [] }, 'values'],
    ['no values for NOT_IN', { contextName: 'userId', operator: 'NOT_IN' }, 'values'],
    ['no value for NUM_LT', { contextName: 'age', operator: 'NUM_LT' }, 'value'],
    ['an unknown operator', { contextName: 'userId', operator: 'LIKE', values: ['a'] }, 'operator'],
  ])('refuses %s with 400 naming it, adding nothing', async (_case, constraint, mention) => {
    const name = await newFlag('op-bad');
    const before = await latestEventId();
    const response = await call(app, 'POST', strategiesPath(name), { body: { name: 'default', constraints: [constraint] } });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(mention);
    expect(error.message).toContain('constraints');
    expect(await listStrategies(name)).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('checks constraint values on PUT as well', async () => {
    const name = await newFlag('op-put');
    const original = await addStrategy(name, { name: 'default' });
    const before = await latestEventId();
    const response = await app.admin.PUT(strategyRoute, {
      ...strategyParams(name, original.id),
      body: { name: 'default', constraints: [{ contextName: 'version', operator: 'SEMVER_GTE', value: 'latest' }] },
    });
    expect(expectError(response, 400, 'ValidationError').message).toContain('latest');
    expect(await listStrategies(name)).toEqual([original]);
    expect(await eventsSince(before)).toEqual([]);
  });
});

describe('strategy variants', () => {
  it('keeps fixed weights and shares the rest among the variable ones', async () => {
    const name = await newFlag('sv-mixed');
    const strategy = await addStrategy(name, {
      name: 'flexibleRollout',
      variants: [
        { name: 'fixed', weightType: 'fix', weight: 200, payload: { type: 'json', value: '{"a":1}' } },
        { name: 'var-one', weightType: 'variable', payload: { type: 'csv', value: 'a,b,c' } },
        { name: 'var-two', payload: { type: 'number', value: '7' } },
      ],
    });
    expect(strategy.variants.map((v) => [v.name, v.weight, v.weightType])).toEqual([
      ['fixed', 200, 'fix'],
      ['var-one', 400, 'variable'],
      ['var-two', 400, 'variable'],
    ]);
    expect(strategy.variants.map((v) => v.stickiness)).toEqual(['default', 'default', 'default']);
    expect(strategy.variants[0]!.payload).toEqual({ type: 'json', value: '{"a":1}' });
  });

  it('gives three variable variants 334, 333 and 333', async () => {
    const name = await newFlag('sv-three');
    const strategy = await addStrategy(name, {
      name: 'default',
      variants: [{ name: 'one', weight: 10 }, { name: 'two' }, { name: 'three', weightType: 'variable' }],
    });
    const weights = strategy.variants.map((v) => v.weight!);
    expect(weights).toEqual([334, 333, 333]);
    expect(weights.reduce((a, b) => a + b, 0)).toBe(1000);
  });

  it.each<[string, StrategyVariant[], string]>([
    ['a json payload that does not parse', [{ name: 'broken', payload: { type: 'json', value: '{nope' } }], 'broken'],
    ['duplicate variant names', [{ name: 'twin' }, { name: 'twin' }], 'twin'],
    ['fixed weights above 1000', [{ name: 'big', weightType: 'fix', weight: 700 }, { name: 'bigger', weightType: 'fix', weight: 600 }, { name: 'rest' }], '1300'],
  ])('refuses %s with 400, adding nothing', async (_case, variants, mention) => {
    const name = await newFlag('sv-bad');
    const before = await latestEventId();
    const response = await app.admin.POST(strategiesRoute, { params: { path: envPath(name) }, body: { name: 'default', variants } });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(mention);
    expect(await listStrategies(name)).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });
});
