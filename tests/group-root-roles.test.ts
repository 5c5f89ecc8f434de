// A group's root role holds as the same role given to the user directly: its root permissions everywhere, its
// flag permissions (an Editor's) in the `default` project only; elsewhere only project roles count.
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { envPath, fixtures, ok } from './support/fixtures.js';
import { clientAs, createFlagAs, userWithSession, type TestUser } from './support/users.js';

const EDITOR = 2;
const MEMBER = 5;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newProject, newFlag, createGroup } = fixtures(() => app, unique);

/** A Viewer who is an Editor through a group only. */
async function editorThroughGroup(): Promise<TestUser> {
  const user = await userWithSession(app, 'Viewer');
  await createGroup({ rootRole: EDITOR, users: [{ user: { id: user.id } }] });
  return user;
}

describe("a group's root role", () => {
  it("gives an Editor group's members flag creation in the default project", async () => {
    const user = await editorThroughGroup();
    expect((await createFlagAs(app, user, 'default', unique('flag'))).response.status).toBe(201);
  });

  it("does not give an Editor group's members flag creation in another project", async () => {
    const project = await newProject('group-root');
    const user = await editorThroughGroup();
    const denied = expectError(await createFlagAs(app, user, project, unique('flag')), 403, 'NoAccessError');
    expect(denied.message).toContain('CREATE_FEATURE');
  });

  it("does not give an Editor group's members strategy changes on a flag of another project", async () => {
    const project = await newProject('group-root');
    const flag = await newFlag('flag', project);
    const user = await editorThroughGroup();
    const added = await clientAs(app, user).POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: envPath(flag, 'development', project) },
      body: { name: 'default' },
    });
    expectError(added, 403, 'NoAccessError');
  });

  it("gives an Editor group's root permissions (creating a project) outside any project", async () => {
    const user = await editorThroughGroup();
    const id = unique('by-group-editor');
    await ok(clientAs(app, user).POST('/api/admin/projects', { body: { id, name: id } }), 201);
  });

  it('counts with a project role the same group gives in that project, and only there', async () => {
    const [project, other] = [await newProject('group-root'), await newProject('group-root')];
    const user = await userWithSession(app, 'Viewer');
    const group = await createGroup({ rootRole: EDITOR, users: [{ user: { id: user.id } }] });
    await ok(app.admin.PUT('/api/admin/projects/{projectId}/groups/{groupId}/roles', { params: { path: { projectId: project, groupId: group.id } }, body: { roles: [MEMBER] } }));
    expect((await createFlagAs(app, user, project, unique('flag'))).response.status).toBe(201);
    expectError(await createFlagAs(app, user, other, unique('flag')), 403, 'NoAccessError');
  });
});
