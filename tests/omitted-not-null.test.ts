import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { startTestApp, type TestApp } from './support/app.js';
import { fixtures, flagPath, inProject, ok } from './support/fixtures.js';
import { searchAs } from './support/search.js';
import { createFlagAs, userWithSession } from './support/users.js';
import { allowsNull, fieldSchema, nullsIn, okSchemaOf } from './support/null-check.js';

// Fields the interface (shared/contract/interface.md) types as a plain string, integer, object or date-time,
// not "or null", are left out of an answer when they have no value; they are never `null`.

let app: TestApp;
const unique = uniqueNames();
const { newProject, createFlag, newFlag, addStrategy, archiveFlag } = fixtures(() => app, unique);

/** Every field of a response schema the interface types without "or null", as `Component.path`. */
const plainInInterface = [
  // Admin search result: "name, type, description: string", "dependencyType: string", "createdAt, archivedAt, lastSeenAt: date-time",
  // "lifecycle: object", "createdBy: object: id integer, name string, imageUrl string".
  'SearchedFeature.description',
  'SearchedFeature.dependencyType',
  'SearchedFeature.archivedAt',
  'SearchedFeature.lastSeenAt',
  'SearchedFeature.lifecycle',
  'SearchedFeature.createdBy.imageUrl',
  // Search strategy: "`name`, `title`, `featureName` strings".
  'FeatureStrategy.title',
  // Archived feature (the flag read's shape): "`name`, `type`, `description`, `project` strings", "`createdAt`, `archivedAt` date-times";
  // lastSeenAt as in search.
  'Feature.description',
  'Feature.archivedAt',
  'Feature.lastSeenAt',
  // Role: "description string", "project string". Permission: "environment string".
  'Role.description',
  'Role.project',
  'Permission.environment',
  // Project access: group entry "`name`, `description` strings … `rootRole` integer; `createdBy` string; `scimId` string";
  // user entry "`name`, `email`, `imageUrl` strings".
  'ProjectAccessGroup.description',
  'ProjectAccessGroup.rootRole',
  'ProjectAccessGroup.createdBy',
  'ProjectAccessGroup.scimId',
  'ProjectAccessUser.name',
  'ProjectAccessUser.email',
  'ProjectAccessUser.imageUrl',
  // Tag type: "description string", "icon string". User: "email string", "imageUrl string".
  'TagType.description',
  'TagType.icon',
  'User.email',
  'User.imageUrl',
];

let flag: string;
let project: string;
let tagType: string;
let usernameOnly: { id: number };
let group: { id: number };

beforeAll(async () => {
  app = await startTestApp();
  project = await newProject('nulls');
  // A flag with nothing optional: no description, no dependencies, never seen, not archived; one untitled strategy.
  flag = await newFlag('bare', project);
  await addStrategy(flag, { name: 'default' }, 'development', project);
  tagType = unique('bare-type');
  await ok(app.admin.POST('/api/admin/tag-types', { body: { name: tagType } }), 201);
  // A user with a username only (no name, no email), and a group with no description and no root role.
  usernameOnly = await ok(app.admin.POST('/api/admin/user-admin', { body: { username: unique('only-username'), rootRole: 'Viewer' } }), 201);
  group = await ok(app.admin.POST('/api/admin/groups', { body: { name: unique('bare-group'), users: [{ user: { id: usernameOnly.id } }] } }), 201);
  await ok(app.admin.POST('/api/admin/projects/{projectId}/access', { params: { path: { projectId: project } }, body: { roles: [5], users: [usernameOnly.id], groups: [group.id] } }), 200);
});

describe('the contract', () => {
  it.each(plainInInterface)('does not allow null for %s', (field) => {
    const schema = fieldSchema(field);
    expect(schema, `${field} is not in the contract`).toBeDefined();
    expect(allowsNull(schema!) || (schema!.oneOf ?? []).some(allowsNull)).toBe(false);
  });
});


describe('feature search', () => {
  it('leaves out description, dependencyType, archivedAt, lastSeenAt and createdBy.imageUrl of a flag that has none', async () => {
    const found = (await searchAs(app.admin, { query: flag })).features.find((f) => f.name === flag)!;
    expect(found).toBeDefined();
    for (const key of ['description', 'dependencyType', 'archivedAt', 'lastSeenAt']) expect(found, key).not.toHaveProperty(key);
    expect(found.createdBy).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
    expect(found.createdBy).not.toHaveProperty('imageUrl');
    const strategy = found.environments.find((e) => e.name === 'development')!.strategies[0];
    expect(strategy).toMatchObject({ name: 'default' });
    expect(strategy).not.toHaveProperty('title');
  });

  it('still gives the values a flag has: description, dependencyType and archivedAt', async () => {
    const parent = await createFlag(project, unique('parent'), { description: 'described' });
    const child = await newFlag('child', project);
    await ok(app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', { params: { path: flagPath(child, project) }, body: { feature: parent } }));
    const byName = new Map((await searchAs(app.admin, { project: `IS:${project}`, limit: '100' })).features.map((f) => [f.name, f]));
    expect(byName.get(parent)).toMatchObject({ description: 'described', dependencyType: 'parent' });
    expect(byName.get(child)).toMatchObject({ dependencyType: 'child' });

    const archived = await newFlag('archived', project);
    await archiveFlag(project, archived);
    const inArchive = (await searchAs(app.admin, { project: `IS:${project}`, archived: 'IS:true' })).features;
    expect(inArchive.find((f) => f.name === archived)).toMatchObject({ archivedAt: expect.any(String) });
  });
});

describe('feature search: the creator', () => {
  it('gives the image of the user who created the flag', async () => {
    const creator = await userWithSession(app, 'Editor', 'creator');
    const name = unique('by-user');
    await ok(createFlagAs(app, creator, 'default', name), 201);
    const user = await ok(app.admin.GET('/api/admin/user-admin/{id}', { params: { path: { id: creator.id } } }));
    expect((await searchAs(app.admin, { query: name })).features.find((f) => f.name === name)!.createdBy).toEqual({ id: creator.id, name: creator.email, imageUrl: user.imageUrl });
  });
});

describe('project access', () => {
  const access = () => ok(app.admin.GET('/api/admin/projects/{projectId}/access', { params: { path: { projectId: project } } }), 200);

  it('lists roles without a project key', async () => {
    const { roles } = await access();
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) expect(role).not.toHaveProperty('project');
  });

  it('leaves out the name and email of a user who has neither, and the description, root role and SCIM id of a group without them', async () => {
    const { users, groups } = await access();
    const user = users.find((u) => u.id === usernameOnly.id);
    expect(user).toMatchObject({ imageUrl: expect.any(String), roles: [5] });
    expect(user).not.toHaveProperty('name');
    expect(user).not.toHaveProperty('email');
    const listed = groups.find((g) => g.id === group.id);
    expect(listed).toMatchObject({ roles: [5] });
    for (const key of ['description', 'rootRole', 'scimId']) expect(listed, key).not.toHaveProperty(key);
  });
});

describe('every read', () => {
  const reads: [string, () => Promise<{ data?: unknown; error?: unknown; response: Response }>][] = [
    ['/api/admin/search/features', () => app.admin.GET('/api/admin/search/features', { params: { query: { project: `IS:${project}`, limit: '100' } } })],
    ['/api/admin/projects/{projectId}/access', () => app.admin.GET('/api/admin/projects/{projectId}/access', inProject(project))],
    ['/api/admin/projects/{projectId}/features', () => app.admin.GET('/api/admin/projects/{projectId}/features', inProject(project))],
    ['/api/admin/projects/{projectId}/features/{featureName}', () => app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(flag, project) } })],
    ['/api/admin/archive/features/{projectId}', () => app.admin.GET('/api/admin/archive/features/{projectId}', inProject(project))],
    ['/api/admin/roles', () => app.admin.GET('/api/admin/roles')],
    ['/api/admin/roles/{roleId}', () => app.admin.GET('/api/admin/roles/{roleId}', { params: { path: { roleId: 2 } } })],
    ['/api/admin/permissions', () => app.admin.GET('/api/admin/permissions')],
    ['/api/admin/tag-types', () => app.admin.GET('/api/admin/tag-types')],
    ['/api/admin/tag-types/{typeName}', () => app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: tagType } } })],
    ['/api/admin/user-admin', () => app.admin.GET('/api/admin/user-admin')],
    ['/api/admin/user-admin/{id}', () => app.admin.GET('/api/admin/user-admin/{id}', { params: { path: { id: usernameOnly.id } } })],
    ['/api/admin/groups', () => app.admin.GET('/api/admin/groups')],
    ['/api/admin/groups/{groupId}', () => app.admin.GET('/api/admin/groups/{groupId}', { params: { path: { groupId: group.id } } })],
  ];

  it.each(reads)('%s answers null only where the contract allows it and the interface does not type the field as plain', async (template, read) => {
    const nulls = nullsIn(await ok(read(), 200), okSchemaOf(template, 'get'));
    const wrong = nulls.filter((n) => !n.allowed || plainInInterface.includes(n.field)).map((n) => `${n.at} (${n.field})`);
    expect(wrong).toEqual([]);
  });
});
