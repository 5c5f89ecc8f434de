import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from 'flag-service/client';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { as, userWithSession, type TestUser } from './support/users.js';
import { fixtures } from './support/fixtures.js';

type ProjectAccess = components['schemas']['ProjectAccess'];
type Group = components['schemas']['Group'];

const OWNER = 4;
const MEMBER = 5;
const READER = 6;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newProject } = fixtures(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);

async function createGroup(body: object): Promise<Group> {
  const created = await call(app, 'POST', '/api/admin/groups', { body });
  expect(created.status, created.text).toBe(201);
  return created.json;
}

async function access(project: string): Promise<ProjectAccess> {
  const response = await call(app, 'GET', `/api/admin/projects/${project}/access`);
  expect(response.status, response.text).toBe(200);
  return response.json;
}

const setUserRoles = (project: string, userId: number, roles: number[]) => call(app, 'PUT', `/api/admin/projects/${project}/users/${userId}/roles`, { body: { roles } });
const setGroupRoles = (project: string, groupId: number, roles: number[]) => call(app, 'PUT', `/api/admin/projects/${project}/groups/${groupId}/roles`, { body: { roles } });

/** Tries to create a flag in the project as the user; the status. */
async function createFlagAs(user: TestUser, project: string) {
  return call(app, 'POST', `/api/admin/projects/${project}/features`, { ...as(user), body: { name: unique('flag') } });
}

describe('groups', () => {
  it('creates a group with members and a root role: 201, location, events', async () => {
    const [a, b] = [await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer')];
    const since = await latestEventId();
    const name = unique('Team');
    const created = await call(app, 'POST', '/api/admin/groups', {
      body: { name, description: 'the team', mappingsSSO: ['team-sso'], rootRole: 2, users: [{ user: { id: a.id } }, { user: { id: b.id } }] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.location).toBe(`/api/admin/groups/${created.json.id}`);
    expect(created.json).toMatchObject({ name, description: 'the team', mappingsSSO: ['team-sso'], rootRole: 2, userCount: 2 });
    expect(created.json.users.map((m: { user: { id: number } }) => m.user.id).sort()).toEqual([a.id, b.id].sort());
    expect(created.json.users[0].user).not.toHaveProperty('passwordHash');
    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['group-created', 'group-user-added', 'group-user-added']);
    expect(events[0]!.data).toMatchObject({ id: created.json.id, name, rootRole: 2 });

    const fetched = await call(app, 'GET', `/api/admin/groups/${created.json.id}`);
    expect(fetched.json).toEqual(created.json);
    const listed = await call(app, 'GET', '/api/admin/groups');
    expect(listed.json.groups).toContainEqual(created.json);
  });

  it('members hold the root role of their group', async () => {
    const viewer = await userWithSession(app, 'Viewer');
    expectError(await createFlagAs(viewer, 'default'), 403, 'NoAccessError');
    await createGroup({ name: unique('editors'), rootRole: 2, users: [{ user: { id: viewer.id } }] });
    expect((await createFlagAs(viewer, 'default')).status).toBe(201);
  });

  it('replaces the members on update, recording who was added and removed; an unchanged update records nothing', async () => {
    const [a, b, c] = [await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer')];
    const group = await createGroup({ name: unique('g'), users: [{ user: { id: a.id } }, { user: { id: b.id } }] });
    const since = await latestEventId();
    const body = { name: group.name, description: 'renamed', users: [{ user: { id: b.id } }, { user: { id: c.id } }] };
    const updated = await call(app, 'PUT', `/api/admin/groups/${group.id}`, { body });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.users.map((m: { user: { id: number } }) => m.user.id).sort()).toEqual([b.id, c.id].sort());
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.data ?? e.preData])).toEqual([
      ['group-updated', expect.objectContaining({ description: 'renamed' })],
      ['group-user-added', { groupId: group.id, userId: c.id }],
      ['group-user-removed', { groupId: group.id, userId: a.id }],
    ]);
    const again = await latestEventId();
    expect((await call(app, 'PUT', `/api/admin/groups/${group.id}`, { body })).status).toBe(200);
    expect(await eventsSince(again)).toEqual([]);
  });

  it('refuses a taken name (any case) with 409, a non-root role or unknown user with 400', async () => {
    const group = await createGroup({ name: unique('Taken') });
    expectError(await call(app, 'POST', '/api/admin/groups', { body: { name: group.name.toUpperCase() } }), 409, 'NameExistsError');
    const other = await createGroup({ name: unique('other') });
    expectError(await call(app, 'PUT', `/api/admin/groups/${other.id}`, { body: { name: group.name } }), 409, 'NameExistsError');
    const notRoot = expectError(await call(app, 'POST', '/api/admin/groups', { body: { name: unique('g'), rootRole: OWNER } }), 400, 'ValidationError');
    expect(notRoot.message).toContain('rootRole');
    const noUser = expectError(await call(app, 'POST', '/api/admin/groups', { body: { name: unique('g'), users: [{ user: { id: 999999 } }] } }), 400, 'ValidationError');
    expect(noUser.message).toContain('999999');
    expectError(await call(app, 'POST', '/api/admin/groups', { body: { name: '   ' } }), 400, 'ValidationError');
    expectError(await call(app, 'POST', '/api/admin/groups', { body: { name: 'x', surelyNotAField: 1 } }), 400, 'ValidationError');
  });

  it('answers 404 for an unknown group and deletes a group with an event; members lose what it gave', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expectError(await call(app, method, '/api/admin/groups/999999', method === 'PUT' ? { body: { name: 'x1' } } : {}), 404, 'NotFoundError');
    }
    const user = await userWithSession(app, 'Viewer');
    const group = await createGroup({ name: unique('doomed'), rootRole: 2, users: [{ user: { id: user.id } }] });
    expect((await createFlagAs(user, 'default')).status).toBe(201);
    const since = await latestEventId();
    expect((await call(app, 'DELETE', `/api/admin/groups/${group.id}`)).status).toBe(200);
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['group-deleted']);
    expectError(await call(app, 'GET', `/api/admin/groups/${group.id}`), 404, 'NotFoundError');
    expectError(await createFlagAs(user, 'default'), 403, 'NoAccessError');
  });

  it('needs ADMIN to write groups', async () => {
    const editor = await userWithSession(app, 'Editor');
    expectError(await call(app, 'POST', '/api/admin/groups', { ...as(editor), body: { name: unique('g') } }), 403, 'NoAccessError');
    expect((await call(app, 'GET', '/api/admin/groups', as(editor))).status).toBe(200);
  });
});

describe('project access', () => {
  it('lists the project roles and nobody for a new project; 404 for an unknown project', async () => {
    const project = await newProject();
    const body = await access(project);
    expect(body.users).toEqual([]);
    expect(body.groups).toEqual([]);
    expect(body.roles.map((r) => [r.id, r.name, r.type])).toEqual([
      [OWNER, 'Owner', 'project'],
      [MEMBER, 'Member', 'project'],
      [READER, 'Reader', 'project'],
    ]);
    expectError(await call(app, 'GET', '/api/admin/projects/no-such-project/access'), 404, 'NotFoundError');
  });

  it('adds users and groups with roles, listing them with their roles; adding again changes nothing', async () => {
    const project = await newProject();
    const [a, b] = [await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer')];
    const group = await createGroup({ name: unique('g'), users: [{ user: { id: b.id } }] });
    const since = await latestEventId();
    const body = { roles: [MEMBER, READER], users: [a.id], groups: [group.id] };
    const added = await call(app, 'POST', `/api/admin/projects/${project}/access`, { body });
    expect(added.status, added.text).toBe(200);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.project, e.data])).toEqual([['project-access-added', project, body]]);

    const listed = await access(project);
    expect(listed.users).toEqual([expect.objectContaining({ id: a.id, email: a.email, roles: [MEMBER, READER], roleId: MEMBER, addedAt: expect.any(String) })]);
    expect(listed.groups).toEqual([
      expect.objectContaining({ id: group.id, name: group.name, roles: [MEMBER, READER], roleId: MEMBER, users: [expect.objectContaining({ user: expect.objectContaining({ id: b.id }) })] }),
    ]);

    const again = await latestEventId();
    expect((await call(app, 'POST', `/api/admin/projects/${project}/access`, { body })).status).toBe(200);
    expect(await eventsSince(again)).toEqual([]);
  });

  it('refuses a role that is not a project role, unknown users or groups, with 400 and no change', async () => {
    const project = await newProject();
    const user = await userWithSession(app, 'Viewer');
    const cases: [object, string][] = [
      [{ roles: [2], users: [user.id] }, '2'],
      [{ roles: [999999], users: [user.id] }, '999999'],
      [{ roles: [MEMBER], users: [999998] }, '999998'],
      [{ roles: [MEMBER], groups: [999997] }, '999997'],
    ];
    for (const [body, mention] of cases) {
      const error = expectError(await call(app, 'POST', `/api/admin/projects/${project}/access`, { body }), 400, 'ValidationError');
      expect(error.message).toContain(mention);
    }
    expectError(await call(app, 'POST', `/api/admin/projects/${project}/access`, { body: { users: [user.id] } }), 400, 'ValidationError');
    expect((await access(project)).users).toEqual([]);
    expectError(await call(app, 'POST', '/api/admin/projects/no-such-project/access', { body: { roles: [MEMBER], users: [user.id] } }), 404, 'NotFoundError');
  });

  it("replaces and removes a user's roles with events; 404 for unknown users and for nothing to remove", async () => {
    const project = await newProject();
    const user = await userWithSession(app, 'Viewer');
    let since = await latestEventId();
    expect((await setUserRoles(project, user.id, [MEMBER])).status).toBe(200);
    expect((await setUserRoles(project, user.id, [OWNER, MEMBER])).status).toBe(200);
    expect((await access(project)).users[0]!.roles).toEqual([OWNER, MEMBER]);
    expect((await eventsSince(since)).map((e) => [e.type, e.project, e.data, e.preData])).toEqual([
      ['project-access-user-roles-updated', project, { roles: [MEMBER], userId: user.id }, { roles: [], userId: user.id }],
      ['project-access-user-roles-updated', project, { roles: [OWNER, MEMBER], userId: user.id }, { roles: [MEMBER], userId: user.id }],
    ]);
    since = await latestEventId();
    expect((await setUserRoles(project, user.id, [MEMBER, OWNER])).status).toBe(200);
    expect(await eventsSince(since)).toEqual([]);

    expect((await call(app, 'DELETE', `/api/admin/projects/${project}/users/${user.id}/roles`)).status).toBe(200);
    expect((await eventsSince(since)).map((e) => [e.type, e.preData])).toEqual([['project-access-user-roles-deleted', { roles: [OWNER, MEMBER], userId: user.id }]]);
    expect((await access(project)).users).toEqual([]);
    expectError(await call(app, 'DELETE', `/api/admin/projects/${project}/users/${user.id}/roles`), 404, 'NotFoundError');
    expectError(await setUserRoles(project, 999999, [MEMBER]), 404, 'NotFoundError');
    expectError(await setUserRoles('no-such-project', user.id, [MEMBER]), 404, 'NotFoundError');
    expectError(await setUserRoles(project, user.id, [1]), 400, 'ValidationError');
  });

  it("replaces and removes a group's roles with events; 404 for unknown groups", async () => {
    const project = await newProject();
    const group = await createGroup({ name: unique('g') });
    const since = await latestEventId();
    expect((await setGroupRoles(project, group.id, [READER])).status).toBe(200);
    expect((await access(project)).groups.map((g) => [g.id, g.roles])).toEqual([[group.id, [READER]]]);
    expect((await call(app, 'DELETE', `/api/admin/projects/${project}/groups/${group.id}/roles`)).status).toBe(200);
    expect((await eventsSince(since)).map((e) => [e.type, e.project])).toEqual([
      ['project-access-group-roles-updated', project],
      ['project-access-group-roles-deleted', project],
    ]);
    expectError(await call(app, 'DELETE', `/api/admin/projects/${project}/groups/${group.id}/roles`), 404, 'NotFoundError');
    expectError(await setGroupRoles(project, 999999, [READER]), 404, 'NotFoundError');
  });

  it('a Member works on flags in its project only, directly or through a group, until removed', async () => {
    const project = await newProject();
    const direct = await userWithSession(app, 'Viewer');
    const throughGroup = await userWithSession(app, 'Viewer');
    expectError(await createFlagAs(direct, project), 403, 'NoAccessError');

    expect((await setUserRoles(project, direct.id, [MEMBER])).status).toBe(200);
    const group = await createGroup({ name: unique('g'), users: [{ user: { id: throughGroup.id } }] });
    expect((await setGroupRoles(project, group.id, [MEMBER])).status).toBe(200);
    for (const user of [direct, throughGroup]) {
      expect((await createFlagAs(user, project)).status).toBe(201);
      const elsewhere = expectError(await createFlagAs(user, 'default'), 403, 'NoAccessError');
      expect(elsewhere.message).toContain('CREATE_FEATURE');
    }

    expect((await call(app, 'DELETE', `/api/admin/projects/${project}/users/${direct.id}/roles`)).status).toBe(200);
    expect((await call(app, 'DELETE', `/api/admin/projects/${project}/groups/${group.id}/roles`)).status).toBe(200);
    for (const user of [direct, throughGroup]) expectError(await createFlagAs(user, project), 403, 'NoAccessError');
  });

  it('an Owner may manage access in its project; a Member may not', async () => {
    const project = await newProject();
    const [owner, member, other] = [await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer')];
    await setUserRoles(project, owner.id, [OWNER]);
    await setUserRoles(project, member.id, [MEMBER]);
    const body = { roles: [READER], users: [other.id] };
    expectError(await call(app, 'POST', `/api/admin/projects/${project}/access`, { ...as(member), body }), 403, 'NoAccessError');
    expect((await call(app, 'POST', `/api/admin/projects/${project}/access`, { ...as(owner), body })).status).toBe(200);
    expectError(await call(app, 'POST', '/api/admin/projects/default/access', { ...as(owner), body }), 403, 'NoAccessError');
  });

  it("an Editor works on flags in the default project and in projects they create, where they become Owner, not in others", async () => {
    const editor = await userWithSession(app, 'Editor');
    const others = await newProject();
    expect((await createFlagAs(editor, 'default')).status).toBe(201);
    expect(expectError(await createFlagAs(editor, others), 403, 'NoAccessError').message).toContain('CREATE_FEATURE');
    expect((await access(others)).users).toEqual([]);

    const own = unique('editors');
    const created = await call(app, 'POST', '/api/admin/projects', { ...as(editor), body: { id: own, name: 'Editor made' } });
    expect(created.status, created.text).toBe(201);
    expect((await access(own)).users).toEqual([expect.objectContaining({ id: editor.id, roles: [OWNER] })]);
    expect((await createFlagAs(editor, own)).status).toBe(201);
  });

  it('moves a flag only for a user who may move flags in both projects', async () => {
    const [from, to] = [await newProject(), await newProject()];
    const owner = await userWithSession(app, 'Viewer');
    await setUserRoles(from, owner.id, [OWNER]);
    const flag = (await createFlagAs(owner, from)).json.name;
    const move = () => call(app, 'POST', `/api/admin/projects/${from}/features/${flag}/changeProject`, { ...as(owner), body: { newProjectId: to } });

    const since = await latestEventId();
    expect(expectError(await move(), 403, 'NoAccessError').message).toContain('MOVE_FEATURE_TOGGLE');
    expect(await eventsSince(since)).toEqual([]);
    expect((await call(app, 'GET', `/api/admin/projects/${from}/features/${flag}`)).status).toBe(200);

    await setUserRoles(to, owner.id, [OWNER]);
    expect((await move()).status).toBe(200);
    expect((await call(app, 'GET', `/api/admin/projects/${to}/features/${flag}`)).status).toBe(200);
  });

  it('feeds the members of the project insights: distinct users, directly or through groups', async () => {
    const project = await newProject();
    const [a, b, c] = [await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer'), await userWithSession(app, 'Viewer')];
    const group = await createGroup({ name: unique('g'), users: [{ user: { id: b.id } }, { user: { id: c.id } }] });
    await call(app, 'POST', `/api/admin/projects/${project}/access`, { body: { roles: [MEMBER, READER], users: [a.id, b.id], groups: [group.id] } });
    const insights = await call(app, 'GET', `/api/admin/projects/${project}/insights`);
    expect(insights.status, insights.text).toBe(200);
    expect(insights.json.members).toEqual({ currentMembers: 3, change: 3 });
    expect(insights.json.stats.projectMembersAddedCurrentWindow).toBe(3);
  });
});
