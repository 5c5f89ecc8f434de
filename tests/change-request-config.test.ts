// Which environments require change requests, and the direct flag writes refused there while they do.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, asUser, author, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { adminJson, fixtures } from './support/fixtures.js';
import { userWithSession, type TestUser } from './support/users.js';

let app: TestApp;
let writer: TestUser;
const unique = uniqueNames();
const { newFlag, newProject, flagEnvironment } = fixtures(() => app, unique);
const events = eventReader(() => app);
const base = '/api/admin/projects/default';

const configOf = async (project: string) => (await call(app, 'GET', `/api/admin/projects/${project}/change-requests/config`)).json;
const configure = (project: string, environment: string, body: object) =>
  call(app, 'PUT', `/api/admin/projects/${project}/environments/${environment}/change-requests/config`, { body });

/** Expects the 409 that sends the caller to change requests. */
function expectRequired(response: Awaited<ReturnType<typeof call>>, environment = 'production') {
  const error = expectError(response, 409, 'ConflictError');
  expect(error.message).toContain(`"${environment}"`);
  expect(error.message).toContain('requires change requests');
}

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  writer = await author(app);
});

describe('reading the configuration', () => {
  it("lists every environment of the project, with whether it requires change requests and how many approvals", async () => {
    const project = await newProject('read', ['development', 'production']);
    expect(await configOf(project)).toEqual([
      { environment: 'development', type: 'development', changeRequestEnabled: false, requiredApprovals: 1 },
      { environment: 'production', type: 'production', changeRequestEnabled: false, requiredApprovals: 1 },
    ]);
  });

  it("leaves out environments the project does not use", async () => {
    const project = await newProject('dev-only', ['development']);
    expect((await configOf(project)).map((c: { environment: string }) => c.environment)).toEqual(['development']);
  });

  it('is readable by a Viewer', async () => {
    const viewer = await userWithSession(app, 'Viewer', 'viewer');
    expect((await asUser(app, viewer, 'GET', `${base}/change-requests/config`)).status).toBe(200);
  });

  it('is 404 for an unknown project', async () => {
    expectError(await call(app, 'GET', '/api/admin/projects/no-such-project/change-requests/config'), 404, 'NotFoundError');
  });
});

describe('storing the configuration', () => {
  it('answers 204 and shows the stored values', async () => {
    const project = await newProject('stored', ['development', 'production']);
    const response = await configure(project, 'production', { changeRequestsEnabled: true, requiredApprovals: 3 });
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe('');
    expect(await configOf(project)).toEqual([
      { environment: 'development', type: 'development', changeRequestEnabled: false, requiredApprovals: 1 },
      { environment: 'production', type: 'production', changeRequestEnabled: true, requiredApprovals: 3 },
    ]);
  });

  it('records change-request-configuration-updated with the values before and after', async () => {
    const project = await newProject('recorded', ['production']);
    await configure(project, 'production', { changeRequestsEnabled: true, requiredApprovals: 2 });
    const since = await events.latestEventId();
    await configure(project, 'production', { changeRequestsEnabled: false });
    expect(await events.eventsSince(since)).toMatchObject([
      {
        type: 'change-request-configuration-updated',
        project,
        environment: 'production',
        data: { changeRequestsEnabled: false, requiredApprovals: 2 },
        preData: { changeRequestsEnabled: true, requiredApprovals: 2 },
      },
    ]);
  });

  it('records nothing when the configuration stays the same', async () => {
    const project = await newProject('same', ['production']);
    await configure(project, 'production', { changeRequestsEnabled: true, requiredApprovals: 2 });
    const since = await events.latestEventId();
    expect((await configure(project, 'production', { changeRequestsEnabled: true, requiredApprovals: 2 })).status).toBe(204);
    expect(await events.eventsSince(since)).toEqual([]);
  });

  it.each([0, 11])('refuses %i required approvals with 400', async (requiredApprovals) => {
    const project = await newProject('bounds', ['production']);
    const error = expectError(await configure(project, 'production', { changeRequestsEnabled: true, requiredApprovals }), 400, 'ValidationError');
    expect(error.message).toContain('requiredApprovals');
    expect((await configOf(project))[0].changeRequestEnabled).toBe(false);
  });

  it('is 404 for an unknown project', async () => {
    expectError(await configure('no-such-project', 'production', { changeRequestsEnabled: true }), 404, 'NotFoundError');
  });

  it('is 404 for an unknown environment', async () => {
    expectError(await configure('default', 'no-such-environment', { changeRequestsEnabled: true }), 404, 'NotFoundError');
  });

  it('is 404 for an environment the project does not use', async () => {
    const project = await newProject('unused', ['development']);
    expectError(await configure(project, 'production', { changeRequestsEnabled: true }), 404, 'NotFoundError');
  });

  it('is refused to a Viewer (403)', async () => {
    const viewer = await userWithSession(app, 'Viewer', 'viewer');
    const project = await newProject('viewer', ['production']);
    const path = `/api/admin/projects/${project}/environments/production/change-requests/config`;
    expectError(await asUser(app, viewer, 'PUT', path, { changeRequestsEnabled: true }), 403, 'NoAccessError');
    expect((await configOf(project))[0].changeRequestEnabled).toBe(false);
  });
});

describe('direct writes while production requires change requests', () => {
  const strategies = (flag: string, environment = 'production') => `${base}/features/${flag}/environments/${environment}/strategies`;
  /** A flag with one strategy in production, added by the admin token (which may skip change requests). */
  async function flagWithStrategy(prefix: string) {
    const flag = await newFlag(prefix);
    const strategy = await adminJson(app, 'POST', strategies(flag), { name: 'default' });
    return { flag, id: strategy.id as string };
  }
  const as = (method: string, path: string, body?: unknown) => asUser(app, writer, method, path, body);

  it('turning a flag on or off there is refused', async () => {
    const flag = await newFlag('on-off');
    expectRequired(await as('POST', `${base}/features/${flag}/environments/production/on`));
    expectRequired(await as('POST', `${base}/features/${flag}/environments/production/off`));
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(false);
  });

  it('adding a strategy there is refused', async () => {
    const flag = await newFlag('add');
    expectRequired(await as('POST', strategies(flag), { name: 'default' }));
    expect((await flagEnvironment(flag, 'production')).strategies).toEqual([]);
  });

  it('updating a strategy there is refused, by PUT and by PATCH', async () => {
    const { flag, id } = await flagWithStrategy('update');
    expectRequired(await as('PUT', `${strategies(flag)}/${id}`, { name: 'flexibleRollout' }));
    expectRequired(await as('PATCH', `${strategies(flag)}/${id}`, [{ op: 'replace', path: '/disabled', value: true }]));
    expect((await flagEnvironment(flag, 'production')).strategies).toMatchObject([{ id, name: 'default', disabled: false }]);
  });

  it('deleting a strategy there is refused', async () => {
    const { flag, id } = await flagWithStrategy('delete');
    expectRequired(await as('DELETE', `${strategies(flag)}/${id}`));
    expect((await flagEnvironment(flag, 'production')).strategies).toHaveLength(1);
  });

  it('ordering strategies there is refused', async () => {
    const { flag, id } = await flagWithStrategy('order');
    expectRequired(await as('POST', `${strategies(flag)}/set-sort-order`, [{ id, sortOrder: 5 }]));
  });

  it("setting or patching the flag's variants there is refused", async () => {
    const flag = await newFlag('variants');
    const path = `${base}/features/${flag}/environments/production/variants`;
    expectRequired(await as('PUT', path, [{ name: 'blue', weightType: 'variable' }]));
    expectRequired(await as('PATCH', path, [{ op: 'add', path: '/-', value: { name: 'blue', weightType: 'variable' } }]));
    expect((await flagEnvironment(flag, 'production')).variants).toEqual([]);
  });

  it('adding or removing dependencies is refused, as they apply in every environment', async () => {
    const [parent, child, linked] = [await newFlag('parent'), await newFlag('child'), await newFlag('linked')];
    expectRequired(await as('POST', `${base}/features/${child}/dependencies`, { feature: parent }));
    await adminJson(app, 'POST', `${base}/features/${linked}/dependencies`, { feature: parent });
    expectRequired(await as('DELETE', `${base}/features/${linked}/dependencies/${parent}`));
    expectRequired(await as('DELETE', `${base}/features/${linked}/dependencies`));
    expect((await adminJson(app, 'GET', `${base}/features/${linked}`)).dependencies).toMatchObject([{ feature: parent }]);
    expect((await adminJson(app, 'GET', `${base}/features/${child}`)).dependencies).toEqual([]);
  });

  it('archiving a flag that is on there is refused, alone or with others', async () => {
    const flag = await newFlag('on-there');
    await adminJson(app, 'POST', `${base}/features/${flag}/environments/production/on`);
    expectRequired(await as('DELETE', `${base}/features/${flag}`));
    expectRequired(await as('POST', `${base}/archive`, { features: [flag] }));
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(true);
  });

  it('archiving a flag that is off there is allowed', async () => {
    const flag = await newFlag('off-there');
    await adminJson(app, 'POST', `${base}/features/${flag}/environments/development/on`);
    expect((await as('DELETE', `${base}/features/${flag}`)).status).toBe(202);
  });

  it('writes in an environment that does not require them are allowed', async () => {
    const flag = await newFlag('development');
    expect((await as('POST', strategies(flag, 'development'), { name: 'default' })).status).toBe(200);
  });
});

describe('after change requests are turned off again', () => {
  it('direct writes there pass', async () => {
    const project = await newProject('off-again', ['production']);
    const user = await approver(app, project, 'production', ['UPDATE_FEATURE_ENVIRONMENT']);
    const flag = await newFlag('toggled', project);
    await requireChangeRequests(app, project, 'production');
    expectRequired(await asUser(app, user, 'POST', `/api/admin/projects/${project}/features/${flag}/environments/production/on`));
    expect((await configure(project, 'production', { changeRequestsEnabled: false })).status).toBe(204);
    expect((await asUser(app, user, 'POST', `/api/admin/projects/${project}/features/${flag}/environments/production/on`)).status).toBe(200);
    expect((await flagEnvironment(flag, 'production', project)).enabled).toBe(true);
  });
});
