import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import * as t from '../db/schema.js';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';

type UpsertRole = components['schemas']['UpsertRole'];
type RoleWithPermissions = components['schemas']['RoleWithPermissions'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { latestEventId, eventsSince } = eventReader(() => app);

const BUILT_INS = [
  { id: 1, name: 'Admin', type: 'root' },
  { id: 2, name: 'Editor', type: 'root' },
  { id: 3, name: 'Viewer', type: 'root' },
  { id: 4, name: 'Owner', type: 'project' },
  { id: 5, name: 'Member', type: 'project' },
  { id: 6, name: 'Reader', type: 'project' },
] as const;

const path = (roleId: number) => ({ params: { path: { roleId } } });

async function createRole(body: UpsertRole) {
  const result = await app.admin.POST('/api/admin/roles', { body });
  if (result.response.status !== 201) throw new Error(`creating a role failed: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data!;
}

async function getRole(roleId: number) {
  const result = await app.admin.GET('/api/admin/roles/{roleId}', path(roleId));
  expect(result.response.status).toBe(200);
  return result.data!;
}

async function roleNames() {
  const { data, response } = await app.admin.GET('/api/admin/roles');
  expect(response.status).toBe(200);
  return data!.roles.map((r) => r.name);
}

const grants = (role: RoleWithPermissions) => role.permissions.map((p) => [p.name, p.environment ?? null]);

const rootCustom = (name = unique('root-custom')): UpsertRole => ({
  name,
  description: 'Manages segments',
  type: 'root-custom',
  permissions: [{ name: 'CREATE_SEGMENT' }, { name: 'UPDATE_SEGMENT' }],
});

const projectCustom = (name = unique('custom')): UpsertRole => ({
  name,
  description: 'Flags in development',
  type: 'custom',
  permissions: [{ name: 'UPDATE_FEATURE' }, { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }],
});

describe('reading roles', () => {
  it('lists the six built-in roles in id order with their types', async () => {
    const { data, response } = await app.admin.GET('/api/admin/roles');
    expect(response.status).toBe(200);
    expect(data!.version).toBe(1);
    expect(data!.roles.slice(0, 6).map(({ id, name, type }) => ({ id, name, type }))).toEqual(BUILT_INS);
    // A role has no project here: the key is left out, never null (tests/omitted-not-null.test.ts).
    for (const role of data!.roles) expect(role).not.toHaveProperty('project');
    for (const role of data!.roles) expect(typeof role.description).toBe('string');
    const ids = data!.roles.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('shows the Editor role with project and per-environment permissions, ordered', async () => {
    const editor = await getRole(2);
    expect(editor).toMatchObject({ id: 2, name: 'Editor', type: 'root' });
    expect(editor.permissions).toContainEqual({ id: 2, name: 'CREATE_FEATURE', displayName: 'Create feature flags', type: 'project' });
    expect(editor.permissions).toContainEqual({ id: 12, name: 'CREATE_PROJECT', displayName: 'Create projects', type: 'root' });
    const strategies = editor.permissions.filter((p) => p.name === 'CREATE_FEATURE_STRATEGY');
    expect(strategies).toEqual([
      { id: 25, name: 'CREATE_FEATURE_STRATEGY', displayName: 'Create activation strategies', type: 'environment', environment: 'development' },
      { id: 25, name: 'CREATE_FEATURE_STRATEGY', displayName: 'Create activation strategies', type: 'environment', environment: 'production' },
    ]);
    expect(editor.permissions.some((p) => p.name === 'ADMIN')).toBe(false);
    const order = editor.permissions.map((p) => `${String(p.id).padStart(4, '0')}:${p.environment ?? ''}`);
    expect(order).toEqual([...order].sort());
  });

  it('shows the Admin role holding ADMIN, and the Viewer role holding nothing', async () => {
    const admin = await getRole(1);
    expect(admin).toMatchObject({ id: 1, name: 'Admin', type: 'root' });
    expect(admin.permissions).toEqual([{ id: 1, name: 'ADMIN', displayName: 'Admin', type: 'root' }]);
    expect((await getRole(3)).permissions).toEqual([]);
  });

  it('answers 404 for an unknown role on get, put and delete, writing nothing', async () => {
    const before = await latestEventId();
    expectError(await app.admin.GET('/api/admin/roles/{roleId}', path(987654)), 404, 'NotFoundError');
    expectError(await app.admin.PUT('/api/admin/roles/{roleId}', { ...path(987654), body: rootCustom() }), 404, 'NotFoundError');
    expectError(await app.admin.DELETE('/api/admin/roles/{roleId}', path(987654)), 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 400 for a role id that is not a number', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await call(app, method, '/api/admin/roles/abc', method === 'PUT' ? { body: rootCustom() } : {});
      expectError(response, 400, 'ValidationError');
    }
  });

  it('needs a credential to read roles and permissions', async () => {
    expect((await app.clientWith().GET('/api/admin/roles')).response.status).toBe(401);
    expect((await app.clientWith().GET('/api/admin/permissions')).response.status).toBe(401);
  });
});

describe('creating roles', () => {
  it('creates a root-custom role with 201, a location, its permissions and one event', async () => {
    const name = unique('segment-manager');
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/roles', { body: { ...rootCustom(name), permissions: [{ name: 'UPDATE_SEGMENT' }, { name: 'CREATE_SEGMENT' }] } });
    expect(result.response.status).toBe(201);
    const role = result.data!;
    expect(result.response.headers.get('location')).toBe(`/api/admin/roles/${role.id}`);
    expect(role).toEqual({
      id: role.id,
      name,
      description: 'Manages segments',
      type: 'root-custom',
      permissions: [
        { id: 31, name: 'CREATE_SEGMENT', displayName: 'Create segments', type: 'root' },
        { id: 32, name: 'UPDATE_SEGMENT', displayName: 'Edit segments', type: 'root' },
      ],
    });
    expect(role.id).toBeGreaterThan(6);
    expect(await getRole(role.id)).toEqual(role);
    const { data } = await app.admin.GET('/api/admin/roles');
    expect(data!.roles).toContainEqual({ id: role.id, name, description: 'Manages segments', type: 'root-custom' });

    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'role-created', data: role });
  });

  it('creates a custom project role with project and environment permissions', async () => {
    const before = await latestEventId();
    const role = await createRole({
      ...projectCustom(),
      permissions: [
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
        { name: 'CREATE_FEATURE' },
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
      ],
    });
    expect(role.type).toBe('custom');
    expect(role.permissions).toEqual([
      { id: 2, name: 'CREATE_FEATURE', displayName: 'Create feature flags', type: 'project' },
      { id: 28, name: 'UPDATE_FEATURE_ENVIRONMENT', displayName: 'Enable/disable flags', type: 'environment', environment: 'development' },
      { id: 28, name: 'UPDATE_FEATURE_ENVIRONMENT', displayName: 'Enable/disable flags', type: 'environment', environment: 'production' },
    ]);
    expect(await getRole(role.id)).toEqual(role);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'role-created', data: role });
  });

  it('collapses duplicate permissions, defaults the description and accepts no permissions', async () => {
    const role = await createRole({
      name: unique('dupes'),
      type: 'custom',
      permissions: [
        { name: 'CREATE_FEATURE' },
        { name: 'CREATE_FEATURE' },
        { name: 'DELETE_FEATURE_STRATEGY', environment: 'development' },
        { name: 'DELETE_FEATURE_STRATEGY', environment: 'development' },
      ],
    });
    expect(role.description).toBe('');
    expect(grants(role)).toEqual([
      ['CREATE_FEATURE', null],
      ['DELETE_FEATURE_STRATEGY', 'development'],
    ]);
    const empty = await createRole({ name: unique('empty'), type: 'root-custom', permissions: [] });
    expect(empty.permissions).toEqual([]);
  });

  it('refuses a name that exists, in any case, with 409 NameExistsError', async () => {
    const taken = await createRole(rootCustom());
    const before = await latestEventId();
    for (const name of [taken.name, taken.name.toUpperCase(), 'admin', 'READER']) {
      const error = expectError(await app.admin.POST('/api/admin/roles', { body: projectCustom(name) }), 409, 'NameExistsError');
      expect(error.message.toLowerCase()).toContain(name.toLowerCase());
    }
    expect((await roleNames()).filter((n) => n.toLowerCase() === taken.name.toLowerCase())).toEqual([taken.name]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('lets only one of several concurrent creates differing in case win', async () => {
    const name = unique('race');
    const results = await Promise.all(
      [name, name.toUpperCase(), `${name[0]!.toUpperCase()}${name.slice(1)}`, name].map((n) => app.admin.POST('/api/admin/roles', { body: rootCustom(n) })),
    );
    expect(results.map((r) => r.response.status).sort()).toEqual([201, 409, 409, 409]);
    expect((await roleNames()).filter((n) => n.toLowerCase() === name)).toHaveLength(1);
  });

  const invalid: [string, UpsertRole, string][] = [
    ['an unknown permission', { name: 'x', type: 'root-custom', permissions: [{ name: 'CREATE_SEGMENT' }, { name: 'FLY_TO_THE_MOON' }] }, 'FLY_TO_THE_MOON'],
    ['a project permission in a root-custom role', { name: 'x', type: 'root-custom', permissions: [{ name: 'CREATE_FEATURE' }] }, 'CREATE_FEATURE'],
    ['an environment permission in a root-custom role', { name: 'x', type: 'root-custom', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }] }, 'UPDATE_FEATURE_ENVIRONMENT'],
    ['a root permission in a custom role', { name: 'x', type: 'custom', permissions: [{ name: 'CREATE_PROJECT' }] }, 'CREATE_PROJECT'],
    ['ADMIN in a root-custom role', { name: 'x', type: 'root-custom', permissions: [{ name: 'ADMIN' }] }, 'ADMIN'],
    ['ADMIN in a custom role', { name: 'x', type: 'custom', permissions: [{ name: 'ADMIN' }] }, 'ADMIN'],
    ['an environment permission without an environment', { name: 'x', type: 'custom', permissions: [{ name: 'CREATE_FEATURE_STRATEGY' }] }, 'environment'],
    ['an environment permission in an unknown environment', { name: 'x', type: 'custom', permissions: [{ name: 'CREATE_FEATURE_STRATEGY', environment: 'no-such-env' }] }, 'no-such-env'],
    ['a project permission with an environment', { name: 'x', type: 'custom', permissions: [{ name: 'CREATE_FEATURE', environment: 'development' }] }, 'environment'],
    ['a root permission with an environment', { name: 'x', type: 'root-custom', permissions: [{ name: 'CREATE_SEGMENT', environment: 'development' }] }, 'environment'],
  ];

  it.each(invalid)('refuses %s with 400, adding no role and no event', async (_case, body, mention) => {
    const name = unique('invalid');
    const before = await latestEventId();
    const error = expectError(await app.admin.POST('/api/admin/roles', { body: { ...body, name } }), 400, 'ValidationError');
    expect(error.message).toContain(mention);
    expect(await roleNames()).not.toContain(name);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses bodies the contract forbids with 400', async () => {
    expectError(await app.admin.POST('/api/admin/roles', { body: { name: '   ', type: 'custom', permissions: [] } }), 400, 'ValidationError');
    // Bodies the types forbid too, so sent raw.
    for (const body of [
      { name: 'x', type: 'root', permissions: [] },
      { name: 'x', type: 'custom' },
      { name: 'x', type: 'custom', permissions: [], extra: true },
    ]) {
      expectError(await call(app, 'POST', '/api/admin/roles', { body }), 400, 'ValidationError');
    }
  });

  it('answers 415 to a body that is not JSON, on create and update', async () => {
    const role = await createRole(rootCustom());
    const body = 'name=x&type=custom';
    expectError(await call(app, 'POST', '/api/admin/roles', { body, contentType: 'application/x-www-form-urlencoded' }), 415, 'ContentTypeerror');
    expectError(await call(app, 'PUT', `/api/admin/roles/${role.id}`, { body, contentType: 'text/plain' }), 415, 'ContentTypeerror');
  });
});

describe('updating roles', () => {
  it('replaces a root-custom role and records data and preData', async () => {
    const original = await createRole(rootCustom());
    const name = unique('renamed');
    const before = await latestEventId();
    const result = await app.admin.PUT('/api/admin/roles/{roleId}', {
      ...path(original.id),
      body: { name, description: 'Tag types now', type: 'root-custom', permissions: [{ name: 'CREATE_TAG_TYPE' }, { name: 'CREATE_SEGMENT' }] },
    });
    expect(result.response.status).toBe(200);
    const updated = result.data!;
    expect(updated).toMatchObject({ id: original.id, name, description: 'Tag types now', type: 'root-custom' });
    expect(grants(updated)).toEqual([
      ['CREATE_SEGMENT', null],
      ['CREATE_TAG_TYPE', null],
    ]);
    expect(await getRole(original.id)).toEqual(updated);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'role-updated', data: updated, preData: original });
  });

  it('replaces a custom role, including its environment permissions', async () => {
    const original = await createRole(projectCustom());
    const before = await latestEventId();
    const result = await app.admin.PUT('/api/admin/roles/{roleId}', {
      ...path(original.id),
      body: { name: original.name, type: 'custom', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' }] },
    });
    expect(result.response.status).toBe(200);
    expect(result.data).toEqual({
      id: original.id,
      name: original.name,
      description: '',
      type: 'custom',
      permissions: [{ id: 28, name: 'UPDATE_FEATURE_ENVIRONMENT', displayName: 'Enable/disable flags', type: 'environment', environment: 'production' }],
    });
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'role-updated', data: result.data, preData: original });
  });

  it('writes no event for an update that changes nothing, and keeps its own name in another case', async () => {
    const original = await createRole(rootCustom());
    const before = await latestEventId();
    const same = await app.admin.PUT('/api/admin/roles/{roleId}', {
      ...path(original.id),
      body: { ...rootCustom(original.name), permissions: [{ name: 'UPDATE_SEGMENT' }, { name: 'CREATE_SEGMENT' }, { name: 'CREATE_SEGMENT' }] },
    });
    expect(same.response.status).toBe(200);
    expect(same.data).toEqual(original);
    expect(await eventsSince(before)).toEqual([]);

    const upper = await app.admin.PUT('/api/admin/roles/{roleId}', { ...path(original.id), body: rootCustom(original.name.toUpperCase()) });
    expect(upper.response.status).toBe(200);
    expect(upper.data!.name).toBe(original.name.toUpperCase());
  });

  it("refuses to change a role's type with 400", async () => {
    const root = await createRole(rootCustom());
    const project = await createRole(projectCustom());
    const before = await latestEventId();
    expectError(await app.admin.PUT('/api/admin/roles/{roleId}', { ...path(root.id), body: projectCustom(root.name) }), 400, 'ValidationError');
    expectError(await app.admin.PUT('/api/admin/roles/{roleId}', { ...path(project.id), body: rootCustom(project.name) }), 400, 'ValidationError');
    expect(await getRole(root.id)).toEqual(root);
    expect(await getRole(project.id)).toEqual(project);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('validates permissions on update as on create', async () => {
    const role = await createRole(projectCustom());
    const before = await latestEventId();
    for (const permissions of [[{ name: 'NOPE' }], [{ name: 'CREATE_PROJECT' }], [{ name: 'APPLY_CHANGE_REQUEST' }], [{ name: 'ADMIN' }]]) {
      expectError(await app.admin.PUT('/api/admin/roles/{roleId}', { ...path(role.id), body: { ...projectCustom(role.name), permissions } }), 400, 'ValidationError');
    }
    expect(await getRole(role.id)).toEqual(role);
    expect(await eventsSince(before)).toEqual([]);
  });

  it("refuses another role's name, in any case, with 409", async () => {
    const taken = await createRole(rootCustom());
    const role = await createRole(rootCustom());
    const before = await latestEventId();
    for (const name of [taken.name, taken.name.toUpperCase(), 'Editor']) {
      expectError(await app.admin.PUT('/api/admin/roles/{roleId}', { ...path(role.id), body: rootCustom(name) }), 409, 'NameExistsError');
    }
    expect(await getRole(role.id)).toEqual(role);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each(BUILT_INS)('refuses to update or delete the built-in $name role with 409', async ({ id, type }) => {
    const before = await latestEventId();
    const body = type === 'root' ? rootCustom(unique('builtin')) : projectCustom(unique('builtin'));
    const original = await getRole(id);
    const update = expectError(await app.admin.PUT('/api/admin/roles/{roleId}', { ...path(id), body }), 409, 'ConflictError');
    expect(update.message).toContain('built-in roles cannot be changed');
    expectError(await app.admin.DELETE('/api/admin/roles/{roleId}', path(id)), 409, 'ConflictError');
    expect(await getRole(id)).toEqual(original);
    expect(await eventsSince(before)).toEqual([]);
  });
});

describe('deleting roles', () => {
  it.each([['root-custom', rootCustom], ['custom', projectCustom]] as const)('deletes an unused %s role with 200 and an event', async (_type, body) => {
    const role = await createRole(body());
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/roles/{roleId}', path(role.id));
    expect(result.response.status).toBe(200);
    expectError(await app.admin.GET('/api/admin/roles/{roleId}', path(role.id)), 404, 'NotFoundError');
    expect(await roleNames()).not.toContain(role.name);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'role-deleted', preData: role });
    // The name is free again.
    expect((await createRole(body(role.name))).name).toBe(role.name);
  });

  async function expectInUse(roleId: number, mention: string) {
    const before = await latestEventId();
    const error = expectError(await app.admin.DELETE('/api/admin/roles/{roleId}', path(roleId)), 409, 'ConflictError');
    expect(error.message).toContain(mention);
    expect((await getRole(roleId)).id).toBe(roleId);
    expect(await eventsSince(before)).toEqual([]);
  }

  async function expectDeletable(roleId: number) {
    expect((await app.admin.DELETE('/api/admin/roles/{roleId}', path(roleId))).response.status).toBe(200);
  }

  it("refuses to delete a user's root role with 409, until the user has another", async () => {
    const role = await createRole(rootCustom());
    const [user] = await app.db.insert(t.users).values({ username: unique('user'), rootRoleId: role.id }).returning();
    await expectInUse(role.id, 'root role');
    await app.db.update(t.users).set({ rootRoleId: 3 }).where(eq(t.users.id, user!.id));
    await expectDeletable(role.id);
  });

  it("refuses to delete a role a user's project membership uses with 409", async () => {
    const role = await createRole(projectCustom());
    const [user] = await app.db.insert(t.users).values({ username: unique('member'), rootRoleId: 3 }).returning();
    await app.db.insert(t.projectUserRoles).values({ userId: user!.id, project: 'default', roleId: role.id });
    await expectInUse(role.id, 'user project membership');
    await app.db.delete(t.projectUserRoles).where(eq(t.projectUserRoles.roleId, role.id));
    await expectDeletable(role.id);
  });

  it("refuses to delete a role a group's project membership or root role uses with 409", async () => {
    const projectRole = await createRole(projectCustom());
    const rootRole = await createRole(rootCustom());
    const [group] = await app.db.insert(t.groups).values({ name: unique('group'), rootRoleId: rootRole.id }).returning();
    await app.db.insert(t.projectGroupRoles).values({ groupId: group!.id, project: 'default', roleId: projectRole.id });
    await expectInUse(projectRole.id, 'group project membership');
    await expectInUse(rootRole.id, 'group(s) hold it as their root role');
    await app.db.delete(t.groups).where(eq(t.groups.id, group!.id));
    await expectDeletable(projectRole.id);
    await expectDeletable(rootRole.id);
  });

  it('refuses to delete a role a public signup token grants with 409', async () => {
    const role = await createRole(rootCustom());
    const secret = unique('secret');
    await app.db.insert(t.publicSignupTokens).values({ secret, name: secret, expiresAt: new Date(Date.now() + 86_400_000), roleId: role.id });
    await expectInUse(role.id, 'signup token');
    await app.db.delete(t.publicSignupTokens).where(eq(t.publicSignupTokens.secret, secret));
    await expectDeletable(role.id);
  });
});

describe('the permission listing', () => {
  it('lists root, project and per-environment permissions, including a new environment', async () => {
    const environment = unique('aaa-staging');
    const created = await app.admin.POST('/api/admin/environments', { body: { name: environment, type: 'test', sortOrder: 2 } });
    expect(created.response.status).toBe(201);

    const { data, response } = await app.admin.GET('/api/admin/permissions');
    expect(response.status).toBe(200);
    expect(data!.version).toBe(2);
    const { root, project, environments } = data!.permissions;

    expect(root[0]).toEqual({ id: 1, name: 'ADMIN', displayName: 'Admin', type: 'root' });
    expect(root.every((p) => p.type === 'root' && !('environment' in p))).toBe(true);
    expect(root.map((p) => p.name)).toContain('CREATE_SEGMENT');
    expect(project).toContainEqual({ id: 2, name: 'CREATE_FEATURE', displayName: 'Create feature flags', type: 'project' });
    expect(project.every((p) => p.type === 'project' && !('environment' in p))).toBe(true);
    for (const list of [root, project]) expect(list.map((p) => p.id)).toEqual([...list.map((p) => p.id)].sort((a, b) => a - b));

    // sortOrder 2 ties with development; the name breaks the tie.
    expect(environments.map((e) => e.name)).toEqual([environment, 'development', 'production']);
    for (const env of environments) {
      expect(env.permissions.length).toBe(8);
      expect(env.permissions.every((p) => p.type === 'environment' && p.environment === env.name)).toBe(true);
      expect(env.permissions.map((p) => p.id)).toEqual([25, 26, 27, 28, 35, 36, 37, 38]);
    }
    expect(environments[1]!.permissions[0]).toEqual({
      id: 25,
      name: 'CREATE_FEATURE_STRATEGY',
      displayName: 'Create activation strategies',
      type: 'environment',
      environment: 'development',
    });

    // The new environment can be granted right away.
    const role = await createRole({ name: unique('staging-role'), type: 'custom', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment }] });
    expect(grants(role)).toEqual([['UPDATE_FEATURE_ENVIRONMENT', environment]]);
  });
});

describe('environments and the built-in roles', () => {
  const environmentGrants = (role: RoleWithPermissions, environment: string) =>
    grants(role).filter(([, env]) => env === environment).map(([name]) => name).sort();
  const FIVE = ['CREATE_FEATURE_STRATEGY', 'DELETE_FEATURE_STRATEGY', 'UPDATE_FEATURE_ENVIRONMENT', 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', 'UPDATE_FEATURE_STRATEGY'];

  it('gives Editor, Owner and Member the environment permissions of a new environment, and drops them with it', async () => {
    const environment = unique('qa');
    const created = await app.admin.POST('/api/admin/environments', { body: { name: environment, type: 'test' } });
    expect(created.response.status).toBe(201);
    for (const id of [2, 4, 5]) expect(environmentGrants(await getRole(id), environment)).toEqual(FIVE);
    for (const id of [1, 3, 6]) expect(environmentGrants(await getRole(id), environment)).toEqual([]);

    const custom = await createRole({ name: unique('qa-role'), type: 'custom', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment }] });
    const deleted = await app.admin.DELETE('/api/admin/environments/{environment}', { params: { path: { environment } } });
    expect(deleted.response.status).toBe(200);
    for (const id of [2, 4, 5, custom.id]) expect(environmentGrants(await getRole(id), environment)).toEqual([]);
  });
});
