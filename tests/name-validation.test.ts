// Asking whether a name is free before creating: a flag's name (validateFeature, archived flags included), a segment's
// name (validateSegment) and a project's id (validateProjectId), as the admin UI asks when a name field is left. Each
// answers as creating would: the same 409 for a taken name, the same 400 naming the field for an invalid one. Any
// signed-in user may ask (as in Unleash); SDK tokens may not.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok } from './support/fixtures.js';
import { clientAs, userWithSession, type TestUser } from './support/users.js';

let app: TestApp;
let viewer: TestUser;
let clientToken: string;
const unique = uniqueNames();
const { newProject, createFlag, archiveFlag } = fixtures(() => app, unique);

beforeAll(async () => {
  app = await startTestApp();
  viewer = await userWithSession(app, 'Viewer');
  clientToken = await newApiToken(app, { type: 'client' });
});

const checkFlag = (body: { name: string; projectId?: string | null }, client = app.admin) => client.POST('/api/admin/features/validate', { body });
const checkSegment = (name: string, client = app.admin) => client.POST('/api/admin/segments/validate', { body: { name } });
const checkProject = (id: string, client = app.admin) => client.POST('/api/admin/projects/validate', { body: { id } });

describe('checking a flag name (validateFeature)', () => {
  it('answers 200 without a body for a valid name no flag has, with or without the project it is meant for', async () => {
    const free = await checkFlag({ name: unique('free-flag') });
    expect(free.response.status).toBe(200);
    expect(free.data).toBeUndefined();
    expect((await checkFlag({ name: unique('free-flag'), projectId: 'default' })).response.status).toBe(200);
    expect((await checkFlag({ name: unique('free-flag'), projectId: null })).response.status).toBe(200);
  });

  it("answers 409 NameExistsError naming the project of an active flag, as creating it would", async () => {
    const project = await newProject();
    const name = await createFlag(project, unique('taken-flag'));
    const checked = expectError(await checkFlag({ name }), 409, 'NameExistsError');
    expect(checked.message).toBe(`A flag named "${name}" already exists in the project "${project}"; flag names are unique.`);
    const created = expectError(
      await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'default' } }, body: { name } }),
      409,
      'NameExistsError',
    );
    expect(created.message).toBe(checked.message);
  });

  it('answers 409 for the name of an archived flag, which keeps its name', async () => {
    const name = await createFlag('default', unique('archived-flag'));
    await archiveFlag('default', name);
    const checked = expectError(await checkFlag({ name }), 409, 'NameExistsError');
    expect(checked.message).toBe(`A flag named "${name}" already exists in the archive; flag names are unique.`);
  });

  it.each([
    ['a space', { name: 'has space' }, 'body.name must match pattern'],
    ['only ..', { name: '..' }, 'body.name must match pattern'],
    ['101 characters', { name: 'x'.repeat(101) }, 'body.name must NOT have more than 100 characters'],
    ['no characters', { name: '' }, 'body.name must NOT have fewer than 1 characters'],
    ['no name', { projectId: 'default' }, 'body is missing the required field "name"'],
    ['an unknown field', { name: 'fine', type: 'release' }, 'body has the unknown field "type"'],
  ])('refuses a name with %s with 400 naming the field', async (_case, body, message) => {
    const error = expectError(await call(app, 'POST', '/api/admin/features/validate', { body }), 400, 'ValidationError');
    expect(error.message).toContain(message);
  });
});

describe('checking a segment name (validateSegment)', () => {
  it('answers 204 for a name no segment has', async () => {
    const free = await checkSegment(unique('free segment'));
    expect(free.response.status).toBe(204);
    expect(free.data).toBeUndefined();
  });

  it('answers 409 NameExistsError for a segment’s name, as creating it would', async () => {
    const name = unique('taken-segment');
    await ok(app.admin.POST('/api/admin/segments', { body: { name, constraints: [] } }));
    const checked = expectError(await checkSegment(name), 409, 'NameExistsError');
    expect(checked.message).toBe(`A segment named "${name}" already exists.`);
    expect(expectError(await app.admin.POST('/api/admin/segments', { body: { name, constraints: [] } }), 409, 'NameExistsError').message).toBe(checked.message);
  });

  it.each([
    ['only spaces', { name: '   ' }, 'body.name must match pattern'],
    ['101 characters', { name: 's'.repeat(101) }, 'body.name must NOT have more than 100 characters'],
    ['no name', {}, 'body is missing the required field "name"'],
  ])('refuses a name of %s with 400 naming the field', async (_case, body, message) => {
    const error = expectError(await call(app, 'POST', '/api/admin/segments/validate', { body }), 400, 'ValidationError');
    expect(error.message).toContain(message);
  });
});

describe('checking a project id (validateProjectId)', () => {
  it('answers 204 for an id no project has', async () => {
    const free = await checkProject(unique('free-project'));
    expect(free.response.status).toBe(204);
    expect(free.data).toBeUndefined();
  });

  it('answers 409 NameExistsError for a project’s id, the default project included, as creating it would', async () => {
    const id = await newProject('taken-project');
    const checked = expectError(await checkProject(id), 409, 'NameExistsError');
    expect(checked.message).toBe(`A project with id "${id}" already exists.`);
    expect(expectError(await app.admin.POST('/api/admin/projects', { body: { id, name: 'Again' } }), 409, 'NameExistsError').message).toBe(checked.message);
    expectError(await checkProject('default'), 409, 'NameExistsError');
  });

  it.each([
    ['a space', { id: 'my project' }, 'body.id must match pattern'],
    ['a slash', { id: 'a/b' }, 'body.id must match pattern'],
    ['101 characters', { id: 'p'.repeat(101) }, 'body.id must NOT have more than 100 characters'],
    ['a name instead', { name: 'payments' }, 'body is missing the required field "id"'],
  ])('refuses an id with %s with 400 naming the field', async (_case, body, message) => {
    const error = expectError(await call(app, 'POST', '/api/admin/projects/validate', { body }), 400, 'ValidationError');
    expect(error.message).toContain(message);
  });

  it('is not taken for getProject: GET /api/admin/projects/validate still reads a project named "validate"', async () => {
    await ok(app.admin.POST('/api/admin/projects', { body: { id: 'validate', name: 'Validate' } }));
    expect(await ok(app.admin.GET('/api/admin/projects/{projectId}', { params: { path: { projectId: 'validate' } } }))).toMatchObject({ id: 'validate', name: 'Validate' });
    expectError(await checkProject('validate'), 409, 'NameExistsError');
  });
});

describe('who may ask, and how', () => {
  const operations = [
    ['/api/admin/features/validate', { name: 'who-asks' }, 200],
    ['/api/admin/segments/validate', { name: 'who-asks' }, 204],
    ['/api/admin/projects/validate', { id: 'who-asks' }, 204],
  ] as const;

  it.each(operations)('%s answers a signed-in Viewer, who may create nothing', async (path, body, status) => {
    const { response } = await clientAs(app, viewer).POST(path, { body } as never);
    expect(response.status).toBe(status);
  });

  it.each(operations)('%s refuses a request without a credential with 401', async (path, body) => {
    expectError(await call(app, 'POST', path, { body, token: null }), 401, 'AuthenticationRequired');
  });

  it.each(operations)('%s refuses an SDK token with 403', async (path, body) => {
    expectError(await call(app, 'POST', path, { body, token: clientToken }), 403, 'NoAccessError');
  });

  it.each(operations)('%s refuses a body that is not JSON with 415', async (path) => {
    expectError(await call(app, 'POST', path, { body: 'name=who-asks', contentType: 'application/x-www-form-urlencoded' }), 415, 'ContentTypeerror');
  });

  it.each(operations)('%s refuses a body over the size limit with 413', async (path) => {
    expectError(await call(app, 'POST', path, { body: { name: 'x'.repeat(2 * 1024 * 1024) } }), 413, 'PayloadTooLargeError');
  });
});
