// Who must pass four-eyes cannot switch it off or exempt themselves: loosening a project environment's change-request
// rule, and giving a role that skips change requests, need the right to skip them there.
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../db/default-permissions.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { asUser, author, requireChangeRequests } from './support/change-requests.js';
import { uniqueNames } from './support/events.js';
import { adminJson, fixtures } from './support/fixtures.js';
import type { TestUser } from './support/users.js';

let app: TestApp;
/** An Editor: holds UPDATE_PROJECT in the default project, may not skip change requests. */
let editor: TestUser;
let skipRole: number;
const unique = uniqueNames();
const { newProject } = fixtures(() => app, unique);
const base = '/api/admin/projects/default';

const configure = (user: TestUser, project: string, environment: string, body: object) =>
  asUser(app, user, 'PUT', `/api/admin/projects/${project}/environments/${environment}/change-requests/config`, body);
const ruleIn = async (project: string, environment: string) =>
  ((await adminJson(app, 'GET', `/api/admin/projects/${project}/change-requests/config`)) as any[]).find((row) => row.environment === environment);

async function newGroup() {
  return (await adminJson(app, 'POST', '/api/admin/groups', { name: unique('group'), users: [] })).id as number;
}

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production', 2);
  editor = await author(app);
  skipRole = (await adminJson(app, 'POST', '/api/admin/roles', { name: unique('Skipper'), type: 'custom', permissions: [{ name: 'SKIP_CHANGE_REQUEST', environment: 'production' }] })).id;
});

describe('the change-request rule of an environment', () => {
  it('cannot be turned off by a caller who may not skip change requests there', async () => {
    expectError(await configure(editor, 'default', 'production', { changeRequestsEnabled: false }), 403, 'NoAccessError');
    expect(await ruleIn('default', 'production')).toMatchObject({ changeRequestEnabled: true, requiredApprovals: 2 });
  });

  it('cannot have its required approvals lowered by such a caller', async () => {
    const error = expectError(await configure(editor, 'default', 'production', { changeRequestsEnabled: true, requiredApprovals: 1 }), 403, 'NoAccessError');
    expect(error.message).toContain('SKIP_CHANGE_REQUEST');
    expect((await ruleIn('default', 'production')).requiredApprovals).toBe(2);
  });

  it('can be tightened by such a caller', async () => {
    const project = await newProject('tighten');
    await adminJson(app, 'POST', `/api/admin/projects/${project}/access`, { roles: [ROLE.Owner], users: [editor.id] });
    expect((await configure(editor, project, 'production', { changeRequestsEnabled: true, requiredApprovals: 1 })).status).toBe(204);
    expect((await configure(editor, project, 'production', { changeRequestsEnabled: true, requiredApprovals: 3 })).status).toBe(204);
    expect(await ruleIn(project, 'production')).toMatchObject({ changeRequestEnabled: true, requiredApprovals: 3 });
  });

  it('can be loosened by a caller who may skip change requests there', async () => {
    const project = await newProject('loosen');
    await requireChangeRequests(app, project, 'production', 2);
    const skipper = await author(app);
    await adminJson(app, 'POST', `/api/admin/projects/${project}/access`, { roles: [ROLE.Owner, skipRole], users: [skipper.id] });
    expect((await configure(skipper, project, 'production', { changeRequestsEnabled: false })).status).toBe(204);
    expect((await ruleIn(project, 'production')).changeRequestEnabled).toBe(false);
  });
});

describe('a role that skips change requests', () => {
  it('cannot be given to oneself by a caller who may not skip them there', async () => {
    const error = expectError(await asUser(app, editor, 'POST', `${base}/access`, { roles: [skipRole], users: [editor.id] }), 403, 'NoAccessError');
    expect(error.message).toContain('SKIP_CHANGE_REQUEST');
    const access = await adminJson(app, 'GET', `${base}/access`);
    expect(access.users.find((user: { id: number }) => user.id === editor.id)).toBeUndefined();
  });

  it("cannot be set among a user's roles by such a caller", async () => {
    expectError(await asUser(app, editor, 'PUT', `${base}/users/${editor.id}/roles`, { roles: [ROLE.Member, skipRole] }), 403, 'NoAccessError');
  });

  it("cannot be set among a group's roles by such a caller", async () => {
    const group = await newGroup();
    expectError(await asUser(app, editor, 'PUT', `${base}/groups/${group}/roles`, { roles: [skipRole] }), 403, 'NoAccessError');
  });

  it('does not stop such a caller giving roles that skip nothing', async () => {
    const other = await author(app);
    expect((await asUser(app, editor, 'POST', `${base}/access`, { roles: [ROLE.Member], users: [other.id] })).status).toBe(200);
  });

  it('can be given by a caller who may skip change requests there', async () => {
    const other = await author(app);
    expect((await asUser(app, editor, 'POST', `${base}/access`, { roles: [skipRole], users: [other.id] })).status).toBe(403);
    await adminJson(app, 'POST', `${base}/access`, { roles: [skipRole], users: [other.id] });
    const access = await adminJson(app, 'GET', `${base}/access`);
    expect(access.users.find((user: { id: number }) => user.id === other.id).roles).toContain(skipRole);
  });
});
