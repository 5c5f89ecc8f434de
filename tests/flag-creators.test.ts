import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import type { ServiceClient } from '../client/index.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { clientAs, createFlagAs, sessionOf, userWithSession, USER_PASSWORD, type TestUser } from './support/users.js';
import { fixtures, flagPath, newApiToken, ok } from './support/fixtures.js';

type FlagCreator = components['schemas']['FlagCreator'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newProject, newFlag, archiveFlag } = fixtures(() => app, unique);

/** An Editor created with exactly these identity fields, logged in by its username or else its email. */
async function editor(identity: { name?: string; username?: string; email?: string }): Promise<TestUser> {
  const created = await ok(app.admin.POST('/api/admin/user-admin', { body: { ...identity, password: USER_PASSWORD, rootRole: 'Editor' } }), 201);
  const login = identity.username ?? identity.email!;
  return { id: created.id, email: identity.email ?? '', cookie: await sessionOf(app, login) };
}

const MEMBER = 5;

/** Lets the user create flags in the project: an Editor's flag permissions hold in `default` only. */
async function makeMember(project: string, user: TestUser) {
  await ok(app.admin.PUT('/api/admin/projects/{projectId}/users/{userId}/roles', { params: { path: { projectId: project, userId: user.id } }, body: { roles: [MEMBER] } }), 200);
}

/** Creates a flag in the project as the user (made a Member of it first), or with the admin token when no user is given; its name. */
async function createFlag(project: string, user?: TestUser): Promise<string> {
  if (!user) return newFlag('flag', project);
  await makeMember(project, user);
  return (await ok(createFlagAs(app, user, project, unique('flag')), 201)).name;
}

const creatorsOf = (projectId: string, client: ServiceClient = app.admin) =>
  client.GET('/api/admin/projects/{projectId}/flag-creators', { params: { path: { projectId } } });
const creators = (project: string, client?: ServiceClient): Promise<FlagCreator[]> => ok(creatorsOf(project, client), 200);

const byId = (list: FlagCreator[]) => [...list].sort((a, b) => a.id - b.id);

describe('the creators of a project’s flags', () => {
  it('lists every user who created a flag once, as {id, name}', async () => {
    const project = await newProject();
    const [a, b] = [await userWithSession(app, 'Editor'), await userWithSession(app, 'Editor')];
    await createFlag(project, a);
    await createFlag(project, b);
    await createFlag(project, a);
    await createFlag(project, a);

    const listed = await creators(project);
    expect(listed).toHaveLength(2);
    expect(byId(listed)).toEqual(byId([{ id: a.id, name: a.email }, { id: b.id, name: b.email }]));
    for (const creator of listed) expect(Object.keys(creator).sort()).toEqual(['id', 'name']);
  });

  it('names each creator by name, else by username, else by email', async () => {
    const project = await newProject();
    const key = unique('who');
    const named = await editor({ name: `Ada ${key}`, username: `ada-${key}`, email: `ada-${key}@example.com` });
    const withUsername = await editor({ username: `bob-${key}`, email: `bob-${key}@example.com` });
    const withUsernameOnly = await editor({ username: `cy-${key}` });
    const withEmailOnly = await editor({ email: `dee-${key}@example.com` });
    for (const user of [named, withUsername, withUsernameOnly, withEmailOnly]) await createFlag(project, user);

    expect(byId(await creators(project))).toEqual(
      byId([
        { id: named.id, name: `Ada ${key}` },
        { id: withUsername.id, name: `bob-${key}` },
        { id: withUsernameOnly.id, name: `cy-${key}` },
        { id: withEmailOnly.id, name: `dee-${key}@example.com` },
      ]),
    );
  });

  it('follows a change of the creator’s name', async () => {
    const project = await newProject();
    const key = unique('renamed');
    const user = await editor({ username: key });
    await createFlag(project, user);
    expect(await creators(project)).toEqual([{ id: user.id, name: key }]);

    await ok(app.admin.PUT('/api/admin/user-admin/{id}', { params: { path: { id: user.id } }, body: { name: `Renamed ${key}` } }), 200);
    expect(await creators(project)).toEqual([{ id: user.id, name: `Renamed ${key}` }]);
  });

  it('adds nobody for flags created with an API token', async () => {
    const project = await newProject();
    await createFlag(project);
    await createFlag(project);
    expect(await creators(project)).toEqual([]);

    const user = await userWithSession(app, 'Editor');
    await createFlag(project, user);
    expect(await creators(project)).toEqual([{ id: user.id, name: user.email }]);
  });

  it('counts a flag created with a personal access token as its user’s', async () => {
    const project = await newProject();
    const user = await userWithSession(app, 'Editor');
    await makeMember(project, user);
    const pat = await ok(
      clientAs(app, user).POST('/api/admin/user/tokens', { body: { description: 'flags', expiresAt: new Date(Date.UTC(2099, 0, 1)).toISOString() } }),
      201,
    );
    await ok(app.clientWith(pat.secret).POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: project } }, body: { name: unique('flag') } }), 201);
    expect(await creators(project)).toEqual([{ id: user.id, name: user.email }]);
  });

  it('leaves out a creator whose account was deleted', async () => {
    const project = await newProject();
    const [kept, deleted] = [await userWithSession(app, 'Editor'), await userWithSession(app, 'Editor')];
    await createFlag(project, kept);
    await createFlag(project, deleted);
    await ok(app.admin.DELETE('/api/admin/user-admin/{id}', { params: { path: { id: deleted.id } } }), 200);
    expect(await creators(project)).toEqual([{ id: kept.id, name: kept.email }]);
  });

  it('answers an empty list for a project without flags', async () => {
    expect(await creators(await newProject())).toEqual([]);
  });

  it('leaves out the creator of an archived flag until the flag is revived', async () => {
    const project = await newProject();
    const user = await userWithSession(app, 'Editor');
    const flag = await createFlag(project, user);
    await archiveFlag(project, flag);
    expect(await creators(project)).toEqual([]);

    await ok(app.admin.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName: flag } } }), 200);
    expect(await creators(project)).toEqual([{ id: user.id, name: user.email }]);
  });

  it('keeps listing a creator whose other flag in the project is still active', async () => {
    const project = await newProject();
    const [keeper, leaver] = [await userWithSession(app, 'Editor'), await userWithSession(app, 'Editor')];
    await archiveFlag(project, await createFlag(project, keeper));
    await createFlag(project, keeper);
    await archiveFlag(project, await createFlag(project, leaver));
    expect(await creators(project)).toEqual([{ id: keeper.id, name: keeper.email }]);
  });

  it('lists only the creators of this project’s flags, and counts a moved flag in its new project', async () => {
    const [here, elsewhere] = [await newProject(), await newProject()];
    const [local, foreign, mover] = [await userWithSession(app, 'Editor'), await userWithSession(app, 'Editor'), await userWithSession(app, 'Editor')];
    await createFlag(here, local);
    await createFlag(elsewhere, foreign);
    const moved = await createFlag(elsewhere, mover);
    expect(await creators(here)).toEqual([{ id: local.id, name: local.email }]);

    await ok(
      app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', { params: { path: flagPath(moved, elsewhere) }, body: { newProjectId: here } }),
      200,
    );
    expect(byId(await creators(here))).toEqual(byId([{ id: local.id, name: local.email }, { id: mover.id, name: mover.email }]));
    expect(await creators(elsewhere)).toEqual([{ id: foreign.id, name: foreign.email }]);
  });
});

describe('who may read the creators', () => {
  let project: string;
  let creator: TestUser;
  beforeAll(async () => {
    project = await newProject();
    creator = await userWithSession(app, 'Editor');
    await createFlag(project, creator);
  });

  it('answers 404 for an unknown project', async () => {
    const error = expectError(await creatorsOf('no-such-project'), 404, 'NotFoundError');
    expect(error.message).toContain('no-such-project');
  });

  it('answers a Viewer’s session like the admin token', async () => {
    const viewer = await userWithSession(app, 'Viewer');
    expect(await creators(project, clientAs(app, viewer))).toEqual([{ id: creator.id, name: creator.email }]);
  });

  it('answers 403 to a client token', async () => {
    const token = await newApiToken(app, { type: 'client' });
    expectError(await creatorsOf(project, app.clientWith(token)), 403, 'NoAccessError');
  });

  it('answers 401 without a credential', async () => {
    expectError(await creatorsOf(project, app.clientWith()), 401, 'AuthenticationRequired');
  });
});
