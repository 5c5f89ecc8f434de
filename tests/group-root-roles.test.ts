// A group's root role holds as the same role given to the user directly: its root permissions everywhere, its
// flag permissions (an Editor's) in the `default` project only; elsewhere only project roles count.
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { as, userWithSession, type TestUser } from './support/users.js';

const EDITOR = 2;
const MEMBER = 5;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();

async function newProject(): Promise<string> {
  const id = unique('group-root');
  const created = await call(app, 'POST', '/api/admin/projects', { body: { id, name: `Project ${id}` } });
  expect(created.status, created.text).toBe(201);
  return id;
}

async function createGroup(body: object): Promise<number> {
  const created = await call(app, 'POST', '/api/admin/groups', { body: { name: unique('group'), ...body } });
  expect(created.status, created.text).toBe(201);
  return created.json.id;
}

const createFlagAs = (user: TestUser, project: string) =>
  call(app, 'POST', `/api/admin/projects/${project}/features`, { ...as(user), body: { name: unique('flag') } });

/** A Viewer who is an Editor through a group only. */
async function editorThroughGroup(): Promise<TestUser> {
  const user = await userWithSession(app, 'Viewer');
  await createGroup({ rootRole: EDITOR, users: [{ user: { id: user.id } }] });
  return user;
}

describe("a group's root role", () => {
  it("gives an Editor group's members flag creation in the default project", async () => {
    const user = await editorThroughGroup();
    expect((await createFlagAs(user, 'default')).status).toBe(201);
  });

  it("does not give an Editor group's members flag creation in another project", async () => {
    const project = await newProject();
    const user = await editorThroughGroup();
    const denied = expectError(await createFlagAs(user, project), 403, 'NoAccessError');
    expect(denied.message).toContain('CREATE_FEATURE');
  });

  it("does not give an Editor group's members strategy changes on a flag of another project", async () => {
    const project = await newProject();
    const flag = unique('flag');
    expect((await call(app, 'POST', `/api/admin/projects/${project}/features`, { body: { name: flag } })).status).toBe(201);
    const user = await editorThroughGroup();
    const path = `/api/admin/projects/${project}/features/${flag}/environments/development/strategies`;
    expectError(await call(app, 'POST', path, { ...as(user), body: { name: 'default' } }), 403, 'NoAccessError');
  });

  it("gives an Editor group's root permissions (creating a project) outside any project", async () => {
    const user = await editorThroughGroup();
    const id = unique('by-group-editor');
    const created = await call(app, 'POST', '/api/admin/projects', { ...as(user), body: { id, name: id } });
    expect(created.status, created.text).toBe(201);
  });

  it('counts with a project role the same group gives in that project, and only there', async () => {
    const [project, other] = [await newProject(), await newProject()];
    const user = await userWithSession(app, 'Viewer');
    const group = await createGroup({ rootRole: EDITOR, users: [{ user: { id: user.id } }] });
    const roles = await call(app, 'PUT', `/api/admin/projects/${project}/groups/${group}/roles`, { body: { roles: [MEMBER] } });
    expect(roles.status, roles.text).toBeLessThan(300);
    expect((await createFlagAs(user, project)).status).toBe(201);
    expectError(await createFlagAs(user, other), 403, 'NoAccessError');
  });
});
