import { beforeAll, describe, expect, it } from 'vitest';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures, flagPath, inProject } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newProject, createFlag, archiveFlag } = fixtures(() => app, unique);

const { latestEventId, eventsSince } = eventReader(() => app);

async function getFlag(projectId: string, featureName: string) {
  return app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId, featureName } } });
}

async function listFlagNames(projectId: string) {
  const { data, response } = await app.admin.GET('/api/admin/projects/{projectId}/features', { params: { path: { projectId } } });
  expect(response.status).toBe(200);
  return data!.features.map((f) => f.name);
}

const flagRoute = '/api/admin/projects/{projectId}/features/{featureName}';

/** A flag of the project, archived. */
async function archivedFlag(projectId: string, prefix = 'archived') {
  const name = unique(prefix);
  await createFlag(projectId, name);
  await archiveFlag(projectId, name);
  return name;
}

describe('flags: create', () => {
  it('creates a flag with 201, a location, disabled in every environment, and records feature-created', async () => {
    const project = await newProject();
    const name = unique('created');
    const before = await latestEventId();
    const { data, response } = await app.admin.POST('/api/admin/projects/{projectId}/features', {
      params: { path: { projectId: project } },
      body: { name, description: 'A new flag', impressionData: true },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/api/admin/projects/${project}/features/${name}`);
    expect(data).toMatchObject({ name, project, type: 'release', description: 'A new flag', stale: false, impressionData: true, archived: false, tags: [] });
    expect(data).not.toHaveProperty('archivedAt');
    expect(data!.environments.map((e) => [e.name, e.enabled, e.strategies.length])).toEqual([
      ['development', false, 0],
      ['production', false, 0],
    ]);
    const read = await getFlag(project, name);
    expect(read.response.status).toBe(200);
    expect(read.data).toMatchObject({ name, project, type: 'release', description: 'A new flag', impressionData: true });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-created']);
    expect(events[0]).toMatchObject({ featureName: name, project, environment: null, data: { name, project, type: 'release', description: 'A new flag' } });
  });

  it.each([
    ['release', 'release'],
    ['experiment', 'experiment'],
    ['operational', 'operational'],
    ['kill-switch', 'kill-switch'],
    ['killswitch', 'kill-switch'],
    ['permission', 'permission'],
  ])('accepts the type %s as %s', async (type, stored) => {
    const project = await newProject();
    const name = unique(`typed-${type}`);
    const created = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: project } }, body: { name, type } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    expect(created.data!.type).toBe(stored);
    expect((await getFlag(project, name)).data!.type).toBe(stored);
  });

  it('accepts a name of 100 URL-safe characters', async () => {
    const name = `${unique('long')}-._~!*'()`.padEnd(100, 'x');
    expect(name).toHaveLength(100);
    const created = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'default' } }, body: { name } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    expect(created.data!.name).toBe(name);
    expect((await getFlag('default', name)).response.status).toBe(200);
  });

  it('refuses an unknown type with 400 naming type and creates nothing', async () => {
    const project = await newProject();
    const name = unique('badly-typed');
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/features', { ...inProject(project), body: { name, type: 'feature' } });
    const error = expectError(result, 400, 'ValidationError');
    expect(error.message).toContain('type');
    expectError(await getFlag(project, name), 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['an empty name', { name: '' }, 'body.name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'body.name'],
    ['a name with a space', { name: 'has space' }, 'body.name'],
    ['a name with a slash', { name: 'a/b' }, 'body.name'],
    ['the name ..', { name: '..' }, 'body.name'],
    ['a name of the wrong type', { name: 7 }, 'body.name'],
    ['no name', { description: 'nameless' }, 'name'],
    ['an unknown field', { name: 'extra-field', enabled: true }, 'enabled'],
    ['impressionData that is not a boolean', { name: 'bad-impression', impressionData: 'yes' }, 'body.impressionData'],
    ['a tag with a one-character value', { name: 'bad-tag', tags: [{ type: 'simple', value: 'x' }] }, 'value'],
  ])('refuses %s with 400 naming the field and creates nothing', async (_case, body, field) => {
    const project = await newProject();
    const before = await latestEventId();
    const response = await call(app, 'POST', `/api/admin/projects/${project}/features`, { body });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect(await listFlagNames(project)).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses the name of an active flag of the same project with 409 NameExistsError', async () => {
    const project = await newProject();
    const name = unique('taken');
    await createFlag(project, name, { description: 'first' });
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: project } }, body: { name, description: 'second' } });
    expectError(result, 409, 'NameExistsError');
    expect((await getFlag(project, name)).data!.description).toBe('first');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses the name of an active flag of another project with 409 NameExistsError', async () => {
    const first = await newProject();
    const second = await newProject();
    const name = unique('taken-elsewhere');
    await createFlag(first, name);
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: second } }, body: { name } });
    expectError(result, 409, 'NameExistsError');
    expect(await listFlagNames(second)).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses the name of an archived flag with 409 NameExistsError', async () => {
    const project = await newProject();
    const name = await archivedFlag(project);
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: project } }, body: { name } });
    expectError(result, 409, 'NameExistsError');
    expectError(await getFlag(project, name), 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 for an unknown project and writes nothing', async () => {
    const name = unique('homeless');
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'ghost-project' } }, body: { name } });
    expectError(result, 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
    // The name was not taken.
    await createFlag('default', name);
  });

  it('checks 415 before 400 and 400 before 404', async () => {
    expectError(await call(app, 'POST', '/api/admin/projects/ghost-project/features', { body: '{"name":"has space"}', contentType: 'text/plain' }), 415, 'ContentTypeerror');
    expectError(await app.admin.POST('/api/admin/projects/{projectId}/features', { ...inProject('ghost-project'), body: { name: 'has space' } }), 400, 'ValidationError');
  });

  it('refuses a body that is not JSON with 415 and creates nothing', async () => {
    const project = await newProject();
    const response = await call(app, 'POST', `/api/admin/projects/${project}/features`, { body: JSON.stringify({ name: 'plain' }), contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expect(await listFlagNames(project)).toEqual([]);
  });

  it('attaches the tags of the create body, creating a missing tag, with its events', async () => {
    const project = await newProject();
    const name = unique('tagged');
    const value = unique('fresh-tag');
    const before = await latestEventId();
    const { data, response } = await app.admin.POST('/api/admin/projects/{projectId}/features', {
      params: { path: { projectId: project } },
      body: { name, tags: [{ type: 'simple', value }] },
    });
    expect(response.status).toBe(201);
    expect(data!.tags).toEqual([{ type: 'simple', value }]);
    expect((await getFlag(project, name)).data!.tags).toEqual([{ type: 'simple', value }]);
    const { data: tags } = await app.admin.GET('/api/admin/tags/{type}', { params: { path: { type: 'simple' } } });
    expect(tags!.tags).toContainEqual({ type: 'simple', value });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-created', 'tag-created', 'feature-tagged']);
    expect(events[2]).toMatchObject({ featureName: name, project, data: { type: 'simple', value } });
  });

  it('refuses a tag of an unknown tag type with 400, creating neither flag nor tag', async () => {
    const project = await newProject();
    const name = unique('badly-tagged');
    const before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/features', {
      ...inProject(project),
      body: { name, tags: [{ type: 'no-such-type', value: 'orphan' }] },
    });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain('no-such-type');
    expectError(await getFlag(project, name), 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
    // The name is still free.
    await createFlag(project, name);
  });
});

describe('flags: get and list', () => {
  it('answers 404 for an unknown project', async () => {
    const name = unique('lonely');
    await createFlag('default', name);
    expectError(await getFlag('ghost-project', name), 404, 'NotFoundError');
  });

  it('answers 404 for an unknown flag', async () => {
    expectError(await getFlag('default', 'no-such-flag'), 404, 'NotFoundError');
  });

  it('answers 404 for a flag of another project', async () => {
    const project = await newProject();
    const name = unique('elsewhere');
    await createFlag(project, name);
    expectError(await getFlag('default', name), 404, 'NotFoundError');
  });

  it('answers 404 for an archived flag', async () => {
    const project = await newProject();
    const name = await archivedFlag(project);
    expectError(await getFlag(project, name), 404, 'NotFoundError');
  });

  it("lists the project's active flags only", async () => {
    const project = await newProject();
    const other = await newProject();
    const first = unique('listed');
    const second = unique('listed');
    await createFlag(project, first);
    await createFlag(project, second);
    await createFlag(other, unique('not-listed'));
    await archivedFlag(project);
    const { data, response } = await app.admin.GET('/api/admin/projects/{projectId}/features', { params: { path: { projectId: project } } });
    expect(response.status).toBe(200);
    expect(data!.version).toBe(1);
    expect(data!.features.map((f) => f.name).sort()).toEqual([first, second].sort());
    expect(data!.features.every((f) => f.project === project && !f.archived)).toBe(true);
  });

  it('answers 404 when listing an unknown project', async () => {
    const result = await app.admin.GET('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'ghost-project' } } });
    expectError(result, 404, 'NotFoundError');
  });
});

describe('flags: update (PUT)', () => {
  it('changes only the fields sent and records feature-metadata-updated', async () => {
    const project = await newProject();
    const name = unique('put');
    await createFlag(project, name, { type: 'experiment', description: 'before', impressionData: true });
    const before = await latestEventId();
    const { data, response } = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}', {
      params: { path: { projectId: project, featureName: name } },
      body: { description: 'after' },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ name, type: 'experiment', description: 'after', impressionData: true, stale: false });
    expect((await getFlag(project, name)).data).toMatchObject({ type: 'experiment', description: 'after', impressionData: true, stale: false });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-metadata-updated']);
    expect(events[0]).toMatchObject({ featureName: name, project, data: { description: 'after', type: 'experiment' }, preData: { description: 'before' } });
  });

  it('changes the type, accepting killswitch, and impressionData', async () => {
    const project = await newProject();
    const name = unique('put-type');
    await createFlag(project, name);
    const { data } = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}', {
      params: { path: { projectId: project, featureName: name } },
      body: { type: 'killswitch', impressionData: true },
    });
    expect(data).toMatchObject({ type: 'kill-switch', impressionData: true });
    expect((await getFlag(project, name)).data).toMatchObject({ type: 'kill-switch', impressionData: true });
  });

  it('records feature-stale-on and feature-stale-off when stale changes', async () => {
    const project = await newProject();
    const name = unique('put-stale');
    await createFlag(project, name);
    let before = await latestEventId();
    const on = await app.admin.PUT(flagRoute, { params: { path: flagPath(name, project) }, body: { stale: true } });
    expect(on.response.status).toBe(200);
    expect((await getFlag(project, name)).data!.stale).toBe(true);
    let events = await eventsSince(before);
    expect(events.map((e) => e.type)).toContain('feature-stale-on');
    expect(events.map((e) => e.type)).not.toContain('feature-stale-off');
    expect(events.find((e) => e.type === 'feature-stale-on')).toMatchObject({ featureName: name, project });
    before = await latestEventId();
    const off = await app.admin.PUT(flagRoute, { params: { path: flagPath(name, project) }, body: { stale: false } });
    expect(off.response.status).toBe(200);
    expect((await getFlag(project, name)).data!.stale).toBe(false);
    events = await eventsSince(before);
    expect(events.map((e) => e.type)).toContain('feature-stale-off');
    expect(events.map((e) => e.type)).not.toContain('feature-stale-on');
  });

  it('writes no event for an update that changes nothing, also when the current name is sent', async () => {
    const project = await newProject();
    const name = unique('put-same');
    await createFlag(project, name, { description: 'same' });
    const before = await latestEventId();
    const response = await app.admin.PUT(flagRoute, {
      params: { path: flagPath(name, project) },
      body: { name, description: 'same', type: 'release', stale: false, impressionData: false },
    });
    expect(response.response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['a new name', (name: string) => ({ name: `${name}-renamed` }), 'name'],
    ['an unknown type', () => ({ type: 'feature' }), 'type'],
    ['stale that is not a boolean', () => ({ stale: 'yes' }), 'body.stale'],
    ['impressionData that is not a boolean', () => ({ impressionData: 1 }), 'body.impressionData'],
    ['a description of the wrong type', () => ({ description: 5 }), 'body.description'],
    ['an unknown field', () => ({ project: 'default' }), 'project'],
  ])('refuses %s with 400 naming the field and changes nothing', async (_case, makeBody, field) => {
    const project = await newProject();
    const name = unique('put-invalid');
    await createFlag(project, name, { description: 'kept' });
    const before = await latestEventId();
    const response = await call(app, 'PUT', `/api/admin/projects/${project}/features/${name}`, { body: makeBody(name) });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect((await getFlag(project, name)).data).toMatchObject({ name, type: 'release', description: 'kept', stale: false, impressionData: false });
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const project = await newProject();
    const name = unique('put-plain');
    await createFlag(project, name, { description: 'kept' });
    const response = await call(app, 'PUT', `/api/admin/projects/${project}/features/${name}`, { body: 'description=x', contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expect((await getFlag(project, name)).data!.description).toBe('kept');
  });

  it('answers 404 for an unknown flag, a flag of another project and an archived flag', async () => {
    const project = await newProject();
    const elsewhere = unique('put-elsewhere');
    await createFlag('default', elsewhere);
    const archived = await archivedFlag(project);
    const before = await latestEventId();
    for (const [projectId, featureName] of [
      [project, 'no-such-flag'],
      [project, elsewhere],
      [project, archived],
      ['ghost-project', elsewhere],
    ] as const) {
      const result = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}', {
        params: { path: { projectId, featureName } },
        body: { description: 'changed' },
      });
      expectError(result, 404, 'NotFoundError');
    }
    expect((await getFlag('default', elsewhere)).data).not.toHaveProperty('description');
    expect(await eventsSince(before)).toEqual([]);
  });
});

describe('flags: update (JSON patch)', () => {
  it('patches description, type, stale and impressionData with their events', async () => {
    const project = await newProject();
    const name = unique('patched');
    await createFlag(project, name, { description: 'before' });
    const before = await latestEventId();
    const { data, response } = await app.admin.PATCH('/api/admin/projects/{projectId}/features/{featureName}', {
      params: { path: { projectId: project, featureName: name } },
      body: [
        { op: 'replace', path: '/description', value: 'after' },
        { op: 'replace', path: '/type', value: 'killswitch' },
        { op: 'replace', path: '/stale', value: true },
        { op: 'replace', path: '/impressionData', value: true },
      ],
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ name, description: 'after', type: 'kill-switch', stale: true, impressionData: true });
    expect((await getFlag(project, name)).data).toMatchObject({ description: 'after', type: 'kill-switch', stale: true, impressionData: true });
    const events = await eventsSince(before);
    expect(events.map((e) => e.type).sort()).toEqual(['feature-metadata-updated', 'feature-stale-on']);
    expect(events.find((e) => e.type === 'feature-metadata-updated')).toMatchObject({
      featureName: name,
      project,
      data: { description: 'after', type: 'kill-switch', impressionData: true },
      preData: { description: 'before', type: 'release', impressionData: false },
    });
    expect(events.find((e) => e.type === 'feature-stale-on')).toMatchObject({ featureName: name, project });
  });

  it('writes no event for a patch that changes nothing', async () => {
    const project = await newProject();
    const name = unique('patch-same');
    await createFlag(project, name, { description: 'same' });
    const before = await latestEventId();
    const response = await app.admin.PATCH(flagRoute, { params: { path: flagPath(name, project) }, body: [{ op: 'replace', path: '/description', value: 'same' }] });
    expect(response.response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['an unknown path', [{ op: 'replace', path: '/name', value: 'renamed' }], '/name'],
    ['an added unknown field', [{ op: 'add', path: '/colour', value: 'red' }], 'colour'],
    ['a stale that is not a boolean', [{ op: 'replace', path: '/stale', value: 'yes' }], 'stale'],
    ['an impressionData that is not a boolean', [{ op: 'replace', path: '/impressionData', value: 1 }], 'impressionData'],
    ['a type that is not a string', [{ op: 'replace', path: '/type', value: 42 }], 'type'],
    ['an unknown type', [{ op: 'replace', path: '/type', value: 'feature' }], 'type'],
    ['a description that is not a string', [{ op: 'replace', path: '/description', value: { text: 'x' } }], 'description'],
    ['an unknown operation', [{ op: 'merge', path: '/description', value: 'x' }], 'op'],
    ['an empty patch', [], 'body'],
    ['an object instead of a list', { description: 'x' }, 'body'],
  ])('refuses %s with 400 and changes nothing', async (_case, body, field) => {
    const project = await newProject();
    const name = unique('patch-invalid');
    await createFlag(project, name, { description: 'kept' });
    const before = await latestEventId();
    const response = await call(app, 'PATCH', `/api/admin/projects/${project}/features/${name}`, { body });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect((await getFlag(project, name)).data).toMatchObject({ name, type: 'release', description: 'kept', stale: false, impressionData: false });
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const project = await newProject();
    const name = unique('patch-plain');
    await createFlag(project, name, { description: 'kept' });
    const response = await call(app, 'PATCH', `/api/admin/projects/${project}/features/${name}`, {
      body: JSON.stringify([{ op: 'replace', path: '/description', value: 'x' }]),
      contentType: 'text/plain',
    });
    expectError(response, 415, 'ContentTypeerror');
    expect((await getFlag(project, name)).data!.description).toBe('kept');
  });

  it('answers 404 for an unknown or archived flag', async () => {
    const project = await newProject();
    const archived = await archivedFlag(project);
    for (const featureName of ['no-such-flag', archived]) {
      const result = await app.admin.PATCH('/api/admin/projects/{projectId}/features/{featureName}', {
        params: { path: { projectId: project, featureName } },
        body: [{ op: 'replace', path: '/description', value: 'x' }],
      });
      expectError(result, 404, 'NotFoundError');
    }
  });
});

describe('flags: move to another project', () => {
  it('moves a flag, records feature-project-change in the new project, and lists it there', async () => {
    const from = await newProject('move-from');
    const to = await newProject('move-to');
    const name = unique('moved');
    await createFlag(from, name);
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', {
      params: { path: { projectId: from, featureName: name } },
      body: { newProjectId: to },
    });
    expect(result.response.status).toBe(200);
    expectError(await getFlag(from, name), 404, 'NotFoundError');
    expect((await getFlag(to, name)).data).toMatchObject({ name, project: to });
    expect(await listFlagNames(to)).toEqual([name]);
    expect(await listFlagNames(from)).toEqual([]);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-project-change']);
    expect(events[0]).toMatchObject({ featureName: name, project: to, data: { newProject: to, oldProject: from } });
  });

  it('gives the moved flag the environments of its new project', async () => {
    const from = await newProject('move-from');
    const to = unique('move-to-dev-only');
    const created = await app.admin.POST('/api/admin/projects', { body: { id: to, name: 'Dev only', environments: ['development'] } });
    expect(created.response.status).toBe(201);
    const name = unique('moved-envs');
    await createFlag(from, name);
    const result = await app.admin.POST(`${flagRoute}/changeProject`, { params: { path: flagPath(name, from) }, body: { newProjectId: to } });
    expect(result.response.status).toBe(200);
    expect((await getFlag(to, name)).data!.environments.map((e) => e.name)).toEqual(['development']);
  });

  it('answers 404 for an unknown target project and leaves the flag where it was', async () => {
    const from = await newProject('move-from');
    const name = unique('unmoved');
    await createFlag(from, name);
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', {
      params: { path: { projectId: from, featureName: name } },
      body: { newProjectId: 'ghost-project' },
    });
    expectError(result, 404, 'NotFoundError');
    expect((await getFlag(from, name)).data!.project).toBe(from);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 for an unknown flag and for a flag of another project', async () => {
    const from = await newProject('move-from');
    const to = await newProject('move-to');
    const elsewhere = unique('move-elsewhere');
    await createFlag(to, elsewhere);
    for (const featureName of ['no-such-flag', elsewhere]) {
      const result = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', {
        params: { path: { projectId: from, featureName } },
        body: { newProjectId: 'default' },
      });
      expectError(result, 404, 'NotFoundError');
    }
    expect((await getFlag(to, elsewhere)).data!.project).toBe(to);
  });

  it.each([
    ['no newProjectId', {}, 'newProjectId'],
    ['an empty newProjectId', { newProjectId: '' }, 'body.newProjectId'],
    ['an unknown field', { newProjectId: 'default', keep: true }, 'keep'],
  ])('refuses %s with 400 naming the field', async (_case, body, field) => {
    const from = await newProject('move-from');
    const name = unique('move-invalid');
    await createFlag(from, name);
    const response = await call(app, 'POST', `/api/admin/projects/${from}/features/${name}/changeProject`, { body });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect((await getFlag(from, name)).data!.project).toBe(from);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const from = await newProject('move-from');
    const name = unique('move-plain');
    await createFlag(from, name);
    const response = await call(app, 'POST', `/api/admin/projects/${from}/features/${name}/changeProject`, { body: 'newProjectId=default', contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expect((await getFlag(from, name)).data!.project).toBe(from);
  });
});

describe('flags: archive, revive and delete', () => {
  it('archives a flag with 202 and feature-archived; it leaves the project list and its name stays taken', async () => {
    const project = await newProject();
    const name = unique('archive-me');
    await createFlag(project, name);
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: project, featureName: name } } });
    expect(result.response.status).toBe(202);
    expectError(await getFlag(project, name), 404, 'NotFoundError');
    expect(await listFlagNames(project)).toEqual([]);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-archived']);
    expect(events[0]).toMatchObject({ featureName: name, project, environment: null });
    const again = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: project } }, body: { name } });
    expectError(again, 409, 'NameExistsError');
  });

  it('answers 404 when archiving an unknown, archived or foreign flag, and writes nothing', async () => {
    const project = await newProject();
    const archived = await archivedFlag(project);
    const foreign = unique('archive-foreign');
    await createFlag('default', foreign);
    const before = await latestEventId();
    for (const [projectId, featureName] of [
      [project, 'no-such-flag'],
      [project, archived],
      [project, foreign],
      ['ghost-project', foreign],
    ] as const) {
      const result = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId, featureName } } });
      expectError(result, 404, 'NotFoundError');
    }
    expect((await getFlag('default', foreign)).response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('revives an archived flag with feature-revived', async () => {
    const project = await newProject();
    const name = await archivedFlag(project);
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName: name } } });
    expect(result.response.status).toBe(200);
    const revived = (await getFlag(project, name)).data;
    expect(revived).toMatchObject({ name, project, archived: false });
    expect(revived).not.toHaveProperty('archivedAt');
    expect(await listFlagNames(project)).toEqual([name]);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-revived']);
    expect(events[0]).toMatchObject({ featureName: name, project });
  });

  it('answers 404 when reviving an unknown flag', async () => {
    const result = await app.admin.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName: 'no-such-flag' } } });
    expectError(result, 404, 'NotFoundError');
  });

  it('revives several archived flags of a project', async () => {
    const project = await newProject();
    const first = await archivedFlag(project);
    const second = await archivedFlag(project);
    const before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/revive', { ...inProject(project), body: { features: [first, second] } });
    expect(response.response.status).toBe(200);
    expect((await listFlagNames(project)).sort()).toEqual([first, second].sort());
    const events = await eventsSince(before);
    expect(events.map((e) => [e.type, e.featureName, e.project]).sort()).toEqual(
      [
        ['feature-revived', first, project],
        ['feature-revived', second, project],
      ].sort(),
    );
  });

  it('revives nothing when one name of the list is unknown (404)', async () => {
    const project = await newProject();
    const archived = await archivedFlag(project);
    const before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/revive', { ...inProject(project), body: { features: [archived, 'no-such-flag'] } });
    expectError(response, 404, 'NotFoundError');
    expect(await listFlagNames(project)).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['an empty list', { features: [] }, 'body.features'],
    ['no list', {}, 'features'],
    ['a list of the wrong type', { features: 'one' }, 'body.features'],
  ])('refuses to revive %s with 400', async (_case, body, field) => {
    const project = await newProject();
    const error = expectError(await call(app, 'POST', `/api/admin/projects/${project}/revive`, { body }), 400, 'ValidationError');
    expect(error.message).toContain(field);
  });

  it('refuses a revive body that is not JSON with 415', async () => {
    const project = await newProject();
    const archived = await archivedFlag(project);
    const response = await call(app, 'POST', `/api/admin/projects/${project}/revive`, { body: archived, contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expect(await listFlagNames(project)).toEqual([]);
  });

  it('deletes an archived flag for good with feature-deleted; its name is free again', async () => {
    const project = await newProject();
    const name = await archivedFlag(project);
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName: name } } });
    expect(result.response.status).toBe(200);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-deleted']);
    expect(events[0]).toMatchObject({ featureName: name, project, preData: { name } });
    expectError(await app.admin.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName: name } } }), 404, 'NotFoundError');
    await createFlag(project, name);
  });

  it('refuses to delete an active flag with 409 ConflictError', async () => {
    const project = await newProject();
    const name = unique('still-active');
    await createFlag(project, name);
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName: name } } });
    expectError(result, 409, 'ConflictError');
    expect((await getFlag(project, name)).response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 when deleting an unknown flag', async () => {
    const result = await app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName: 'no-such-flag' } } });
    expectError(result, 404, 'NotFoundError');
  });

  it('deletes several archived flags of a project', async () => {
    const project = await newProject();
    const first = await archivedFlag(project);
    const second = await archivedFlag(project);
    const response = await app.admin.POST('/api/admin/projects/{projectId}/delete', { ...inProject(project), body: { features: [first, second] } });
    expect(response.response.status).toBe(200);
    for (const featureName of [first, second]) {
      expectError(await app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName } } }), 404, 'NotFoundError');
    }
  });

  it('deletes nothing when one flag of the list is active (409)', async () => {
    const project = await newProject();
    const archived = await archivedFlag(project);
    const active = unique('bulk-delete-active');
    await createFlag(project, active);
    const before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/delete', { ...inProject(project), body: { features: [archived, active] } });
    expectError(response, 409, 'ConflictError');
    expect(await eventsSince(before)).toEqual([]);
    // The archived flag is still there to be revived.
    expect((await app.admin.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName: archived } } })).response.status).toBe(200);
  });
});

describe('flags: bulk stale and bulk archive', () => {
  it('marks several flags stale with 202 and one feature-stale-on each, then not stale', async () => {
    const project = await newProject();
    const first = unique('bulk-stale');
    const second = unique('bulk-stale');
    await createFlag(project, first);
    await createFlag(project, second);
    let before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/stale', { ...inProject(project), body: { features: [first, second], stale: true } });
    expect(response.response.status).toBe(202);
    for (const name of [first, second]) expect((await getFlag(project, name)).data!.stale).toBe(true);
    let events = await eventsSince(before);
    expect(events.map((e) => [e.type, e.featureName, e.project]).sort()).toEqual(
      [
        ['feature-stale-on', first, project],
        ['feature-stale-on', second, project],
      ].sort(),
    );
    before = await latestEventId();
    const back = await app.admin.POST('/api/admin/projects/{projectId}/stale', { ...inProject(project), body: { features: [first], stale: false } });
    expect(back.response.status).toBe(202);
    expect((await getFlag(project, first)).data!.stale).toBe(false);
    expect((await getFlag(project, second)).data!.stale).toBe(true);
    events = await eventsSince(before);
    expect(events.map((e) => [e.type, e.featureName])).toEqual([['feature-stale-off', first]]);
  });

  it('marks nothing stale when one name is unknown (404)', async () => {
    const project = await newProject();
    const name = unique('bulk-stale-kept');
    await createFlag(project, name);
    const before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/stale', { ...inProject(project), body: { features: [name, 'no-such-flag'], stale: true } });
    expectError(response, 404, 'NotFoundError');
    expect((await getFlag(project, name)).data!.stale).toBe(false);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 for an unknown project', async () => {
    const response = await app.admin.POST('/api/admin/projects/{projectId}/stale', { ...inProject('ghost-project'), body: { features: ['x'], stale: true } });
    expectError(response, 404, 'NotFoundError');
  });

  it.each([
    ['no stale', { features: ['x'] }, 'stale'],
    ['stale that is not a boolean', { features: ['x'], stale: 'yes' }, 'body.stale'],
    ['an empty list', { features: [], stale: true }, 'body.features'],
    ['an unknown field', { features: ['x'], stale: true, all: true }, 'all'],
  ])('refuses %s with 400 naming the field', async (_case, body, field) => {
    const project = await newProject();
    const error = expectError(await call(app, 'POST', `/api/admin/projects/${project}/stale`, { body }), 400, 'ValidationError');
    expect(error.message).toContain(field);
  });

  it('refuses a stale body that is not JSON with 415', async () => {
    const project = await newProject();
    const name = unique('bulk-stale-plain');
    await createFlag(project, name);
    const response = await call(app, 'POST', `/api/admin/projects/${project}/stale`, { body: JSON.stringify({ features: [name], stale: true }), contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expect((await getFlag(project, name)).data!.stale).toBe(false);
  });

  it('archives several flags with 202 and one feature-archived each', async () => {
    const project = await newProject();
    const first = unique('bulk-archive');
    const second = unique('bulk-archive');
    const kept = unique('bulk-archive-kept');
    await createFlag(project, first);
    await createFlag(project, second);
    await createFlag(project, kept);
    const before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/archive', { ...inProject(project), body: { features: [first, second] } });
    expect(response.response.status).toBe(202);
    expect(await listFlagNames(project)).toEqual([kept]);
    const events = await eventsSince(before);
    expect(events.map((e) => [e.type, e.featureName, e.project]).sort()).toEqual(
      [
        ['feature-archived', first, project],
        ['feature-archived', second, project],
      ].sort(),
    );
  });

  it('archives nothing and writes no event when one name is unknown (404)', async () => {
    const project = await newProject();
    const first = unique('bulk-archive-kept');
    const second = unique('bulk-archive-kept');
    await createFlag(project, first);
    await createFlag(project, second);
    const before = await latestEventId();
    const response = await app.admin.POST('/api/admin/projects/{projectId}/archive', { ...inProject(project), body: { features: [first, 'no-such-flag', second] } });
    expectError(response, 404, 'NotFoundError');
    expect((await listFlagNames(project)).sort()).toEqual([first, second].sort());
    expect(await eventsSince(before)).toEqual([]);
  });

  it('archives nothing when one flag belongs to another project (404)', async () => {
    const project = await newProject();
    const own = unique('bulk-archive-own');
    const foreign = unique('bulk-archive-foreign');
    await createFlag(project, own);
    await createFlag('default', foreign);
    const response = await app.admin.POST('/api/admin/projects/{projectId}/archive', { ...inProject(project), body: { features: [own, foreign] } });
    expectError(response, 404, 'NotFoundError');
    expect(await listFlagNames(project)).toEqual([own]);
    expect((await getFlag('default', foreign)).response.status).toBe(200);
  });

  it.each([
    ['an empty list', { features: [] }, 'body.features'],
    ['an empty name', { features: [''] }, 'body.features'],
    ['no list', {}, 'features'],
  ])('refuses to archive %s with 400', async (_case, body, field) => {
    const project = await newProject();
    const error = expectError(await call(app, 'POST', `/api/admin/projects/${project}/archive`, { body }), 400, 'ValidationError');
    expect(error.message).toContain(field);
  });

  it('refuses an archive body that is not JSON with 415', async () => {
    const project = await newProject();
    const name = unique('bulk-archive-plain');
    await createFlag(project, name);
    const response = await call(app, 'POST', `/api/admin/projects/${project}/archive`, { body: JSON.stringify({ features: [name] }), contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
    expect(await listFlagNames(project)).toEqual([name]);
  });
});
