// Who must pass four-eyes cannot switch it off or exempt themselves: loosening a project environment's change-request
// rule, and giving a role that skips change requests, need the right to skip them there.
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../db/default-permissions.js';
import type { ServiceClient } from '../client/index.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { author, configureChangeRequests, requireChangeRequests } from './support/change-requests.js';
import { uniqueNames } from './support/events.js';
import { fixtures, inProject, ok } from './support/fixtures.js';
import { addProjectAccess, clientAs, projectAccess, type TestUser } from './support/users.js';

let app: TestApp;
/** An Editor: holds UPDATE_PROJECT in the default project, may not skip change requests. */
let editor: TestUser;
let skipRole: number;
const unique = uniqueNames();
const { newProject, createGroup } = fixtures(() => app, unique);

const configureAs = (user: TestUser, project: string, environment: string, body: Parameters<typeof configureChangeRequests>[3]) =>
  configureChangeRequests(clientAs(app, user), project, environment, body);
const ruleIn = async (projectId: string, environment: string) =>
  (await ok(app.admin.GET('/api/admin/projects/{projectId}/change-requests/config', inProject(projectId)))).find((row) => row.environment === environment)!;
/** Gives the users these roles in the project, as the client. */
const grantAs = (client: ServiceClient, projectId: string, roles: number[], users: number[]) => addProjectAccess(app, projectId, { roles, users }, client);
const accessOfDefault = () => projectAccess(app, 'default');

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production', 2);
  editor = await author(app);
  skipRole = (await ok(app.admin.POST('/api/admin/roles', { body: { name: unique('Skipper'), type: 'custom', permissions: [{ name: 'SKIP_CHANGE_REQUEST', environment: 'production' }] } }))).id;
});

describe('the change-request rule of an environment', () => {
  it('cannot be turned off by a caller who may not skip change requests there', async () => {
    expectError(await configureAs(editor, 'default', 'production', { changeRequestsEnabled: false }), 403, 'NoAccessError');
    expect(await ruleIn('default', 'production')).toMatchObject({ changeRequestEnabled: true, requiredApprovals: 2 });
  });

  it('cannot have its required approvals lowered by such a caller', async () => {
    const error = expectError(await configureAs(editor, 'default', 'production', { changeRequestsEnabled: true, requiredApprovals: 1 }), 403, 'NoAccessError');
    expect(error.message).toContain('SKIP_CHANGE_REQUEST');
    expect((await ruleIn('default', 'production')).requiredApprovals).toBe(2);
  });

  it('can be tightened by such a caller', async () => {
    const project = await newProject('tighten');
    await ok(grantAs(app.admin, project, [ROLE.Owner], [editor.id]));
    expect((await configureAs(editor, project, 'production', { changeRequestsEnabled: true, requiredApprovals: 1 })).response.status).toBe(204);
    expect((await configureAs(editor, project, 'production', { changeRequestsEnabled: true, requiredApprovals: 3 })).response.status).toBe(204);
    expect(await ruleIn(project, 'production')).toMatchObject({ changeRequestEnabled: true, requiredApprovals: 3 });
  });

  it('can be loosened by a caller who may skip change requests there', async () => {
    const project = await newProject('loosen');
    await requireChangeRequests(app, project, 'production', 2);
    const skipper = await author(app);
    await ok(grantAs(app.admin, project, [ROLE.Owner, skipRole], [skipper.id]));
    expect((await configureAs(skipper, project, 'production', { changeRequestsEnabled: false })).response.status).toBe(204);
    expect((await ruleIn(project, 'production')).changeRequestEnabled).toBe(false);
  });
});

describe('a role that skips change requests', () => {
  it('cannot be given to oneself by a caller who may not skip them there', async () => {
    const error = expectError(await grantAs(clientAs(app, editor), 'default', [skipRole], [editor.id]), 403, 'NoAccessError');
    expect(error.message).toContain('SKIP_CHANGE_REQUEST');
    expect((await accessOfDefault()).users.find((user) => user.id === editor.id)).toBeUndefined();
  });

  it("cannot be set among a user's roles by such a caller", async () => {
    const setOwnRoles = clientAs(app, editor).PUT('/api/admin/projects/{projectId}/users/{userId}/roles', {
      params: { path: { projectId: 'default', userId: editor.id } },
      body: { roles: [ROLE.Member, skipRole] },
    });
    expectError(await setOwnRoles, 403, 'NoAccessError');
  });

  it("cannot be set among a group's roles by such a caller", async () => {
    const group = (await createGroup({ users: [] })).id;
    const setGroupRoles = clientAs(app, editor).PUT('/api/admin/projects/{projectId}/groups/{groupId}/roles', {
      params: { path: { projectId: 'default', groupId: group } },
      body: { roles: [skipRole] },
    });
    expectError(await setGroupRoles, 403, 'NoAccessError');
  });

  it('does not stop such a caller giving roles that skip nothing', async () => {
    const other = await author(app);
    expect((await grantAs(clientAs(app, editor), 'default', [ROLE.Member], [other.id])).response.status).toBe(200);
  });

  it('can be given by a caller who may skip change requests there', async () => {
    const other = await author(app);
    expect((await grantAs(clientAs(app, editor), 'default', [skipRole], [other.id])).response.status).toBe(403);
    await ok(grantAs(app.admin, 'default', [skipRole], [other.id]));
    expect((await accessOfDefault()).users.find((user) => user.id === other.id)!.roles).toContain(skipRole);
  });
});
