import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from 'flag-service/client';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { as, userWithSession, type TestUser } from './support/users.js';
import { fixtures } from './support/fixtures.js';

type SearchedFeature = components['schemas']['SearchedFeature'];
type CallOptions = Parameters<typeof call>[3];

let app: TestApp;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  app = await startTestApp();
  alice = await userWithSession(app, 'Viewer', 'alice');
  bob = await userWithSession(app, 'Viewer', 'bob');
});

const unique = uniqueNames();
const { newProject, createFlag, newFlag } = fixtures(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);

const flagPath = (project: string, flag: string) => `/api/admin/projects/${project}/features/${flag}/favorites`;
const projectPath = (project: string) => `/api/admin/projects/${project}/favorites`;
const favorite = (project: string, flag: string, options: CallOptions) => call(app, 'POST', flagPath(project, flag), options);
const unfavorite = (project: string, flag: string, options: CallOptions) => call(app, 'DELETE', flagPath(project, flag), options);

async function ok(response: ReturnType<typeof call>) {
  const answered = await response;
  expect(answered.status, answered.text).toBe(200);
  return answered;
}

/** The flags of the project as the caller finds them, in the order search answers. */
async function search(project: string, options: CallOptions, query: Record<string, string> = {}): Promise<SearchedFeature[]> {
  const params = new URLSearchParams({ project: `IS:${project}`, ...query });
  const response = await call(app, 'GET', `/api/admin/search/features?${params}`, options);
  expect(response.status, response.text).toBe(200);
  return response.json.features;
}

const favoritesIn = async (project: string, options: CallOptions) =>
  (await search(project, options)).filter((f) => f.favorite).map((f) => f.name);

async function createClientToken(): Promise<string> {
  const created = await call(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: unique('sdk'), type: 'client' } });
  expect(created.status, created.text).toBe(201);
  return created.json.secret;
}

describe('favourite flags', () => {
  it('answers 200 to a user, a Viewer too, and records feature-favorited, then feature-unfavorited', async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    const since = await latestEventId();
    const favorited = await ok(favorite(project, flag, as(alice)));
    expect(favorited.text).toBe('');
    await ok(unfavorite(project, flag, as(alice)));

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
    await ok(unfavorite(project, flag, as(alice)));
    await ok(favorite(project, flag, as(alice)));
    await ok(favorite(project, flag, as(alice)));
    expect(await favoritesIn(project, as(alice))).toEqual([flag]);
    await ok(unfavorite(project, flag, as(alice)));
    await ok(unfavorite(project, flag, as(alice)));
    expect(await favoritesIn(project, as(alice))).toEqual([]);
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['feature-favorited', 'feature-unfavorited']);
  });

  it('keeps favourites per user: search shows favorite true to their owner only', async () => {
    const project = await newProject();
    const [mine, theirs, nobodys] = [await newFlag('flag', project), await newFlag('flag', project), await newFlag('flag', project)];
    await ok(favorite(project, mine, as(alice)));
    await ok(favorite(project, theirs, as(bob)));

    const seenBy = async (options: CallOptions) => Object.fromEntries((await search(project, options)).map((f) => [f.name, f.favorite]));
    expect(await seenBy(as(alice))).toEqual({ [mine]: true, [theirs]: false, [nobodys]: false });
    expect(await seenBy(as(bob))).toEqual({ [mine]: false, [theirs]: true, [nobodys]: false });
    expect(await seenBy({})).toEqual({ [mine]: false, [theirs]: false, [nobodys]: false });

    await ok(unfavorite(project, mine, as(bob)));
    expect(await seenBy(as(alice))).toEqual({ [mine]: true, [theirs]: false, [nobodys]: false });
  });

  it('counts a favourite made with a personal access token as the user’s', async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    const pat = await call(app, 'POST', '/api/admin/user/tokens', {
      ...as(alice),
      body: { description: 'favourites', expiresAt: new Date(Date.UTC(2099, 0, 1)).toISOString() },
    });
    expect(pat.status, pat.text).toBe(201);
    const since = await latestEventId();
    await ok(favorite(project, flag, { token: pat.json.secret }));
    expect(await favoritesIn(project, as(alice))).toEqual([flag]);
    expect(await favoritesIn(project, { token: pat.json.secret })).toEqual([flag]);
    expect((await eventsSince(since)).map((e) => [e.type, e.createdByUserId])).toEqual([['feature-favorited', alice.id]]);
  });

  it('does not carry a favourite over to a new flag that reuses the name of a deleted one', async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    await ok(favorite(project, flag, as(alice)));
    expect((await call(app, 'DELETE', `/api/admin/projects/${project}/features/${flag}`)).status).toBe(202);
    await ok(call(app, 'DELETE', `/api/admin/archive/${flag}`));
    await createFlag(project, flag);
    expect(await favoritesIn(project, as(alice))).toEqual([]);
  });
});

describe('what SDKs see', () => {
  it('stays the same through favouriting: the client ETag still answers 304', async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    const token = await createClientToken();
    const first = await call(app, 'GET', '/api/client/features', { token });
    expect(first.status, first.text).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();

    await ok(favorite(project, flag, as(alice)));
    await ok(call(app, 'POST', projectPath(project), as(alice)));
    await ok(unfavorite(project, flag, as(bob)));
    await ok(favorite(project, flag, as(bob)));
    const again = await call(app, 'GET', '/api/client/features', { token, headers: { 'if-none-match': etag } });
    expect(again.status, again.text).toBe(304);
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
    await ok(favorite(project, flags.b, as(alice)));
    await ok(favorite(project, flags.d, as(alice)));
    await ok(favorite(project, flags.a, as(bob)));
  });

  const names = async (options: CallOptions, query: Record<string, string>) => (await search(project, options, query)).map((f) => f.name);

  it('puts the caller’s favourites first, each group in the asked order', async () => {
    const { a, b, c, d } = flags;
    expect(await names(as(alice), { favoritesFirst: 'true', sortBy: 'name' })).toEqual([b, d, a, c]);
    expect(await names(as(alice), { favoritesFirst: 'true', sortBy: 'name', sortOrder: 'desc' })).toEqual([d, b, c, a]);
    expect(await names(as(bob), { favoritesFirst: 'true', sortBy: 'name' })).toEqual([a, b, c, d]);
    expect(await names(as(bob), { favoritesFirst: 'true', sortBy: 'name', sortOrder: 'desc' })).toEqual([a, d, c, b]);
  });

  it('keeps the asked order without favoritesFirst, or with favoritesFirst=false', async () => {
    const { a, b, c, d } = flags;
    expect(await names(as(alice), { sortBy: 'name' })).toEqual([a, b, c, d]);
    expect(await names(as(alice), { favoritesFirst: 'false', sortBy: 'name' })).toEqual([a, b, c, d]);
  });

  it('ranks before paging', async () => {
    const { b, d } = flags;
    expect(await names(as(alice), { favoritesFirst: 'true', sortBy: 'name', sortOrder: 'desc', limit: '1' })).toEqual([d]);
    expect(await names(as(alice), { favoritesFirst: 'true', sortBy: 'name', limit: '1', offset: '1' })).toEqual([d]);
    expect(await names(as(alice), { favoritesFirst: 'true', sortBy: 'name', limit: '1' })).toEqual([b]);
  });

  it('ranks nothing first for an API token, which has no favourites', async () => {
    const { a, b, c, d } = flags;
    expect(await names({}, { favoritesFirst: 'true', sortBy: 'name' })).toEqual([a, b, c, d]);
  });
});

describe('favourite projects', () => {
  it('answers 200 and records project-favorited, then project-unfavorited, each change once', async () => {
    const project = await newProject();
    const since = await latestEventId();
    await ok(call(app, 'POST', projectPath(project), as(alice)));
    await ok(call(app, 'POST', projectPath(project), as(alice)));
    await ok(call(app, 'POST', projectPath(project), as(bob)));
    await ok(call(app, 'DELETE', projectPath(project), as(alice)));
    await ok(call(app, 'DELETE', projectPath(project), as(alice)));

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
    await ok(call(app, 'POST', projectPath(project), as(alice)));
    expect(await favoritesIn(project, as(alice))).toEqual([]);
  });
});

describe('favourite projects in the project list', () => {
  /** Each project's `favorite` in the list, as the caller reads it. */
  const favoriteByProject = async (options: CallOptions): Promise<Map<string, unknown>> =>
    new Map((await ok(call(app, 'GET', '/api/admin/projects', options))).json.projects.map((p: { id: string; favorite: unknown }) => [p.id, p.favorite]));

  it("marks the caller's favourite projects true and the others false", async () => {
    const starred = await newProject();
    const other = await newProject();
    await ok(call(app, 'POST', projectPath(starred), as(alice)));
    const seen = await favoriteByProject(as(alice));
    expect(seen.get(starred)).toBe(true);
    expect(seen.get(other)).toBe(false);
  });

  it('shows false again once the caller removes the favourite', async () => {
    const project = await newProject();
    await ok(call(app, 'POST', projectPath(project), as(alice)));
    await ok(call(app, 'DELETE', projectPath(project), as(alice)));
    expect((await favoriteByProject(as(alice))).get(project)).toBe(false);
  });

  it("does not show one user's favourite to another user, nor to a token", async () => {
    const project = await newProject();
    await ok(call(app, 'POST', projectPath(project), as(alice)));
    expect((await favoriteByProject(as(bob))).get(project)).toBe(false);
    expect((await favoriteByProject({})).get(project)).toBe(false);
  });
});

describe('the one-flag read', () => {
  const favoriteOf = async (project: string, flag: string, options: CallOptions) =>
    (await ok(call(app, 'GET', `/api/admin/projects/${project}/features/${flag}`, options))).json.favorite;

  it("says whether the caller marked the flag, and no longer once they take it back", async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    expect(await favoriteOf(project, flag, as(alice))).toBe(false);
    await ok(favorite(project, flag, as(alice)));
    expect(await favoriteOf(project, flag, as(alice))).toBe(true);
    await ok(unfavorite(project, flag, as(alice)));
    expect(await favoriteOf(project, flag, as(alice))).toBe(false);
  });

  it("does not show one user's favourite to another user, nor to a token", async () => {
    const project = await newProject();
    const flag = await newFlag('flag', project);
    await ok(favorite(project, flag, as(alice)));
    expect(await favoriteOf(project, flag, as(bob))).toBe(false);
    expect(await favoriteOf(project, flag, {})).toBe(false);
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
    expectError(await favorite(inProject, name, as(alice)), 404, 'NotFoundError');
    expectError(await unfavorite(inProject, name, as(alice)), 404, 'NotFoundError');
    expect(await eventsSince(since)).toEqual([]);
  });

  it('answers 404 for a flag in the archive', async () => {
    const archived = await newFlag('flag', project);
    expect((await call(app, 'DELETE', `/api/admin/projects/${project}/features/${archived}`)).status).toBe(202);
    expectError(await favorite(project, archived, as(alice)), 404, 'NotFoundError');
  });

  it('answers 404 to favouriting or unfavouriting an unknown project and records nothing', async () => {
    const since = await latestEventId();
    expectError(await call(app, 'POST', projectPath('no-such-project'), as(alice)), 404, 'NotFoundError');
    expectError(await call(app, 'DELETE', projectPath('no-such-project'), as(alice)), 404, 'NotFoundError');
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

  const attempts = (options: CallOptions) => [
    () => favorite(project, flag, options),
    () => unfavorite(project, flag, options),
    () => call(app, 'POST', projectPath(project), options),
    () => call(app, 'DELETE', projectPath(project), options),
  ];

  it('answers 400 to an admin token, which is no user, and records nothing', async () => {
    const since = await latestEventId();
    for (const attempt of attempts({})) {
      const error = expectError(await attempt(), 400, 'ValidationError');
      expect(error.message).toMatch(/user/i);
    }
    expect(await eventsSince(since)).toEqual([]);
  });

  it('answers 403 to a client token', async () => {
    const token = await createClientToken();
    for (const attempt of attempts({ token })) expectError(await attempt(), 403, 'NoAccessError');
  });

  it('answers 401 without a credential', async () => {
    for (const attempt of attempts({ token: null })) expectError(await attempt(), 401, 'AuthenticationRequired');
  });
});
