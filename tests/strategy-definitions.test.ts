import { beforeAll, describe, expect, it } from 'vitest';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newFlag } = fixtures(() => app, unique);

const BUILT_INS = ['flexibleRollout', 'default', 'remoteAddress', 'applicationHostname'];

const { latestEventId, eventsSince } = eventReader(() => app);

async function createDefinition(name: string) {
  const result = await app.admin.POST('/api/admin/strategies', {
    body: { name, title: 'Custom', description: 'A custom strategy', parameters: [{ name: 'region', type: 'string' }] },
  });
  expect(result.response.status).toBe(201);
  return result.data!;
}

async function getDefinition(strategyName: string) {
  return app.admin.GET('/api/admin/strategies/{strategyName}', { params: { path: { strategyName } } });
}

async function listNames() {
  const { data } = await app.admin.GET('/api/admin/strategies');
  return data!.strategies.map((s) => s.name);
}

describe('strategy definitions', () => {
  it('lists the built-in strategies as not editable', async () => {
    const { data, response } = await app.admin.GET('/api/admin/strategies');
    expect(response.status).toBe(200);
    expect(data!.version).toBe(1);
    for (const name of BUILT_INS) {
      expect(data!.strategies).toContainEqual(expect.objectContaining({ name, editable: false, deprecated: false }));
    }
    const flexible = data!.strategies.find((s) => s.name === 'flexibleRollout')!;
    expect(flexible.parameters.map((p) => p.name)).toEqual(['rollout', 'stickiness', 'groupId']);
    expect(flexible.displayName).toBe(flexible.title);
  });

  it('gets one built-in strategy, and answers 404 for an unknown one', async () => {
    const { data, response } = await getDefinition('remoteAddress');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ name: 'remoteAddress', editable: false, parameters: [{ name: 'IPs', type: 'list', required: true }] });
    expectError(await getDefinition('noSuchStrategy'), 404, 'NotFoundError');
  });

  it('creates a custom strategy with 201, a location and one event', async () => {
    const name = unique('custom');
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/strategies', {
      body: {
        name,
        title: 'By region',
        description: 'Turns on for some regions',
        parameters: [
          { name: 'regions', type: 'list', description: 'Region codes', required: true },
          { name: 'percent', type: 'percentage' },
        ],
      },
    });
    expect(result.response.status).toBe(201);
    expect(result.response.headers.get('location')).toBe(`/api/admin/strategies/${name}`);
    const expected = {
      name,
      displayName: 'By region',
      title: 'By region',
      description: 'Turns on for some regions',
      editable: true,
      deprecated: false,
      parameters: [
        { name: 'regions', type: 'list', description: 'Region codes', required: true },
        { name: 'percent', type: 'percentage', description: '', required: false },
      ],
    };
    expect(result.data).toEqual(expected);
    expect((await getDefinition(name)).data).toEqual(expected);
    expect(await listNames()).toContain(name);

    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'strategy-created', data: expected });
  });

  it.each([['a custom name', 'custom-dup'], ['a built-in name', 'default']])('refuses a duplicate of %s with 409, writing nothing', async (_case, base) => {
    const name = base === 'default' ? base : unique(base);
    if (base !== 'default') await createDefinition(name);
    const before = await latestEventId();
    expectError(await app.admin.POST('/api/admin/strategies', { body: { name, description: 'again' } }), 409, 'NameExistsError');
    expect((await listNames()).filter((n) => n === name)).toHaveLength(1);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['a name with a space', { name: 'has space' }, 'name'],
    ['a parameter defined twice', { name: 'twice-param', parameters: [{ name: 'p', type: 'string' }, { name: 'p', type: 'number' }] }, 'p'],
    ['an unknown parameter type', { name: 'bad-type', parameters: [{ name: 'p', type: 'date' }] }, 'type'],
    ['an unknown field', { name: 'extra-field', colour: 'red' }, 'colour'],
  ])('refuses %s with 400, adding nothing', async (_case, body, mention) => {
    const before = await latestEventId();
    const error = expectError(await call(app, 'POST', '/api/admin/strategies', { body }), 400, 'ValidationError');
    expect(error.message).toContain(mention);
    expect(await listNames()).not.toContain(body.name);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('updates a custom strategy and records data and preData', async () => {
    const name = unique('updatable');
    const created = await createDefinition(name);
    const before = await latestEventId();
    const result = await app.admin.PUT('/api/admin/strategies/{strategyName}', {
      params: { path: { strategyName: name } },
      body: { name, title: 'Renamed title', description: 'Changed', parameters: [{ name: 'zone', type: 'number', required: true }] },
    });
    expect(result.response.status).toBe(200);
    const after = (await getDefinition(name)).data!;
    expect(after).toMatchObject({
      name,
      title: 'Renamed title',
      displayName: 'Renamed title',
      description: 'Changed',
      editable: true,
      parameters: [{ name: 'zone', type: 'number', description: '', required: true }],
    });
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'strategy-updated', data: after, preData: created });
  });

  it('answers 200 and records nothing for an update that sends only the name', async () => {
    const name = unique('untouched');
    const created = await createDefinition(name);
    const since = await latestEventId();
    const updated = await app.admin.PUT('/api/admin/strategies/{strategyName}', { params: { path: { strategyName: name } }, body: { name } });
    expect(updated.response.status, JSON.stringify(updated.error)).toBe(200);
    expect(await eventsSince(since)).toEqual([]);
    expect((await getDefinition(name)).data).toEqual(created);
  });

  it('refuses to rename a strategy with 400, to change a built-in with 409, and an unknown one with 404', async () => {
    const name = unique('fixed-name');
    const created = await createDefinition(name);
    const before = await latestEventId();
    const rename = await app.admin.PUT('/api/admin/strategies/{strategyName}', { params: { path: { strategyName: name } }, body: { name: `${name}-new` } });
    expectError(rename, 400, 'ValidationError');
    expect((await getDefinition(name)).data).toEqual(created);
    expectError(await getDefinition(`${name}-new`), 404, 'NotFoundError');

    const builtIn = await app.admin.PUT('/api/admin/strategies/{strategyName}', {
      params: { path: { strategyName: 'default' } },
      body: { name: 'default', description: 'hijacked' },
    });
    expectError(builtIn, 409, 'ConflictError');
    expect((await getDefinition('default')).data!.description).not.toBe('hijacked');

    const unknown = await app.admin.PUT('/api/admin/strategies/{strategyName}', { params: { path: { strategyName: 'ghostStrategy' } }, body: { name: 'ghostStrategy' } });
    expectError(unknown, 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('deprecates and reactivates a strategy, once each', async () => {
    const name = unique('deprecable');
    await createDefinition(name);
    let before = await latestEventId();
    const deprecate = () => app.admin.POST('/api/admin/strategies/{strategyName}/deprecate', { params: { path: { strategyName: name } } });
    const reactivate = () => app.admin.POST('/api/admin/strategies/{strategyName}/reactivate', { params: { path: { strategyName: name } } });

    expect((await deprecate()).response.status).toBe(200);
    expect((await getDefinition(name)).data!.deprecated).toBe(true);
    let events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'strategy-deprecated', data: { name, deprecated: true } });

    before = await latestEventId();
    expect((await deprecate()).response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);

    expect((await reactivate()).response.status).toBe(200);
    expect((await getDefinition(name)).data!.deprecated).toBe(false);
    events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'strategy-reactivated', data: { name, deprecated: false } });

    before = await latestEventId();
    expect((await reactivate()).response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 when deprecating or reactivating an unknown strategy', async () => {
    expectError(await app.admin.POST('/api/admin/strategies/{strategyName}/deprecate', { params: { path: { strategyName: 'ghostStrategy' } } }), 404, 'NotFoundError');
    expectError(await app.admin.POST('/api/admin/strategies/{strategyName}/reactivate', { params: { path: { strategyName: 'ghostStrategy' } } }), 404, 'NotFoundError');
  });

  it('refuses to delete a strategy a flag uses with 409, and deletes it once unused', async () => {
    const name = unique('used-custom');
    const created = await createDefinition(name);
    const flag = await newFlag('custom-user');
    const added = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: { projectId: 'default', featureName: flag, environment: 'production' } },
      body: { name, parameters: { region: 'eu' } },
    });
    expect(added.response.status).toBe(200);
    expect(added.data).toMatchObject({ name, parameters: { region: 'eu' } });

    let before = await latestEventId();
    expectError(await app.admin.DELETE('/api/admin/strategies/{strategyName}', { params: { path: { strategyName: name } } }), 409, 'ConflictError');
    expect((await getDefinition(name)).data).toEqual(created);
    expect(await eventsSince(before)).toEqual([]);

    const removed = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { projectId: 'default', featureName: flag, environment: 'production', strategyId: added.data!.id } },
    });
    expect(removed.response.status).toBe(200);

    before = await latestEventId();
    const deleted = await app.admin.DELETE('/api/admin/strategies/{strategyName}', { params: { path: { strategyName: name } } });
    expect(deleted.response.status).toBe(200);
    expectError(await getDefinition(name), 404, 'NotFoundError');
    expect(await listNames()).not.toContain(name);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'strategy-deleted', preData: created });

    const reuse = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: { projectId: 'default', featureName: flag, environment: 'production' } },
      body: { name },
    });
    expectError(reuse, 400, 'ValidationError');
  });

  it.each(BUILT_INS)('never deletes the built-in %s', async (name) => {
    const before = await latestEventId();
    expectError(await app.admin.DELETE('/api/admin/strategies/{strategyName}', { params: { path: { strategyName: name } } }), 409, 'ConflictError');
    expect((await getDefinition(name)).response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 when deleting an unknown strategy', async () => {
    expectError(await app.admin.DELETE('/api/admin/strategies/{strategyName}', { params: { path: { strategyName: 'ghostStrategy' } } }), 404, 'NotFoundError');
  });
});
