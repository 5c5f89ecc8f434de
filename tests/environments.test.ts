import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures, newApiToken } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { createFlag, turnOn } = fixtures(() => app, unique);

const { latestEventId, eventsSince } = eventReader(() => app);

async function getEnvironment(environment: string) {
  return app.admin.GET('/api/admin/environments/{environment}', { params: { path: { environment } } });
}

async function createEnvironment(name: string, extra: { type?: string; sortOrder?: number; enabled?: boolean } = {}) {
  const result = await app.admin.POST('/api/admin/environments', { body: { name, type: 'test', ...extra } });
  expect(result.response.status, JSON.stringify(result.error)).toBe(201);
  return result.data!;
}

const inEnvironment = (environment: string) => ({ params: { path: { environment } } });
const updateEnvironment = (environment: string, body: { type?: string; sortOrder?: number }) =>
  app.admin.PUT('/api/admin/environments/update/{environment}', { ...inEnvironment(environment), body });
const toggle = (environment: string, action: 'on' | 'off') =>
  action === 'on'
    ? app.admin.POST('/api/admin/environments/{environment}/on', inEnvironment(environment))
    : app.admin.POST('/api/admin/environments/{environment}/off', inEnvironment(environment));
const sortOrder = (body: Record<string, number>) => app.admin.PUT('/api/admin/environments/sort-order', { body });

async function listEnvironmentNames() {
  const { data } = await app.admin.GET('/api/admin/environments');
  return data!.environments.map((e) => e.name);
}

describe('environments: list and get', () => {
  // Runs first: later tests add environments to this file's database.
  it('lists development (2) and production (3) on a fresh install', async () => {
    const { data, response } = await app.admin.GET('/api/admin/environments');
    expect(response.status).toBe(200);
    expect(data!.version).toBe(1);
    expect(data!.environments).toEqual([
      expect.objectContaining({ name: 'development', type: 'development', enabled: true, protected: false, sortOrder: 2, projectCount: 1 }),
      expect.objectContaining({ name: 'production', type: 'production', enabled: true, protected: false, sortOrder: 3, projectCount: 1 }),
    ]);
  });

  it('gets one environment', async () => {
    const { data, response } = await getEnvironment('production');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ name: 'production', type: 'production', enabled: true, sortOrder: 3, projectCount: 1, apiTokenCount: 0 });
  });

  it('answers 404 for an unknown environment', async () => {
    expectError(await getEnvironment('nowhere'), 404, 'NotFoundError');
  });

  it('answers 401 without a token', async () => {
    expectError(await app.clientWith().GET('/api/admin/environments'), 401, 'AuthenticationRequired');
  });
});

describe('environments: create', () => {
  it('creates an environment with 201, attaches it to every project and records environment-created', async () => {
    const project = unique('env-project');
    const created = await app.admin.POST('/api/admin/projects', { body: { id: project, name: 'Env project' } });
    expect(created.response.status).toBe(201);
    const flag = unique('env-flag');
    await createFlag(project, flag);
    const name = unique('staging');
    const before = await latestEventId();
    const { data, response } = await app.admin.POST('/api/admin/environments', { body: { name, type: 'test', sortOrder: 5 } });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ name, type: 'test', enabled: true, protected: false, sortOrder: 5 });
    expect((await getEnvironment(name)).data).toMatchObject({ name, type: 'test', sortOrder: 5 });
    for (const projectId of ['default', project]) {
      const { data: read } = await app.admin.GET('/api/admin/projects/{projectId}', { params: { path: { projectId } } });
      expect(read!.environments).toContain(name);
    }
    const { data: feature } = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: project, featureName: flag } } });
    expect(feature!.environments.find((e) => e.name === name)).toMatchObject({ enabled: false, strategies: [] });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['environment-created']);
    expect(events[0]).toMatchObject({ environment: name, project: null, featureName: null, data: { name, type: 'test' } });
  });

  it('creates a disabled environment when asked', async () => {
    const name = unique('disabled-at-birth');
    const data = await createEnvironment(name, { enabled: false });
    expect(data.enabled).toBe(false);
    expect((await getEnvironment(name)).data!.enabled).toBe(false);
  });

  it('refuses an existing name with 409 NameExistsError and writes nothing', async () => {
    const name = unique('duplicate');
    await createEnvironment(name, { type: 'test' });
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/environments', { body: { name, type: 'production' } });
    expectError(result, 409, 'NameExistsError');
    expect((await getEnvironment(name)).data!.type).toBe('test');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses development, which exists on a fresh install, with 409', async () => {
    const result = await app.admin.POST('/api/admin/environments', { body: { name: 'development', type: 'development' } });
    expectError(result, 409, 'NameExistsError');
  });

  it.each([
    ['a name that is not URL-safe', { name: 'has space', type: 'test' }, 'body.name'],
    ['a name of 101 characters', { name: 'e'.repeat(101), type: 'test' }, 'body.name'],
    ['an empty name', { name: '', type: 'test' }, 'body.name'],
    ['no type', { name: 'typeless' }, 'type'],
    ['no name', { type: 'test' }, 'name'],
    ['a sort order that is not an integer', { name: 'bad-order', type: 'test', sortOrder: 'first' }, 'body.sortOrder'],
    ['enabled that is not a boolean', { name: 'bad-enabled', type: 'test', enabled: 'yes' }, 'body.enabled'],
    ['an unknown field', { name: 'bad-field', type: 'test', protected: true }, 'protected'],
  ])('refuses %s with 400 naming the field and creates nothing', async (_case, body, field) => {
    const names = await listEnvironmentNames();
    const before = await latestEventId();
    const response = await call(app, 'POST', '/api/admin/environments', { body });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect(await listEnvironmentNames()).toEqual(names);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a body that is not JSON with 415 and creates nothing', async () => {
    const name = unique('plain');
    const response = await call(app, 'POST', '/api/admin/environments', { body: JSON.stringify({ name, type: 'test' }), contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expectError(await getEnvironment(name), 404, 'NotFoundError');
  });
});

describe('environments: update', () => {
  it('changes the type only, keeping the sort order, and records environment-updated', async () => {
    const name = unique('retyped');
    await createEnvironment(name, { type: 'test', sortOrder: 40 });
    const before = await latestEventId();
    const { data, response } = await app.admin.PUT('/api/admin/environments/update/{environment}', {
      params: { path: { environment: name } },
      body: { type: 'production' },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ name, type: 'production', sortOrder: 40 });
    expect((await getEnvironment(name)).data).toMatchObject({ type: 'production', sortOrder: 40, enabled: true });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['environment-updated']);
    expect(events[0]).toMatchObject({ environment: name, data: { type: 'production', sortOrder: 40 }, preData: { type: 'test', sortOrder: 40 } });
  });

  it('changes the sort order only, keeping the type', async () => {
    const name = unique('reordered');
    await createEnvironment(name, { type: 'test', sortOrder: 41 });
    const { data } = await app.admin.PUT('/api/admin/environments/update/{environment}', { params: { path: { environment: name } }, body: { sortOrder: -7 } });
    expect(data).toMatchObject({ type: 'test', sortOrder: -7 });
    expect((await getEnvironment(name)).data).toMatchObject({ type: 'test', sortOrder: -7 });
  });

  it('writes no event for an update that changes nothing', async () => {
    const name = unique('same');
    await createEnvironment(name, { type: 'test', sortOrder: 42 });
    const before = await latestEventId();
    const response = await updateEnvironment(name, { type: 'test', sortOrder: 42 });
    expect(response.response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers the environment unchanged, with no event, for an empty body', async () => {
    const name = unique('empty');
    await createEnvironment(name, { type: 'test', sortOrder: 44 });
    const before = await latestEventId();
    const { data, error, response } = await updateEnvironment(name, {});
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data).toMatchObject({ name, type: 'test', sortOrder: 44 });
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['a type that is not URL-safe', { type: 'not safe' }, 'body.type'],
    ['a sort order that is not an integer', { sortOrder: 1.5 }, 'body.sortOrder'],
    ['a sort order out of range', { sortOrder: 100001 }, 'body.sortOrder'],
    ['an unknown field', { enabled: false }, 'enabled'],
  ])('refuses %s with 400 naming the field and changes nothing', async (_case, body, field) => {
    const name = unique('invalid-update');
    await createEnvironment(name, { type: 'test', sortOrder: 43 });
    const before = await latestEventId();
    const response = await call(app, 'PUT', `/api/admin/environments/update/${name}`, { body });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect((await getEnvironment(name)).data).toMatchObject({ type: 'test', sortOrder: 43, enabled: true });
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const name = unique('plain-update');
    await createEnvironment(name, { type: 'test' });
    const response = await call(app, 'PUT', `/api/admin/environments/update/${name}`, { body: 'type=production', contentType: 'application/x-www-form-urlencoded' });
    expectError(response, 415, 'ContentTypeerror');
    expect((await getEnvironment(name)).data!.type).toBe('test');
  });

  it('answers 404 for an unknown environment', async () => {
    const before = await latestEventId();
    const result = await app.admin.PUT('/api/admin/environments/update/{environment}', { params: { path: { environment: 'nowhere' } }, body: { type: 'test' } });
    expectError(result, 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
  });
});

describe('environments: sort order', () => {
  it('sets the sort order of several environments, and the list follows it', async () => {
    const first = unique('order-a');
    const second = unique('order-b');
    await createEnvironment(first, { sortOrder: 900 });
    await createEnvironment(second, { sortOrder: 901 });
    const before = await latestEventId();
    const response = await sortOrder({ [first]: 951, [second]: 950 });
    expect(response.response.status).toBe(200);
    expect((await getEnvironment(first)).data!.sortOrder).toBe(951);
    expect((await getEnvironment(second)).data!.sortOrder).toBe(950);
    const names = await listEnvironmentNames();
    expect(names.indexOf(second)).toBeLessThan(names.indexOf(first));
    const events = await eventsSince(before);
    expect(events.map((e) => [e.type, e.environment]).sort()).toEqual(
      [
        ['environment-updated', first],
        ['environment-updated', second],
      ].sort(),
    );
  });

  it('answers 404 when one environment is unknown, and changes none', async () => {
    const name = unique('order-kept');
    await createEnvironment(name, { sortOrder: 910 });
    const before = await latestEventId();
    const response = await sortOrder({ [name]: 911, nowhere: 912 });
    expectError(response, 404, 'NotFoundError');
    expect((await getEnvironment(name)).data!.sortOrder).toBe(910);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['an empty object', {}, 'body'],
    ['a sort order that is not an integer', { development: 'first' }, 'development'],
  ])('refuses %s with 400', async (_case, body, field) => {
    const response = await call(app, 'PUT', '/api/admin/environments/sort-order', { body });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect((await getEnvironment('development')).data!.sortOrder).toBe(2);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await call(app, 'PUT', '/api/admin/environments/sort-order', { body: 'development=9', contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expect((await getEnvironment('development')).data!.sortOrder).toBe(2);
  });
});

describe('environments: enable and disable', () => {
  it('disables and enables an environment with 204', async () => {
    const name = unique('toggled');
    await createEnvironment(name);
    const off = await toggle(name, 'off');
    expect(off.response.status).toBe(204);
    // The client leaves a 204's body unread.
    expect(await off.response.text()).toBe('');
    expect((await getEnvironment(name)).data!.enabled).toBe(false);
    const on = await toggle(name, 'on');
    expect(on.response.status).toBe(204);
    expect((await getEnvironment(name)).data!.enabled).toBe(true);
  });

  it('does not attach a disabled environment to a new project', async () => {
    const name = unique('off-for-new');
    await createEnvironment(name);
    expect((await toggle(name, 'off')).response.status).toBe(204);
    const project = unique('after-off');
    const { data } = await app.admin.POST('/api/admin/projects', { body: { id: project, name: 'After off' } });
    expect(data!.environments).not.toContain(name);
    expect((await toggle(name, 'on')).response.status).toBe(204);
  });

  it('writes no event when enabling an enabled environment', async () => {
    const name = unique('already-on');
    await createEnvironment(name);
    const before = await latestEventId();
    expect((await toggle(name, 'on')).response.status).toBe(204);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each(['on', 'off'] as const)('answers 404 for an unknown environment (%s)', async (action) => {
    const before = await latestEventId();
    expectError(await toggle('nowhere', action), 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
  });
});

describe('environments: delete', () => {
  it('deletes an unused environment, takes it off every project and records environment-deleted', async () => {
    const name = unique('doomed');
    await createEnvironment(name);
    const flag = unique('doomed-flag');
    await createFlag('default', flag);
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/environments/{environment}', { params: { path: { environment: name } } });
    expect(result.response.status).toBe(200);
    expectError(await getEnvironment(name), 404, 'NotFoundError');
    expect(await listEnvironmentNames()).not.toContain(name);
    const { data: project } = await app.admin.GET('/api/admin/projects/{projectId}', { params: { path: { projectId: 'default' } } });
    expect(project!.environments).not.toContain(name);
    const { data: feature } = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', {
      params: { path: { projectId: 'default', featureName: flag } },
    });
    expect(feature!.environments.map((e) => e.name)).not.toContain(name);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['environment-deleted']);
    expect(events[0]).toMatchObject({ environment: name });
  });

  it('refuses to delete an environment a token is scoped to with 409 ConflictError', async () => {
    const name = unique('token-env');
    await createEnvironment(name);
    await newApiToken(app, { type: 'client', environment: name });
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/environments/{environment}', { params: { path: { environment: name } } });
    expectError(result, 409, 'ConflictError');
    expect((await getEnvironment(name)).data).toMatchObject({ name, apiTokenCount: 1 });
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses to delete an environment where a flag has a strategy with 409 ConflictError', async () => {
    const name = unique('strategy-env');
    await createEnvironment(name);
    const flag = unique('strategy-flag');
    await createFlag('default', flag);
    const strategy = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: { projectId: 'default', featureName: flag, environment: name } },
      body: { name: 'default' },
    });
    expect(strategy.response.status).toBe(200);
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/environments/{environment}', { params: { path: { environment: name } } });
    expectError(result, 409, 'ConflictError');
    expect((await getEnvironment(name)).response.status).toBe(200);
    const strategies = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: { projectId: 'default', featureName: flag, environment: name } },
    });
    expect(strategies.data).toHaveLength(1);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses to delete an environment where a flag is enabled with 409 ConflictError', async () => {
    const name = unique('enabled-env');
    await createEnvironment(name);
    const flag = unique('enabled-flag');
    await createFlag('default', flag);
    await turnOn(flag, name);
    // Leave the flag enabled there with no strategy, so that only "enabled" keeps the environment in use.
    await app.db.delete(t.featureStrategies).where(eq(t.featureStrategies.featureName, flag));
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/environments/{environment}', { params: { path: { environment: name } } });
    expectError(result, 409, 'ConflictError');
    expect((await getEnvironment(name)).data).toMatchObject({ name, enabledToggleCount: 1 });
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 when deleting an unknown environment', async () => {
    const result = await app.admin.DELETE('/api/admin/environments/{environment}', { params: { path: { environment: 'nowhere' } } });
    expectError(result, 404, 'NotFoundError');
  });
});
