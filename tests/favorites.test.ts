import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../client/index.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { clientAs, userWithSession, type TestUser } from './support/users.js';
import { fixtures, flagPath, newApiToken, ok } from './support/fixtures.js';
import { searchProject, type SearchQuery } from './support/search.js';


let app: TestApp;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  app = await startTestApp();
  alice = await userWithSession(app, 'Viewer', 'alice');
  bob = await userWithSession(app, 'Viewer', 'bob');
});

const unique = uniqueNames();
const { newProject, createFlag, newFlag, archiveFlag } = fixtures(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);

/** A typed client acting as the user's session. */
const by = (user: TestUser) => clientAs(app, user);

const flagFavorites = '/api/admin/projects/{projectId}/features/{featureName}/favorites' as const;
const projectFavorites = '/api/admin/projects/{projectId}/favorites' as const;
const favorite = (project: string, flag: string, client: ServiceClient) => client.POST(flagFavorites, { params: { path: flagPath(flag, project) } });
const unfavorite = (project: string, flag: string, client: ServiceClient) => client.DELETE(flagFavorites, { params: { path: flagPath(flag, project) } });
const favoriteProject = (projectId: string, client: ServiceClient) => client.POST(projectFavorites, { params: { path: { projectId } } });
const unfavoriteProject = (projectId: string, client: ServiceClient) => client.DELETE(projectFavorites, { params: { path: { projectId } } });

/** The flags of the project as the caller finds them, in the order search answers. */

const favoritesIn = async (project: string, client: ServiceClient) =>
  (await searchProject(client, project)).filter((f) => f.favorite).map((f) => f.name);

const createClientToken = () => newApiToken(app, { type: 'client' });

describe('favourite flags', () => {
  it('answers 200 to a user, a Viewer too, and records feature-favorited, then feature-unfavorited', async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    const since = await latestEventId();
    const favorited = await favorite(project, flag, by(alice));
    expect(favorited.response.status, JSON.stringify(favorited.error)).toBe(200);
    expect(await favorited.response.text()).toBe('');
    await ok(unfavorite(project, flag, by(alice)), 200);

    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.project, e.featureName, e.data, e.createdBy, e.createdByUserId])).toEqual([
      ['feature-favorited', project, flag, { feature: flag }, alice.email, alice.id],
      ['feature-unfavorited', project, flag, { feature: flag }, alice.email, alice.id],
    ]);
  });

  it('answers 200 to a repeated favourite or unfavourite and records each change once', async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    const since = await latestEventId();
    await ok(unfavorite(project, flag, by(alice)), 200);
    await ok(favorite(project, flag, by(alice)), 200);
    await ok(favorite(project, flag, by(alice)), 200);
    expect(await favoritesIn(project, by(alice))).toEqual([flag]);
    await ok(unfavorite(project, flag, by(alice)), 200);
    await ok(unfavorite(project, flag, by(alice)), 200);
    expect(await favoritesIn(project, by(alice))).toEqual([]);
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['feature-favorited', 'feature-unfavorited']);
  });

  it('keeps favourites per user: search shows favorite true to their owner only', async () => {
    const project = await newProject();
    const [mine, theirs, nobodys] = [await newFlag('flag', project), await newFlag('flag', project), await newFlag('flag', project)];
    await ok(favorite(project, mine, by(alice)), 200);
    await ok(favorite(project, theirs, by(bob)), 200);

    const seenBy = async (client: ServiceClient) => Object.fromEntries((await searchProject(client, project)).map((f) => [f.name, f.favorite]));
    expect(await seenBy(by(alice))).toEqual({ [mine]: true, [theirs]: false, [nobodys]: false });
    expect(await seenBy(by(bob))).toEqual({ [mine]: false, [theirs]: true, [nobodys]: false });
    expect(await seenBy(app.admin)).toEqual({ [mine]: false, [theirs]: false, [nobodys]: false });

    await ok(unfavorite(project, mine, by(bob)), 200);
    expect(await seenBy(by(alice))).toEqual({ [mine]: true, [theirs]: false, [nobodys]: false });
  });

  it('counts a favourite made with a personal access token as the user’s', async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    const pat = await ok(
      by(alice).POST('/api/admin/user/tokens', { body: { description: 'favourites', expiresAt: new Date(Date.UTC(2099, 0, 1)).toISOString() } }),
      201,
    );
    const since = await latestEventId();
    await ok(favorite(project, flag, app.clientWith(pat.secret)), 200);
    expect(await favoritesIn(project, by(alice))).toEqual([flag]);
    expect(await favoritesIn(project, app.clientWith(pat.secret))).toEqual([flag]);
    expect((await eventsSince(since)).map((e) => [e.type, e.createdByUserId])).toEqual([['feature-favorited', alice.id]]);
  });

  it('does not carry a favourite over to a new flag that reuses the name of a deleted one', async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    await ok(favorite(project, flag, by(alice)), 200);
    await archiveFlag(project, flag);
    await ok(app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName: flag } } }), 200);
    await createFlag(project, flag);
    expect(await favoritesIn(project, by(alice))).toEqual([]);
  });
});

describe('what SDKs see', () => {
  it('stays the same through favouriting: the client ETag still answers 304', async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    const token = await createClientToken();
    const sdk = app.clientWith(token);
    const first = await sdk.GET('/api/client/features');
    expect(first.response.status, JSON.stringify(first.error)).toBe(200);
    const etag = first.response.headers.get('etag')!;
    expect(etag).toBeTruthy();

    await ok(favorite(project, flag, by(alice)), 200);
    await ok(favoriteProject(project, by(alice)), 200);
    await ok(unfavorite(project, flag, by(bob)), 200);
    await ok(favorite(project, flag, by(bob)), 200);
    const again = await sdk.GET('/api/client/features', { headers: { 'if-none-match': etag } });
    expect(again.response.status, JSON.stringify(again.error)).toBe(304);
  });
});

describe('favourites first in search', () => {
  let project: string;
  let flags: { a: string; b: string; c: string; d: string };
  beforeAll(async () => {
    project = await newProject();
    const key = unique('ranked');
    flags = { a: `${key}-a`, b: `${key}-b`, c: `${key}-c`, d: `${key}-d` };
    for (const name of Object.values(flags)) await createFlag(project, name);
    await ok(favorite(project, flags.b, by(alice)), 200);
    await ok(favorite(project, flags.d, by(alice)), 200);
    await ok(favorite(project, flags.a, by(bob)), 200);
  });

  const names = async (client: ServiceClient, query: SearchQuery) => (await searchProject(client, project, query)).map((f) => f.name);

  it('puts the caller’s favourites first, each group in the asked order', async () => {
    const { a, b, c, d } = flags;
    expect(await names(by(alice), { favoritesFirst: 'true', sortBy: 'name' })).toEqual([b, d, a, c]);
    expect(await names(by(alice), { favoritesFirst: 'true', sortBy: 'name', sortOrder: 'desc' })).toEqual([d, b, c, a]);
    expect(await names(by(bob), { favoritesFirst: 'true', sortBy: 'name' })).toEqual([a, b, c, d]);
    expect(await names(by(bob), { favoritesFirst: 'true', sortBy: 'name', sortOrder: 'desc' })).toEqual([a, d, c, b]);
  });

  it('keeps the asked order without favoritesFirst, or with favoritesFirst=false', async () => {
    const { a, b, c, d } = flags;
    expect(await names(by(alice), { sortBy: 'name' })).toEqual([a, b, c, d]);
    expect(await names(by(alice), { favoritesFirst: 'false', sortBy: 'name' })).toEqual([a, b, c, d]);
  });

  it('ranks before paging', async () => {
    const { b, d } = flags;
    expect(await names(by(alice), { favoritesFirst: 'true', sortBy: 'name', sortOrder: 'desc', limit: '1' })).toEqual([d]);
    expect(await names(by(alice), { favoritesFirst: 'true', sortBy: 'name', limit: '1', offset: '1' })).toEqual([d]);
    expect(await names(by(alice), { favoritesFirst: 'true', sortBy: 'name', limit: '1' })).toEqual([b]);
  });

  it('ranks nothing first for an API token, which has no favourites', async () => {
    const { a, b, c, d } = flags;
    expect(await names(app.admin, { favoritesFirst: 'true', sortBy: 'name' })).toEqual([a, b, c, d]);
  });
});

describe('favourite projects', () => {
  it('answers 200 and records project-favorited, then project-unfavorited, each change once', async () => {
    const project = await newProject();
    const since = await latestEventId();
    await ok(favoriteProject(project, by(alice)), 200);
    await ok(favoriteProject(project, by(alice)), 200);
    await ok(favoriteProject(project, by(bob)), 200);
    await ok(unfavoriteProject(project, by(alice)), 200);
    await ok(unfavoriteProject(project, by(alice)), 200);

    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.project, e.data, e.createdByUserId])).toEqual([
      ['project-favorited', project, { project }, alice.id],
      ['project-favorited', project, { project }, bob.id],
      ['project-unfavorited', project, { project }, alice.id],
    ]);
  });

  it('leaves the flags of a favourite project as they were', async () => {
    const project = await newProject();
    await newFlag('flag', project);
    await ok(favoriteProject(project, by(alice)), 200);
    expect(await favoritesIn(project, by(alice))).toEqual([]);
  });
});

describe('favourite projects in the project list', () => {
  /** Each project's `favorite` in the list, as the caller reads it. */
  const favoriteByProject = async (client: ServiceClient): Promise<Map<string, unknown>> =>
    new Map((await ok(client.GET('/api/admin/projects'), 200)).projects.map((p) => [p.id, p.favorite]));

  it("marks the caller's favourite projects true and the others false", async () => {
    const starred = await newProject();
    const other = await newProject();
    await ok(favoriteProject(starred, by(alice)), 200);
    const seen = await favoriteByProject(by(alice));
    expect(seen.get(starred)).toBe(true);
    expect(seen.get(other)).toBe(false);
  });

  it('shows false again once the caller removes the favourite', async () => {
    const project = await newProject();
    await ok(favoriteProject(project, by(alice)), 200);
    await ok(unfavoriteProject(project, by(alice)), 200);
    expect((await favoriteByProject(by(alice))).get(project)).toBe(false);
  });

  it("does not show one user's favourite to another user, nor to a token", async () => {
    const project = await newProject();
    await ok(favoriteProject(project, by(alice)), 200);
    expect((await favoriteByProject(by(bob))).get(project)).toBe(false);
    expect((await favoriteByProject(app.admin)).get(project)).toBe(false);
  });
});

describe('the one-flag read', () => {
  const favoriteOf = async (project: string, flag: string, client: ServiceClient) =>
    (await ok(client.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(flag, project) } }), 200)).favorite;

  it("says whether the caller marked the flag, and no longer once they take it back", async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    expect(await favoriteOf(project, flag, by(alice))).toBe(false);
    await ok(favorite(project, flag, by(alice)), 200);
    expect(await favoriteOf(project, flag, by(alice))).toBe(true);
    await ok(unfavorite(project, flag, by(alice)), 200);
    expect(await favoriteOf(project, flag, by(alice))).toBe(false);
  });

  it("does not show one user's favourite to another user, nor to a token", async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    await ok(favorite(project, flag, by(alice)), 200);
    expect(await favoriteOf(project, flag, by(bob))).toBe(false);
    expect(await favoriteOf(project, flag, app.admin)).toBe(false);
  });
});

describe('unknown flags and projects', () => {
  let project: string;
  let flag: string;
  beforeAll(async () => {
    project = await newProject();
    flag = await newFlag('flag', project);
  });

  it.each<[string, () => [string, string]]>([
    ['an unknown flag', () => [project, 'no-such-flag']],
    ['an unknown project', () => ['no-such-project', flag]],
    ['a flag of another project', () => ['default', flag]],
  ])('answers 404 to favouriting or unfavouriting %s and records nothing', async (_case, target) => {
    const [inProject, name] = target();
    const since = await latestEventId();
    expectError(await favorite(inProject, name, by(alice)), 404, 'NotFoundError');
    expectError(await unfavorite(inProject, name, by(alice)), 404, 'NotFoundError');
    expect(await eventsSince(since)).toEqual([]);
  });

  it('answers 404 for a flag in the archive', async () => {
    const archived = await newFlag('flag', project);
    await archiveFlag(project, archived);
    expectError(await favorite(project, archived, by(alice)), 404, 'NotFoundError');
  });

  it('answers 404 to favouriting or unfavouriting an unknown project and records nothing', async () => {
    const since = await latestEventId();
    expectError(await favoriteProject('no-such-project', by(alice)), 404, 'NotFoundError');
    expectError(await unfavoriteProject('no-such-project', by(alice)), 404, 'NotFoundError');
    expect(await eventsSince(since)).toEqual([]);
  });
});

describe('favourites belong to users', () => {
  let project: string;
  let flag: string;
  beforeAll(async () => {
    project = await newProject();
    flag = await newFlag('flag', project);
  });

  const attempts = (client: ServiceClient) => [
    () => favorite(project, flag, client),
    () => unfavorite(project, flag, client),
    () => favoriteProject(project, client),
    () => unfavoriteProject(project, client),
  ];

  it('answers 400 to an admin token, which is no user, and records nothing', async () => {
    const since = await latestEventId();
    for (const attempt of attempts(app.admin)) {
      const error = expectError(await attempt(), 400, 'ValidationError');
      expect(error.message).toMatch(/user/i);
    }
    expect(await eventsSince(since)).toEqual([]);
  });

  it('answers 403 to a client token', async () => {
    const token = await createClientToken();
    for (const attempt of attempts(app.clientWith(token))) expectError(await attempt(), 403, 'NoAccessError');
  });

  it('answers 401 without a credential', async () => {
    for (const attempt of attempts(app.clientWith())) expectError(await attempt(), 401, 'AuthenticationRequired');
  });
});
