// Which environments require change requests, and the direct flag writes refused there while they do.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../client/index.js';
import type { components } from '../generated/api.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, author, configureChangeRequests, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { envPath, fixtures, flagPath, ok } from './support/fixtures.js';
import { clientAs, userWithSession, type TestUser } from './support/users.js';

let app: TestApp;
let writer: TestUser;
const unique = uniqueNames();
const { newFlag, newProject, flagEnvironment, flagOf, addStrategy, turnOn } = fixtures(() => app, unique);
const events = eventReader(() => app);

const configOf = async (projectId: string, client: ServiceClient = app.admin) =>
  client.GET('/api/admin/projects/{projectId}/change-requests/config', { params: { path: { projectId } } });
const configure = (projectId: string, environment: string, body: components['schemas']['UpdateChangeRequestConfig'], client: ServiceClient = app.admin) =>
  configureChangeRequests(client, projectId, environment, body);
const storedConfig = async (project: string) => ok(configOf(project));

/** Expects the 409 that sends the caller to change requests. */
function expectRequired(response: Parameters<typeof expectError>[0], environment = 'production') {
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
    expect(await storedConfig(project)).toEqual([
      { environment: 'development', type: 'development', changeRequestEnabled: false, requiredApprovals: 1 },
      { environment: 'production', type: 'production', changeRequestEnabled: false, requiredApprovals: 1 },
    ]);
  });

  it("leaves out environments the project does not use", async () => {
    const project = await newProject('dev-only', ['development']);
    expect((await storedConfig(project)).map((c) => c.environment)).toEqual(['development']);
  });

  it('is readable by a Viewer', async () => {
    const viewer = await userWithSession(app, 'Viewer', 'viewer');
    expect((await configOf('default', clientAs(app, viewer))).response.status).toBe(200);
  });

  it('is 404 for an unknown project', async () => {
    expectError(await configOf('no-such-project'), 404, 'NotFoundError');
  });
});

describe('storing the configuration', () => {
  it('answers 204 and shows the stored values', async () => {
    const project = await newProject('stored', ['development', 'production']);
    const { response, error } = await configure(project, 'production', { changeRequestsEnabled: true, requiredApprovals: 3 });
    expect(response.status, JSON.stringify(error)).toBe(204);
    expect(await response.text()).toBe('');
    expect(await storedConfig(project)).toEqual([
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
    expect((await configure(project, 'production', { changeRequestsEnabled: true, requiredApprovals: 2 })).response.status).toBe(204);
    expect(await events.eventsSince(since)).toEqual([]);
  });

  it.each([0, 11])('refuses %i required approvals with 400', async (requiredApprovals) => {
    const project = await newProject('bounds', ['production']);
    const error = expectError(await configure(project, 'production', { changeRequestsEnabled: true, requiredApprovals }), 400, 'ValidationError');
    expect(error.message).toContain('requiredApprovals');
    expect((await storedConfig(project))[0]!.changeRequestEnabled).toBe(false);
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
    expectError(await configure(project, 'production', { changeRequestsEnabled: true }, clientAs(app, viewer)), 403, 'NoAccessError');
    expect((await storedConfig(project))[0]!.changeRequestEnabled).toBe(false);
  });
});

describe('direct writes while production requires change requests', () => {
  /** A flag with one strategy in production, added by the admin token (which may skip change requests). */
  async function flagWithStrategy(prefix: string) {
    const flag = await newFlag(prefix);
    const strategy = await addStrategy(flag, { name: 'default' }, 'production');
    return { flag, id: strategy.id };
  }
  const asWriter = () => clientAs(app, writer);
  const production = (flag: string) => ({ params: { path: envPath(flag, 'production') } });
  const strategyOf = (flag: string, strategyId: string) => ({ params: { path: { ...envPath(flag, 'production'), strategyId } } });
  const strategyPath = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}' as const;
  const variantsPath = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants' as const;

  it('turning a flag on or off there is refused', async () => {
    const flag = await newFlag('on-off');
    expectRequired(await asWriter().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', production(flag)));
    expectRequired(await asWriter().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', production(flag)));
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(false);
  });

  it('adding a strategy there is refused', async () => {
    const flag = await newFlag('add');
    expectRequired(await asWriter().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', { ...production(flag), body: { name: 'default' } }));
    expect((await flagEnvironment(flag, 'production')).strategies).toEqual([]);
  });

  it('updating a strategy there is refused, by PUT and by PATCH', async () => {
    const { flag, id } = await flagWithStrategy('update');
    expectRequired(await asWriter().PUT(strategyPath, { ...strategyOf(flag, id), body: { name: 'flexibleRollout' } }));
    expectRequired(await asWriter().PATCH(strategyPath, { ...strategyOf(flag, id), body: [{ op: 'replace', path: '/disabled', value: true }] }));
    expect((await flagEnvironment(flag, 'production')).strategies).toMatchObject([{ id, name: 'default', disabled: false }]);
  });

  it('deleting a strategy there is refused', async () => {
    const { flag, id } = await flagWithStrategy('delete');
    expectRequired(await asWriter().DELETE(strategyPath, strategyOf(flag, id)));
    expect((await flagEnvironment(flag, 'production')).strategies).toHaveLength(1);
  });

  it('ordering strategies there is refused', async () => {
    const { flag, id } = await flagWithStrategy('order');
    expectRequired(
      await asWriter().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/set-sort-order', {
        ...production(flag),
        body: [{ id, sortOrder: 5 }],
      }),
    );
  });

  it("setting or patching the flag's variants there is refused", async () => {
    const flag = await newFlag('variants');
    expectRequired(await asWriter().PUT(variantsPath, { ...production(flag), body: [{ name: 'blue', weightType: 'variable' }] }));
    expectRequired(await asWriter().PATCH(variantsPath, { ...production(flag), body: [{ op: 'add', path: '/-', value: { name: 'blue', weightType: 'variable' } }] }));
    expect((await flagEnvironment(flag, 'production')).variants).toEqual([]);
  });

  it('adding or removing dependencies is refused, as they apply in every environment', async () => {
    const [parent, child, linked] = [await newFlag('parent'), await newFlag('child'), await newFlag('linked')];
    const dependencies = '/api/admin/projects/{projectId}/features/{featureName}/dependencies' as const;
    expectRequired(await asWriter().POST(dependencies, { params: { path: flagPath(child) }, body: { feature: parent } }));
    await ok(app.admin.POST(dependencies, { params: { path: flagPath(linked) }, body: { feature: parent } }));
    expectRequired(await asWriter().DELETE(`${dependencies}/{parent}`, { params: { path: { ...flagPath(linked), parent } } }));
    expectRequired(await asWriter().DELETE(dependencies, { params: { path: flagPath(linked) } }));
    expect((await flagOf(linked)).dependencies).toMatchObject([{ feature: parent }]);
    expect((await flagOf(child)).dependencies).toEqual([]);
  });

  it('archiving a flag that is on there is refused, alone or with others', async () => {
    const flag = await newFlag('on-there');
    await turnOn(flag, 'production');
    expectRequired(await asWriter().DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(flag) } }));
    expectRequired(await asWriter().POST('/api/admin/projects/{projectId}/archive', { params: { path: { projectId: 'default' } }, body: { features: [flag] } }));
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(true);
  });

  it('archiving a flag that is off there is allowed', async () => {
    const flag = await newFlag('off-there');
    await turnOn(flag);
    expect((await asWriter().DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(flag) } })).response.status).toBe(202);
  });

  it('writes in an environment that does not require them are allowed', async () => {
    const flag = await newFlag('development');
    const added = await asWriter().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: envPath(flag) },
      body: { name: 'default' },
    });
    expect(added.response.status).toBe(200);
  });
});

describe('after change requests are turned off again', () => {
  it('direct writes there pass', async () => {
    const project = await newProject('off-again', ['production']);
    const user = clientAs(app, await approver(app, project, 'production', ['UPDATE_FEATURE_ENVIRONMENT']));
    const flag = await newFlag('toggled', project);
    await requireChangeRequests(app, project, 'production');
    const turnOnInProduction = () =>
      user.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', { params: { path: envPath(flag, 'production', project) } });
    expectRequired(await turnOnInProduction());
    expect((await configure(project, 'production', { changeRequestsEnabled: false })).response.status).toBe(204);
    expect((await turnOnInProduction()).response.status).toBe(200);
    expect((await flagEnvironment(flag, 'production', project)).enabled).toBe(true);
  });
});
