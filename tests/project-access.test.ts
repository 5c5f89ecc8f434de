import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { eventReader, uniqueNames } from './support/events.js';
import type { ServiceClient } from '../client/index.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { addProjectAccess, clientAs, projectAccess, userWithSession } from './support/users.js';
import { fixtures, flagPath, ok } from './support/fixtures.js';

type ProjectAccess = components['schemas']['ProjectAccess'];
type UpsertGroup = components['schemas']['UpsertGroup'];
type AddProjectAccess = components['schemas']['AddProjectAccess'];

const OWNER = 4;
const MEMBER = 5;
const READER = 6;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newProject, createGroup, newFlagAs } = fixtures(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);

const postGroup = (body: UpsertGroup, client: ServiceClient = app.admin) => client.POST('/api/admin/groups', { body });
const groupPath = (groupId: number) => ({ params: { path: { groupId } } });

const userRolesPath = '/api/admin/projects/{projectId}/users/{userId}/roles' as const;
const groupRolesPath = '/api/admin/projects/{projectId}/groups/{groupId}/roles' as const;
const setUserRoles = (projectId: string, userId: number, roles: number[]) => app.admin.PUT(userRolesPath, { params: { path: { projectId, userId } }, body: { roles } });
const removeUserRoles = (projectId: string, userId: number) => app.admin.DELETE(userRolesPath, { params: { path: { projectId, userId } } });
const setGroupRoles = (projectId: string, groupId: number, roles: number[]) => app.admin.PUT(groupRolesPath, { params: { path: { projectId, groupId } }, body: { roles } });
const removeGroupRoles = (projectId: string, groupId: number) => app.admin.DELETE(groupRolesPath, { params: { path: { projectId, groupId } } });

/** Tries to create a flag with a fresh name in the project as the user; the typed answer. */
const status = async (pending: Promise<{ response: Response }>) => (await pending).response.status;

describe('groups', () => {
  it('creates a group with members and a root role: 201, location, events', async () => {
    const [a, b] = [await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer')];
    const since = await latestEventId();
    const name = unique('Team');
    const { data: group, error, response } = await postGroup({
      name,
      description: 'the team',
      mappingsSSO: ['team-sso'],
      rootRole: 2,
      users: [{ user: { id: a.id } }, { user: { id: b.id } }],
    });
    expect(response.status, JSON.stringify(error)).toBe(201);
    expect(response.headers.get('location')).toBe(`/api/admin/groups/${group!.id}`);
    expect(group).toMatchObject({ name, description: 'the team', mappingsSSO: ['team-sso'], rootRole: 2, userCount: 2 });
    expect(group!.users.map((m) => m.user.id).sort()).toEqual([a.id, b.id].sort());
    expect(group!.users[0]!.user).not.toHaveProperty('passwordHash');
    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['group-created', 'group-user-added', 'group-user-added']);
    expect(events[0]!.data).toMatchObject({ id: group!.id, name, rootRole: 2 });

    const fetched = await app.admin.GET('/api/admin/groups/{groupId}', groupPath(group!.id));
    expect(fetched.data).toEqual(group);
    const listed = await app.admin.GET('/api/admin/groups');
    expect(listed.data!.groups).toContainEqual(group);
  });

  it('members hold the root role of their group', async () => {
    const viewer = await userWithSession(app, 'Viewer');
    expectError(await newFlagAs(viewer, 'default'), 403, 'NoAccessError');
    await createGroup({ name: unique('editors'), rootRole: 2, users: [{ user: { id: viewer.id } }] });
    expect(await status(newFlagAs(viewer, 'default'))).toBe(201);
  });

  it('replaces the members on update, recording who was added and removed; an unchanged update records nothing', async () => {
    const [a, b, c] = [await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer')];
    const group = await createGroup({ name: unique('g'), users: [{ user: { id: a.id } }, { user: { id: b.id } }] });
    const since = await latestEventId();
    const body = { name: group.name, description: 'renamed', users: [{ user: { id: b.id } }, { user: { id: c.id } }] };
    const update = () => app.admin.PUT('/api/admin/groups/{groupId}', { ...groupPath(group.id), body });
    const updated = await ok(update(), 200);
    expect(updated.users.map((m) => m.user.id).sort()).toEqual([b.id, c.id].sort());
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.data ?? e.preData])).toEqual([
      ['group-updated', expect.objectContaining({ description: 'renamed' })],
      ['group-user-added', { groupId: group.id, userId: c.id }],
      ['group-user-removed', { groupId: group.id, userId: a.id }],
    ]);
    const again = await latestEventId();
    expect(await status(update())).toBe(200);
    expect(await eventsSince(again)).toEqual([]);
  });

  it('refuses a taken name (any case) with 409, a non-root role or unknown user with 400', async () => {
    const group = await createGroup({ name: unique('Taken') });
    expectError(await postGroup({ name: group.name.toUpperCase() }), 409, 'NameExistsError');
    const other = await createGroup({ name: unique('other') });
    expectError(await app.admin.PUT('/api/admin/groups/{groupId}', { ...groupPath(other.id), body: { name: group.name } }), 409, 'NameExistsError');
    const notRoot = expectError(await postGroup({ name: unique('g'), rootRole: OWNER }), 400, 'ValidationError');
    expect(notRoot.message).toContain('rootRole');
    const noUser = expectError(await postGroup({ name: unique('g'), users: [{ user: { id: 999999 } }] }), 400, 'ValidationError');
    expect(noUser.message).toContain('999999');
    expectError(await postGroup({ name: '   ' }), 400, 'ValidationError');
    // An unknown field: a body the types forbid, so sent raw.
    expectError(await call(app, 'POST', '/api/admin/groups', { body: { name: 'x', surelyNotAField: 1 } }), 400, 'ValidationError');
  });

  it('answers 404 for an unknown group and deletes a group with an event; members lose what it gave', async () => {
    expectError(await app.admin.GET('/api/admin/groups/{groupId}', groupPath(999999)), 404, 'NotFoundError');
    expectError(await app.admin.PUT('/api/admin/groups/{groupId}', { ...groupPath(999999), body: { name: 'x1' } }), 404, 'NotFoundError');
    expectError(await app.admin.DELETE('/api/admin/groups/{groupId}', groupPath(999999)), 404, 'NotFoundError');
    const user = await userWithSession(app, 'Viewer');
    const group = await createGroup({ name: unique('doomed'), rootRole: 2, users: [{ user: { id: user.id } }] });
    expect(await status(newFlagAs(user, 'default'))).toBe(201);
    const since = await latestEventId();
    expect(await status(app.admin.DELETE('/api/admin/groups/{groupId}', groupPath(group.id)))).toBe(200);
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['group-deleted']);
    expectError(await app.admin.GET('/api/admin/groups/{groupId}', groupPath(group.id)), 404, 'NotFoundError');
    expectError(await newFlagAs(user, 'default'), 403, 'NoAccessError');
  });

  it('needs ADMIN to write groups', async () => {
    const editor = await userWithSession(app, 'Editor');
    expectError(await postGroup({ name: unique('g') }, clientAs(app, editor)), 403, 'NoAccessError');
    expect(await status(clientAs(app, editor).GET('/api/admin/groups'))).toBe(200);
  });
});

describe('project access', () => {
  it('lists the project roles and nobody for a new project; 404 for an unknown project', async () => {
    const project = await newProject();
    const body = await projectAccess(app, project);
    expect(body.users).toEqual([]);
    expect(body.groups).toEqual([]);
    expect(body.roles.map((r) => [r.id, r.name, r.type])).toEqual([
      [OWNER, 'Owner', 'project'],
      [MEMBER, 'Member', 'project'],
      [READER, 'Reader', 'project'],
    ]);
    expectError(await app.admin.GET('/api/admin/projects/{projectId}/access', { params: { path: { projectId: 'no-such-project' } } }), 404, 'NotFoundError');
  });

  it('adds users and groups with roles, listing them with their roles; adding again changes nothing', async () => {
    const project = await newProject();
    const [a, b] = [await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer')];
    const group = await createGroup({ name: unique('g'), users: [{ user: { id: b.id } }] });
    const since = await latestEventId();
    const body = { roles: [MEMBER, READER], users: [a.id], groups: [group.id] };
    await ok(addProjectAccess(app, project, body), 200);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.project, e.data])).toEqual([['project-access-added', project, body]]);

    const listed = await projectAccess(app, project);
    expect(listed.users).toEqual([expect.objectContaining({ id: a.id, email: a.email, roles: [MEMBER, READER], roleId: MEMBER, addedAt: expect.any(String) })]);
    expect(listed.groups).toEqual([
      expect.objectContaining({ id: group.id, name: group.name, roles: [MEMBER, READER], roleId: MEMBER, users: [expect.objectContaining({ user: expect.objectContaining({ id: b.id }) })] }),
    ]);

    const again = await latestEventId();
    expect(await status(addProjectAccess(app, project, body))).toBe(200);
    expect(await eventsSince(again)).toEqual([]);
  });

  it('refuses a role that is not a project role, unknown users or groups, with 400 and no change', async () => {
    const project = await newProject();
    const user = await userWithSession(app, 'Viewer');
    const cases: [AddProjectAccess, string][] = [
      [{ roles: [2], users: [user.id] }, '2'],
      [{ roles: [999999], users: [user.id] }, '999999'],
      [{ roles: [MEMBER], users: [999998] }, '999998'],
      [{ roles: [MEMBER], groups: [999997] }, '999997'],
    ];
    for (const [body, mention] of cases) {
      const error = expectError(await addProjectAccess(app, project, body), 400, 'ValidationError');
      expect(error.message).toContain(mention);
    }
    // No roles: a body the types forbid, so sent raw.
    expectError(await call(app, 'POST', `/api/admin/projects/${project}/access`, { body: { users: [user.id] } }), 400, 'ValidationError');
    expect((await projectAccess(app, project)).users).toEqual([]);
    expectError(await addProjectAccess(app, 'no-such-project', { roles: [MEMBER], users: [user.id] }), 404, 'NotFoundError');
  });

  it("replaces and removes a user's roles with events; 404 for unknown users and for nothing to remove", async () => {
    const project = await newProject();
    const user = await userWithSession(app, 'Viewer');
    let since = await latestEventId();
    expect(await status(setUserRoles(project, user.id, [MEMBER]))).toBe(200);
    expect(await status(setUserRoles(project, user.id, [OWNER, MEMBER]))).toBe(200);
    expect((await projectAccess(app, project)).users[0]!.roles).toEqual([OWNER, MEMBER]);
    expect((await eventsSince(since)).map((e) => [e.type, e.project, e.data, e.preData])).toEqual([
      ['project-access-user-roles-updated', project, { roles: [MEMBER], userId: user.id }, { roles: [], userId: user.id }],
      ['project-access-user-roles-updated', project, { roles: [OWNER, MEMBER], userId: user.id }, { roles: [MEMBER], userId: user.id }],
    ]);
    since = await latestEventId();
    expect(await status(setUserRoles(project, user.id, [MEMBER, OWNER]))).toBe(200);
    expect(await eventsSince(since)).toEqual([]);

    expect(await status(removeUserRoles(project, user.id))).toBe(200);
    expect((await eventsSince(since)).map((e) => [e.type, e.preData])).toEqual([['project-access-user-roles-deleted', { roles: [OWNER, MEMBER], userId: user.id }]]);
    expect((await projectAccess(app, project)).users).toEqual([]);
    expectError(await removeUserRoles(project, user.id), 404, 'NotFoundError');
    expectError(await setUserRoles(project, 999999, [MEMBER]), 404, 'NotFoundError');
    expectError(await setUserRoles('no-such-project', user.id, [MEMBER]), 404, 'NotFoundError');
    expectError(await setUserRoles(project, user.id, [1]), 400, 'ValidationError');
  });

  it("replaces and removes a group's roles with events; 404 for unknown groups", async () => {
    const project = await newProject();
    const group = await createGroup({ name: unique('g') });
    const since = await latestEventId();
    expect(await status(setGroupRoles(project, group.id, [READER]))).toBe(200);
    expect((await projectAccess(app, project)).groups.map((g) => [g.id, g.roles])).toEqual([[group.id, [READER]]]);
    expect(await status(removeGroupRoles(project, group.id))).toBe(200);
    expect((await eventsSince(since)).map((e) => [e.type, e.project])).toEqual([
      ['project-access-group-roles-updated', project],
      ['project-access-group-roles-deleted', project],
    ]);
    expectError(await removeGroupRoles(project, group.id), 404, 'NotFoundError');
    expectError(await setGroupRoles(project, 999999, [READER]), 404, 'NotFoundError');
  });

  it('a Member works on flags in its project only, directly or through a group, until removed', async () => {
    const project = await newProject();
    const direct = await userWithSession(app, 'Viewer');
    const throughGroup = await userWithSession(app, 'Viewer');
    expectError(await newFlagAs(direct, project), 403, 'NoAccessError');

    expect(await status(setUserRoles(project, direct.id, [MEMBER]))).toBe(200);
    const group = await createGroup({ name: unique('g'), users: [{ user: { id: throughGroup.id } }] });
    expect(await status(setGroupRoles(project, group.id, [MEMBER]))).toBe(200);
    for (const user of [direct, throughGroup]) {
      expect(await status(newFlagAs(user, project))).toBe(201);
      const elsewhere = expectError(await newFlagAs(user, 'default'), 403, 'NoAccessError');
      expect(elsewhere.message).toContain('CREATE_FEATURE');
    }

    expect(await status(removeUserRoles(project, direct.id))).toBe(200);
    expect(await status(removeGroupRoles(project, group.id))).toBe(200);
    for (const user of [direct, throughGroup]) expectError(await newFlagAs(user, project), 403, 'NoAccessError');
  });

  it('an Owner may manage access in its project; a Member may not', async () => {
    const project = await newProject();
    const [owner, member, other] = [await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer')];
    await setUserRoles(project, owner.id, [OWNER]);
    await setUserRoles(project, member.id, [MEMBER]);
    const body = { roles: [READER], users: [other.id] };
    expectError(await addProjectAccess(app, project, body, clientAs(app, member)), 403, 'NoAccessError');
    expect(await status(addProjectAccess(app, project, body, clientAs(app, owner)))).toBe(200);
    expectError(await addProjectAccess(app, 'default', body, clientAs(app, owner)), 403, 'NoAccessError');
  });

  it("an Editor works on flags in the default project and in projects they create, where they become Owner, not in others", async () => {
    const editor = await userWithSession(app, 'Editor');
    const others = await newProject();
    expect(await status(newFlagAs(editor, 'default'))).toBe(201);
    expect(expectError(await newFlagAs(editor, others), 403, 'NoAccessError').message).toContain('CREATE_FEATURE');
    expect((await projectAccess(app, others)).users).toEqual([]);

    const own = unique('editors');
    await ok(clientAs(app, editor).POST('/api/admin/projects', { body: { id: own, name: 'Editor made' } }), 201);
    expect((await projectAccess(app, own)).users).toEqual([expect.objectContaining({ id: editor.id, roles: [OWNER] })]);
    expect(await status(newFlagAs(editor, own))).toBe(201);
  });

  it('moves a flag only for a user who may move flags in both projects', async () => {
    const [from, to] = [await newProject(), await newProject()];
    const owner = await userWithSession(app, 'Viewer');
    await setUserRoles(from, owner.id, [OWNER]);
    const flag = (await ok(newFlagAs(owner, from), 201)).name;
    const move = () =>
      clientAs(app, owner).POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', { params: { path: flagPath(flag, from) }, body: { newProjectId: to } });
    const flagIn = (project: string) => app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(flag, project) } });

    const since = await latestEventId();
    expect(expectError(await move(), 403, 'NoAccessError').message).toContain('MOVE_FEATURE_TOGGLE');
    expect(await eventsSince(since)).toEqual([]);
    expect(await status(flagIn(from))).toBe(200);

    await setUserRoles(to, owner.id, [OWNER]);
    expect(await status(move())).toBe(200);
    expect(await status(flagIn(to))).toBe(200);
  });

  it('feeds the members of the project insights: distinct users, directly or through groups', async () => {
    const project = await newProject();
    const [a, b, c] = [await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer')];
    const group = await createGroup({ name: unique('g'), users: [{ user: { id: b.id } }, { user: { id: c.id } }] });
    await addProjectAccess(app, project, { roles: [MEMBER, READER], users: [a.id, b.id], groups: [group.id] });
    const insights = await ok(app.admin.GET('/api/admin/projects/{projectId}/insights', { params: { path: { projectId: project } } }), 200);
    expect(insights.members).toEqual({ currentMembers: 3, change: 3 });
    expect(insights.stats.projectMembersAddedCurrentWindow).toBe(3);
  });
});
