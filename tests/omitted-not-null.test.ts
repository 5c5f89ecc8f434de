import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { call, startTestApp, type TestApp } from './support/app.js';
import { as, userWithSession } from './support/users.js';
import { allowsNull, fieldSchema, nullsIn, okSchemaOf } from './support/null-check.js';

// Fields the interface (shared/contract/interface.md) types as a plain string, integer, object or date-time,
// not "or null", are left out of an answer when they have no value; they are never `null`.

let app: TestApp;
const unique = uniqueNames();

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
  const ok = (response: Awaited<ReturnType<typeof call>>, status: number) => {
    expect(response.status, response.text).toBe(status);
    return response.json;
  };
  project = unique('nulls');
  ok(await call(app, 'POST', '/api/admin/projects', { body: { id: project, name: `Project ${project}` } }), 201);
  // A flag with nothing optional: no description, no dependencies, never seen, not archived; one untitled strategy.
  flag = unique('bare');
  ok(await call(app, 'POST', `/api/admin/projects/${project}/features`, { body: { name: flag } }), 201);
  ok(await call(app, 'POST', `/api/admin/projects/${project}/features/${flag}/environments/development/strategies`, { body: { name: 'default' } }), 200);
  tagType = unique('bare-type');
  ok(await call(app, 'POST', '/api/admin/tag-types', { body: { name: tagType } }), 201);
  // A user with a username only (no name, no email), and a group with no description and no root role.
  usernameOnly = ok(await call(app, 'POST', '/api/admin/user-admin', { body: { username: unique('only-username'), rootRole: 'Viewer' } }), 201);
  group = ok(await call(app, 'POST', '/api/admin/groups', { body: { name: unique('bare-group'), users: [{ user: { id: usernameOnly.id } }] } }), 201);
  ok(await call(app, 'POST', `/api/admin/projects/${project}/access`, { body: { roles: [5], users: [usernameOnly.id], groups: [group.id] } }), 200);
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
    const response = await call(app, 'GET', `/api/admin/search/features?query=${flag}`);
    expect(response.status, response.text).toBe(200);
    const found = response.json.features.find((f: { name: string }) => f.name === flag);
    expect(found).toBeDefined();
    for (const key of ['description', 'dependencyType', 'archivedAt', 'lastSeenAt']) expect(found, key).not.toHaveProperty(key);
    expect(found.createdBy).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
    expect(found.createdBy).not.toHaveProperty('imageUrl');
    const strategy = found.environments.find((e: { name: string }) => e.name === 'development').strategies[0];
    expect(strategy).toMatchObject({ name: 'default' });
    expect(strategy).not.toHaveProperty('title');
  });

  it('still gives the values a flag has: description, dependencyType and archivedAt', async () => {
    const parent = unique('parent');
    await call(app, 'POST', `/api/admin/projects/${project}/features`, { body: { name: parent, description: 'described' } });
    const child = unique('child');
    await call(app, 'POST', `/api/admin/projects/${project}/features`, { body: { name: child } });
    const linked = await call(app, 'POST', `/api/admin/projects/${project}/features/${child}/dependencies`, { body: { feature: parent } });
    expect(linked.status, linked.text).toBeLessThan(300);
    const search = await call(app, 'GET', `/api/admin/search/features?project=IS:${project}&limit=100`);
    const byName = new Map(search.json.features.map((f: { name: string }) => [f.name, f]));
    expect(byName.get(parent)).toMatchObject({ description: 'described', dependencyType: 'parent' });
    expect(byName.get(child)).toMatchObject({ dependencyType: 'child' });

    const archived = unique('archived');
    await call(app, 'POST', `/api/admin/projects/${project}/features`, { body: { name: archived } });
    expect((await call(app, 'DELETE', `/api/admin/projects/${project}/features/${archived}`)).status).toBe(202);
    const inArchive = await call(app, 'GET', `/api/admin/search/features?project=IS:${project}&archived=IS:true`);
    expect(inArchive.json.features.find((f: { name: string }) => f.name === archived)).toMatchObject({ archivedAt: expect.any(String) });
  });
});

describe('feature search: the creator', () => {
  it('gives the image of the user who created the flag', async () => {
    const creator = await userWithSession(app, 'Editor', 'creator');
    const name = unique('by-user');
    const created = await call(app, 'POST', '/api/admin/projects/default/features', { ...as(creator), body: { name } });
    expect(created.status, created.text).toBe(201);
    const user = await call(app, 'GET', `/api/admin/user-admin/${creator.id}`);
    const search = await call(app, 'GET', `/api/admin/search/features?query=${name}`);
    expect(search.json.features.find((f: { name: string }) => f.name === name).createdBy).toEqual({ id: creator.id, name: creator.email, imageUrl: user.json.imageUrl });
  });
});

describe('project access', () => {
  it('lists roles without a project key', async () => {
    const response = await call(app, 'GET', `/api/admin/projects/${project}/access`);
    expect(response.status, response.text).toBe(200);
    expect(response.json.roles.length).toBeGreaterThan(0);
    for (const role of response.json.roles) expect(role).not.toHaveProperty('project');
  });

  it('leaves out the name and email of a user who has neither, and the description, root role and SCIM id of a group without them', async () => {
    const response = await call(app, 'GET', `/api/admin/projects/${project}/access`);
    const user = response.json.users.find((u: { id: number }) => u.id === usernameOnly.id);
    expect(user).toMatchObject({ imageUrl: expect.any(String), roles: [5] });
    expect(user).not.toHaveProperty('name');
    expect(user).not.toHaveProperty('email');
    const listed = response.json.groups.find((g: { id: number }) => g.id === group.id);
    expect(listed).toMatchObject({ roles: [5] });
    for (const key of ['description', 'rootRole', 'scimId']) expect(listed, key).not.toHaveProperty(key);
  });
});

describe('every read', () => {
  const reads: [string, string | (() => string)][] = [
    ['/api/admin/search/features', () => `/api/admin/search/features?project=IS:${project}&limit=100`],
    ['/api/admin/projects/{projectId}/access', () => `/api/admin/projects/${project}/access`],
    ['/api/admin/projects/{projectId}/features', () => `/api/admin/projects/${project}/features`],
    ['/api/admin/projects/{projectId}/features/{featureName}', () => `/api/admin/projects/${project}/features/${flag}`],
    ['/api/admin/archive/features/{projectId}', () => `/api/admin/archive/features/${project}`],
    ['/api/admin/roles', '/api/admin/roles'],
    ['/api/admin/roles/{roleId}', '/api/admin/roles/2'],
    ['/api/admin/permissions', '/api/admin/permissions'],
    ['/api/admin/tag-types', '/api/admin/tag-types'],
    ['/api/admin/tag-types/{typeName}', () => `/api/admin/tag-types/${tagType}`],
    ['/api/admin/user-admin', '/api/admin/user-admin'],
    ['/api/admin/user-admin/{id}', () => `/api/admin/user-admin/${usernameOnly.id}`],
    ['/api/admin/groups', '/api/admin/groups'],
    ['/api/admin/groups/{groupId}', () => `/api/admin/groups/${group.id}`],
  ];

  it.each(reads)('%s answers null only where the contract allows it and the interface does not type the field as plain', async (template, path) => {
    const response = await call(app, 'GET', typeof path === 'string' ? path : path());
    expect(response.status, response.text).toBe(200);
    const nulls = nullsIn(response.json, okSchemaOf(template, 'get'));
    const wrong = nulls.filter((n) => !n.allowed || plainInInterface.includes(n.field)).map((n) => `${n.at} (${n.field})`);
    expect(wrong).toEqual([]);
  });
});
