import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from 'flag-service/client';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { as, sessionOf, userWithSession, USER_PASSWORD, type TestUser } from './support/users.js';
import { fixtures } from './support/fixtures.js';

type FlagCreator = components['schemas']['FlagCreator'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newProject } = fixtures(() => app, unique);

/** An Editor created with exactly these identity fields, logged in by its username or else its email. */
async function editor(identity: { name?: string; username?: string; email?: string }): Promise<TestUser> {
  const created = await call(app, 'POST', '/api/admin/user-admin', { body: { ...identity, password: USER_PASSWORD, rootRole: 'Editor' } });
  expect(created.status, created.text).toBe(201);
  const login = identity.username ?? identity.email!;
  return { id: created.json.id, email: identity.email ?? '', cookie: await sessionOf(app, login) };
}

const MEMBER = 5;

/** Lets the user create flags in the project: an Editor's flag permissions hold in `default` only. */
async function makeMember(project: string, user: TestUser) {
  const membership = await call(app, 'PUT', `/api/admin/projects/${project}/users/${user.id}/roles`, { body: { roles: [MEMBER] } });
  expect(membership.status, membership.text).toBe(200);
}

/** Creates a flag in the project as the user (made a Member of it first), or with the admin token when no user is given; its name. */
async function createFlag(project: string, user?: TestUser): Promise<string> {
  const name = unique('flag');
  if (user) await makeMember(project, user);
  const options = user ? as(user) : {};
  const created = await call(app, 'POST', `/api/admin/projects/${project}/features`, { ...options, body: { name } });
  expect(created.status, created.text).toBe(201);
  return name;
}

async function archive(project: string, flag: string) {
  const archived = await call(app, 'DELETE', `/api/admin/projects/${project}/features/${flag}`);
  expect(archived.status, archived.text).toBe(202);
}

async function creators(project: string, options: Parameters<typeof call>[3] = {}): Promise<FlagCreator[]> {
  const response = await call(app, 'GET', `/api/admin/projects/${project}/flag-creators`, options);
  expect(response.status, response.text).toBe(200);
  return response.json;
}

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

    const updated = await call(app, 'PUT', `/api/admin/user-admin/${user.id}`, { body: { name: `Renamed ${key}` } });
    expect(updated.status, updated.text).toBe(200);
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
    const pat = await call(app, 'POST', '/api/admin/user/tokens', {
      ...as(user),
      body: { description: 'flags', expiresAt: new Date(Date.UTC(2099, 0, 1)).toISOString() },
    });
    expect(pat.status, pat.text).toBe(201);
    const created = await call(app, 'POST', `/api/admin/projects/${project}/features`, { token: pat.json.secret, body: { name: unique('flag') } });
    expect(created.status, created.text).toBe(201);
    expect(await creators(project)).toEqual([{ id: user.id, name: user.email }]);
  });

  it('leaves out a creator whose account was deleted', async () => {
    const project = await newProject();
    const [kept, deleted] = [await userWithSession(app, 'Editor'), await userWithSession(app, 'Editor')];
    await createFlag(project, kept);
    await createFlag(project, deleted);
    const removed = await call(app, 'DELETE', `/api/admin/user-admin/${deleted.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(await creators(project)).toEqual([{ id: kept.id, name: kept.email }]);
  });

  it('answers an empty list for a project without flags', async () => {
    expect(await creators(await newProject())).toEqual([]);
  });

  it('leaves out the creator of an archived flag until the flag is revived', async () => {
    const project = await newProject();
    const user = await userWithSession(app, 'Editor');
    const flag = await createFlag(project, user);
    await archive(project, flag);
    expect(await creators(project)).toEqual([]);

    const revived = await call(app, 'POST', `/api/admin/archive/revive/${flag}`);
    expect(revived.status, revived.text).toBe(200);
    expect(await creators(project)).toEqual([{ id: user.id, name: user.email }]);
  });

  it('keeps listing a creator whose other flag in the project is still active', async () => {
    const project = await newProject();
    const [keeper, leaver] = [await userWithSession(app, 'Editor'), await userWithSession(app, 'Editor')];
    await archive(project, await createFlag(project, keeper));
    await createFlag(project, keeper);
    await archive(project, await createFlag(project, leaver));
    expect(await creators(project)).toEqual([{ id: keeper.id, name: keeper.email }]);
  });

  it('lists only the creators of this project’s flags, and counts a moved flag in its new project', async () => {
    const [here, elsewhere] = [await newProject(), await newProject()];
    const [local, foreign, mover] = [await userWithSession(app, 'Editor'), await userWithSession(app, 'Editor'), await userWithSession(app, 'Editor')];
    await createFlag(here, local);
    await createFlag(elsewhere, foreign);
    const moved = await createFlag(elsewhere, mover);
    expect(await creators(here)).toEqual([{ id: local.id, name: local.email }]);

    const move = await call(app, 'POST', `/api/admin/projects/${elsewhere}/features/${moved}/changeProject`, { body: { newProjectId: here } });
    expect(move.status, move.text).toBe(200);
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
    const error = expectError(await call(app, 'GET', '/api/admin/projects/no-such-project/flag-creators'), 404, 'NotFoundError');
    expect(error.message).toContain('no-such-project');
  });

  it('answers a Viewer’s session like the admin token', async () => {
    const viewer = await userWithSession(app, 'Viewer');
    expect(await creators(project, as(viewer))).toEqual([{ id: creator.id, name: creator.email }]);
  });

  it('answers 403 to a client token', async () => {
    const created = await call(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: unique('sdk'), type: 'client' } });
    expect(created.status, created.text).toBe(201);
    const response = await call(app, 'GET', `/api/admin/projects/${project}/flag-creators`, { token: created.json.secret });
    expectError(response, 403, 'NoAccessError');
  });

  it('answers 401 without a credential', async () => {
    expectError(await call(app, 'GET', `/api/admin/projects/${project}/flag-creators`, { token: null }), 401, 'AuthenticationRequired');
  });
});
