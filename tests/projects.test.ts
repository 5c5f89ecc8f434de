import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures, ok } from './support/fixtures.js';

type CreateProject = components['schemas']['CreateProject'];
type UpdateProject = components['schemas']['UpdateProject'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { createFlag, archiveFlag } = fixtures(() => app, unique);

const { latestEventId, eventsSince } = eventReader(() => app);

async function createProject(body: { id: string; name?: string; description?: string; mode?: 'open' | 'protected' | 'private'; defaultStickiness?: string; environments?: string[] }) {
  const result = await app.admin.POST('/api/admin/projects', { body: { name: `Project ${body.id}`, ...body } });
  expect(result.response.status, JSON.stringify(result.error)).toBe(201);
  return result.data!;
}

const updateProject = (projectId: string, body: UpdateProject) => app.admin.PUT('/api/admin/projects/{projectId}', { params: { path: { projectId } }, body });

async function getProject(projectId: string) {
  const result = await app.admin.GET('/api/admin/projects/{projectId}', { params: { path: { projectId } } });
  return result;
}

describe('projects: list and get', () => {
  it('lists the default project with both environments of a fresh install', async () => {
    const { data, response } = await app.admin.GET('/api/admin/projects');
    expect(response.status).toBe(200);
    expect(data!.version).toBe(1);
    const project = data!.projects.find((p) => p.id === 'default');
    expect(project).toMatchObject({ id: 'default', name: 'Default', mode: 'open', defaultStickiness: 'default', environments: ['development', 'production'] });
  });

  it('lists a created project with its active flag count', async () => {
    const id = unique('listed');
    await createProject({ id });
    await createFlag(id, unique('listed-flag'));
    const archived = unique('listed-archived');
    await createFlag(id, archived);
    await archiveFlag(id, archived);
    const { data } = await app.admin.GET('/api/admin/projects');
    expect(data!.projects.find((p) => p.id === id)).toMatchObject({ id, name: `Project ${id}`, featureCount: 1 });
  });

  it('gets one project', async () => {
    const id = unique('got');
    await createProject({ id, description: 'described' });
    const { data, response } = await getProject(id);
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id, name: `Project ${id}`, description: 'described', mode: 'open', featureCount: 0, environments: ['development', 'production'] });
    expect(Number.isNaN(Date.parse(data!.createdAt))).toBe(false);
  });

  it('answers 404 for an unknown project', async () => {
    expectError(await getProject('no-such-project'), 404, 'NotFoundError');
  });

  it('answers 401 without a token', async () => {
    expectError(await app.clientWith().GET('/api/admin/projects'), 401, 'AuthenticationRequired');
  });
});

describe('projects: create', () => {
  it('creates a project with 201, a location, the defaults and one project-created event', async () => {
    const id = unique('created');
    const before = await latestEventId();
    const { data, response } = await app.admin.POST('/api/admin/projects', { body: { id, name: 'Created project', description: 'A project' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/api/admin/projects/${id}`);
    expect(data).toMatchObject({
      id,
      name: 'Created project',
      description: 'A project',
      mode: 'open',
      defaultStickiness: 'default',
      featureCount: 0,
      environments: ['development', 'production'],
    });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['project-created']);
    expect(events[0]).toMatchObject({ project: id, featureName: null, environment: null, data: { id, name: 'Created project' } });
    expect((await getProject(id)).response.status).toBe(200);
  });

  it('keeps the mode, stickiness and environments sent', async () => {
    const id = unique('chosen');
    const data = await createProject({ id, mode: 'protected', defaultStickiness: 'userId', environments: ['production'] });
    expect(data).toMatchObject({ mode: 'protected', defaultStickiness: 'userId', environments: ['production'] });
    const { data: read } = await getProject(id);
    expect(read).toMatchObject({ mode: 'protected', defaultStickiness: 'userId', environments: ['production'] });
  });

  it('refuses an existing id with 409 NameExistsError and writes nothing', async () => {
    const id = unique('twice');
    await createProject({ id, name: 'First' });
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects', { body: { id, name: 'Second' } });
    expectError(result, 409, 'NameExistsError');
    expect(await eventsSince(before)).toEqual([]);
    expect((await getProject(id)).data!.name).toBe('First');
  });

  async function expectNotCreated(send: () => Promise<Parameters<typeof expectError>[0]>, id: string | undefined, field: string) {
    const before = await latestEventId();
    const error = expectError(await send(), 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect(await eventsSince(before)).toEqual([]);
    if (id) expect((await getProject(id)).response.status).not.toBe(200);
  }

  it.each<[string, CreateProject, string]>([
    ['an id that is not URL-safe', { id: 'has space', name: 'x' }, 'body.id'],
    ['an id of 101 characters', { id: 'p'.repeat(101), name: 'x' }, 'body.id'],
    ['an empty id', { id: '', name: 'x' }, 'body.id'],
    ['a whitespace-only name', { id: 'bad-name', name: '   ' }, 'body.name'],
    ['an empty name', { id: 'bad-name', name: '' }, 'body.name'],
    ['an unknown environment', { id: 'bad-env', name: 'x', environments: ['nowhere'] }, 'environments'],
  ])('refuses %s with 400 naming the field and creates nothing', async (_case, body, field) => {
    await expectNotCreated(() => app.admin.POST('/api/admin/projects', { body }), body.id, field);
  });

  // Bodies the types forbid, so sent raw.
  it.each([
    ['an unknown mode', { id: 'bad-mode', name: 'x', mode: 'secret' }, 'body.mode'],
    ['an unknown field', { id: 'bad-field', name: 'x', colour: 'red' }, 'colour'],
    ['no name', { id: 'no-name' }, 'name'],
    ['no id', { name: 'x' }, 'id'],
    ['a name of the wrong type', { id: 'bad-type', name: 42 }, 'body.name'],
  ])('refuses %s with 400 naming the field and creates nothing', async (_case, body, field) => {
    await expectNotCreated(() => call(app, 'POST', '/api/admin/projects', { body }), (body as { id?: string }).id, field);
  });

  it('refuses a body that is not JSON with 415 and creates nothing', async () => {
    const id = unique('text');
    const before = await latestEventId();
    const response = await call(app, 'POST', '/api/admin/projects', { body: JSON.stringify({ id, name: 'x' }), contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expect(await eventsSince(before)).toEqual([]);
    expectError(await getProject(id), 404, 'NotFoundError');
  });
});

describe('projects: update', () => {
  it('changes only the fields sent, answers 200 with no body and records project-updated', async () => {
    const id = unique('updated');
    await createProject({ id, name: 'Old name', description: 'Kept', mode: 'protected', defaultStickiness: 'userId' });
    const before = await latestEventId();
    const { response } = await updateProject(id, { name: 'New name' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    const { data } = await getProject(id);
    expect(data).toMatchObject({ name: 'New name', description: 'Kept', mode: 'protected', defaultStickiness: 'userId' });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['project-updated']);
    expect(events[0]).toMatchObject({ project: id, data: { name: 'New name', description: 'Kept' }, preData: { name: 'Old name' } });
  });

  it('changes description, mode and default stickiness', async () => {
    const id = unique('reworked');
    await createProject({ id, description: 'first' });
    const result = await app.admin.PUT('/api/admin/projects/{projectId}', {
      params: { path: { projectId: id } },
      body: { name: `Project ${id}`, description: 'second', mode: 'private', defaultStickiness: 'sessionId' },
    });
    expect(result.response.status).toBe(200);
    const { data } = await getProject(id);
    expect(data).toMatchObject({ name: `Project ${id}`, description: 'second', mode: 'private', defaultStickiness: 'sessionId' });
  });

  it('writes no event for an update that changes nothing', async () => {
    const id = unique('unchanged');
    await createProject({ id, description: 'same' });
    const before = await latestEventId();
    expect((await updateProject(id, { name: `Project ${id}`, description: 'same' })).response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  async function expectUnchanged(send: (id: string) => Promise<Parameters<typeof expectError>[0]>, field: string) {
    const id = unique('invalid-update');
    await createProject({ id, name: 'Stays' });
    const before = await latestEventId();
    const error = expectError(await send(id), 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect((await getProject(id)).data).toMatchObject({ name: 'Stays', mode: 'open' });
    expect(await eventsSince(before)).toEqual([]);
  }

  it.each<[string, UpdateProject, string]>([
    ['a whitespace-only name', { name: ' \t ' }, 'body.name'],
    ['an empty name', { name: '' }, 'body.name'],
    ['an empty default stickiness', { name: 'x', defaultStickiness: '' }, 'body.defaultStickiness'],
  ])('refuses %s with 400 naming the field and changes nothing', async (_case, body, field) => {
    await expectUnchanged((id) => updateProject(id, body), field);
  });

  // Bodies the types forbid, so sent raw.
  it.each([
    ['an unknown mode', { name: 'x', mode: 'closed' }, 'body.mode'],
    ['an unknown field', { name: 'x', id: 'renamed' }, 'id'],
    ['a description of the wrong type', { name: 'x', description: 5 }, 'body.description'],
  ])('refuses %s with 400 naming the field and changes nothing', async (_case, body, field) => {
    await expectUnchanged((id) => call(app, 'PUT', `/api/admin/projects/${id}`, { body }), field);
  });

  it('refuses a body that is not JSON with 415 and changes nothing', async () => {
    const id = unique('plain-update');
    await createProject({ id, name: 'Stays' });
    const before = await latestEventId();
    const response = await call(app, 'PUT', `/api/admin/projects/${id}`, { body: 'name=Other', contentType: 'application/x-www-form-urlencoded' });
    expectError(response, 415, 'ContentTypeerror');
    expect((await getProject(id)).data!.name).toBe('Stays');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 when updating an unknown project and writes nothing', async () => {
    const before = await latestEventId();
    const result = await app.admin.PUT('/api/admin/projects/{projectId}', { params: { path: { projectId: 'ghost-project' } }, body: { name: 'Ghost' } });
    expectError(result, 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
  });
});

describe('projects: delete', () => {
  it('deletes an empty project with project-deleted', async () => {
    const id = unique('deleted');
    await createProject({ id });
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}', { params: { path: { projectId: id } } });
    expect(result.response.status).toBe(200);
    expectError(await getProject(id), 404, 'NotFoundError');
    const { data } = await app.admin.GET('/api/admin/projects');
    expect(data!.projects.map((p) => p.id)).not.toContain(id);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['project-deleted']);
    expect(events[0]).toMatchObject({ project: id });
  });

  it('deletes a project whose flags are all archived, and its archived flags with it', async () => {
    const id = unique('only-archived');
    await createProject({ id });
    const flag = unique('gone-with-project');
    await createFlag(id, flag);
    await archiveFlag(id, flag);
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}', { params: { path: { projectId: id } } });
    expect(result.response.status).toBe(200);
    expectError(await getProject(id), 404, 'NotFoundError');
    // The flag name is free again.
    await createFlag('default', flag);
  });

  it('refuses to delete default with 409 ConflictError', async () => {
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}', { params: { path: { projectId: 'default' } } });
    expectError(result, 409, 'ConflictError');
    expect((await getProject('default')).response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses to delete a project with an active flag with 409 ConflictError', async () => {
    const id = unique('busy');
    await createProject({ id });
    const flag = unique('busy-flag');
    await createFlag(id, flag);
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}', { params: { path: { projectId: id } } });
    expectError(result, 409, 'ConflictError');
    expect((await getProject(id)).data!.featureCount).toBe(1);
    const flagRead = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: id, featureName: flag } } });
    expect(flagRead.response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 when deleting an unknown project', async () => {
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}', { params: { path: { projectId: 'ghost-project' } } });
    expectError(result, 404, 'NotFoundError');
  });
});

describe('projects: environments', () => {
  it('adds an environment, gives the project flags a disabled configuration there, and records project-environment-added', async () => {
    const id = unique('add-env');
    await createProject({ id, environments: ['development'] });
    const flag = unique('add-env-flag');
    await createFlag(id, flag);
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/environments', { params: { path: { projectId: id } }, body: { environment: 'production' } });
    expect(result.response.status).toBe(200);
    expect((await getProject(id)).data!.environments).toEqual(['development', 'production']);
    const { data: feature } = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: id, featureName: flag } } });
    expect(feature!.environments.map((e) => [e.name, e.enabled])).toEqual([
      ['development', false],
      ['production', false],
    ]);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['project-environment-added']);
    expect(events[0]).toMatchObject({ project: id, environment: 'production', featureName: null });
  });

  it('refuses an environment already added with 409 and writes nothing', async () => {
    const id = unique('env-twice');
    await createProject({ id });
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/environments', { params: { path: { projectId: id } }, body: { environment: 'development' } });
    expectError(result, 409, 'ConflictError');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 for an unknown environment and writes nothing', async () => {
    const id = unique('env-unknown');
    await createProject({ id, environments: ['development'] });
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/environments', { params: { path: { projectId: id } }, body: { environment: 'staging-nowhere' } });
    expectError(result, 404, 'NotFoundError');
    expect((await getProject(id)).data!.environments).toEqual(['development']);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 for an unknown project', async () => {
    const result = await app.admin.POST('/api/admin/projects/{projectId}/environments', { params: { path: { projectId: 'ghost-project' } }, body: { environment: 'development' } });
    expectError(result, 404, 'NotFoundError');
  });

  async function expectNotAdded(send: (id: string) => Promise<Parameters<typeof expectError>[0]>, field: string) {
    const id = unique('env-invalid');
    await createProject({ id, environments: ['development'] });
    const error = expectError(await send(id), 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect((await getProject(id)).data!.environments).toEqual(['development']);
  }

  it('refuses an empty environment with 400 naming the field', async () => {
    await expectNotAdded(
      (projectId) => app.admin.POST('/api/admin/projects/{projectId}/environments', { params: { path: { projectId } }, body: { environment: '' } }),
      'body.environment',
    );
  });

  // Bodies the types forbid, so sent raw.
  it.each([
    ['no environment', {}, 'environment'],
    ['an unknown field', { environment: 'production', extra: true }, 'extra'],
  ])('refuses %s with 400 naming the field', async (_case, body, field) => {
    await expectNotAdded((id) => call(app, 'POST', `/api/admin/projects/${id}/environments`, { body }), field);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const id = unique('env-plain');
    await createProject({ id, environments: ['development'] });
    const response = await call(app, 'POST', `/api/admin/projects/${id}/environments`, { body: 'production', contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expect((await getProject(id)).data!.environments).toEqual(['development']);
  });

  it('removes an environment, with its flag configuration there, and records project-environment-removed', async () => {
    const id = unique('remove-env');
    await createProject({ id });
    const flag = unique('remove-env-flag');
    await createFlag(id, flag);
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}/environments/{environment}', {
      params: { path: { projectId: id, environment: 'production' } },
    });
    expect(result.response.status).toBe(200);
    expect((await getProject(id)).data!.environments).toEqual(['development']);
    const { data: feature } = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: id, featureName: flag } } });
    expect(feature!.environments.map((e) => e.name)).toEqual(['development']);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['project-environment-removed']);
    expect(events[0]).toMatchObject({ project: id, environment: 'production' });
  });

  it('answers 404 when removing an unknown environment and writes nothing', async () => {
    const id = unique('remove-unknown');
    await createProject({ id });
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}/environments/{environment}', {
      params: { path: { projectId: id, environment: 'nowhere' } },
    });
    expectError(result, 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 when removing from an unknown project', async () => {
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}/environments/{environment}', {
      params: { path: { projectId: 'ghost-project', environment: 'development' } },
    });
    expectError(result, 404, 'NotFoundError');
  });
});

describe('feature types', () => {
  it('lists the five built-in types with their lifetimes', async () => {
    const { data, response } = await app.admin.GET('/api/admin/feature-types');
    expect(response.status).toBe(200);
    expect(data!.version).toBe(1);
    expect(data!.types.map((t) => [t.id, t.lifetimeDays])).toEqual([
      ['release', 40],
      ['experiment', 40],
      ['operational', 7],
      ['kill-switch', null],
      ['permission', null],
    ]);
    expect(data!.types.find((t) => t.id === 'kill-switch')).toMatchObject({ name: 'Kill switch' });
  });

  it('answers 401 without a token', async () => {
    expectError(await app.clientWith().GET('/api/admin/feature-types'), 401, 'AuthenticationRequired');
  });
});

describe('projects: a long list', () => {
  // Each project's environments and flag count are looked up by key (they were once searched for per project and
  // environment). How long the list takes is measured by the bench, not here: here, that every row is still right.
  it('lists every project with each of its environments and its own flag count', async () => {
    const crowded = await startTestApp({ ownDatabase: true });
    const names = Array.from({ length: 12 }, (_, i) => `crowd-${i}`);
    await Promise.all(names.map((name) => ok(crowded.admin.POST('/api/admin/environments', { body: { name, type: 'test' } }), 201)));
    await Promise.all(names.map((id) => ok(crowded.admin.POST('/api/admin/projects', { body: { id, name: 'Crowd' } }), 201)));
    await Promise.all(
      names.flatMap((projectId, i) =>
        Array.from({ length: i % 3 }, (_, k) =>
          ok(crowded.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId } }, body: { name: `${projectId}-flag-${k}` } }), 201),
        ),
      ),
    );
    const { projects } = await ok(crowded.admin.GET('/api/admin/projects'), 200);
    const listed = new Map(projects.map((p) => [p.id, p]));
    names.forEach((id, i) => {
      expect(listed.get(id)?.featureCount, id).toBe(i % 3);
      expect(listed.get(id)?.environments, id).toHaveLength(names.length + 2);
    });
  });
});
