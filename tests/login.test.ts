import { eq } from 'drizzle-orm';
import type { components } from 'flag-service/client';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { call, expectError, startTestApp, type RawResponse, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { as, USER_PASSWORD, type TestUser } from './support/users.js';

type User = components['schemas']['User'];
type PersonalAccessToken = components['schemas']['PersonalAccessToken'];
type PersonalAccessTokenWithSecret = components['schemas']['PersonalAccessTokenWithSecret'];

const WRONG_PASSWORD = 'Wrong-Badger-1717';
const FAR_FUTURE = new Date(Date.UTC(2099, 0, 1)).toISOString();

let app: TestApp;
/** A second app whose login allows 3 attempts a minute; started by the rate-limit tests. */
let limited: TestApp | undefined;

beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { latestEventId, eventsSince } = eventReader(() => app);

interface Answer {
  request: string;
  text: string;
}

/** Every answer this file received, and the secrets handed out in them, to show that none leaks. */
const answers: Answer[] = [];
const sessionSecrets = new Set<string>();
/** Each personal access token secret, with the one answer allowed to show it: the one that created it. */
const patSecrets = new Map<string, Answer>();

interface SessionCookie {
  value: string;
  /** Attribute names lower-cased, values as sent (`true` for flags such as HttpOnly). */
  attributes: Record<string, string | true>;
}

function sessionCookieOf(response: RawResponse): SessionCookie | undefined {
  const header = [response.headers['set-cookie'] ?? []].flat().find((cookie) => cookie.startsWith('flag-session='));
  if (!header) return undefined;
  const [pair, ...rest] = header.split(';').map((part) => part.trim());
  const attributes: SessionCookie['attributes'] = {};
  for (const attribute of rest) {
    const at = attribute.indexOf('=');
    if (at < 0) attributes[attribute.toLowerCase()] = true;
    else attributes[attribute.slice(0, at).toLowerCase()] = attribute.slice(at + 1);
  }
  return { value: pair!.slice('flag-session='.length), attributes };
}

async function send(target: TestApp, method: string, path: string, options: Parameters<typeof call>[3] = {}): Promise<RawResponse> {
  const response = await call(target, method, path, options);
  const answer = { request: `${method} ${path}`, text: response.text };
  answers.push(answer);
  const cookie = sessionCookieOf(response);
  if (cookie?.value) sessionSecrets.add(cookie.value);
  if (method === 'POST' && path === '/api/admin/user/tokens' && response.status === 201) patSecrets.set(response.json.secret, answer);
  return response;
}

const login = (username: string, password = USER_PASSWORD, target = app) =>
  send(target, 'POST', '/auth/simple/login', { token: null, body: { username, password } });

/** Logs in and answers the session as a `cookie` header value. */
async function sessionOf(username: string, target = app): Promise<string> {
  const response = await login(username, USER_PASSWORD, target);
  expect(response.status, response.text).toBe(200);
  return `flag-session=${sessionCookieOf(response)!.value}`;
}

interface Account extends TestUser {
  username: string;
  name: string;
}

/** Creates a user with a name, an email and a username (by admin token) and logs them in by email. */
async function newUser(rootRole: string, target = app, fields: { password?: string | null } = {}): Promise<Account> {
  const username = unique('person');
  const email = `${username}@example.com`;
  const name = `Person ${username}`;
  const password = fields.password === undefined ? USER_PASSWORD : fields.password;
  const created = await send(target, 'POST', '/api/admin/user-admin', {
    body: { name, email, username, rootRole, ...(password !== null && { password }) },
  });
  expect(created.status, created.text).toBe(201);
  const cookie = password === null ? '' : await sessionOf(email, target);
  return { id: created.json.id, email, username, name, cookie };
}

async function userById(id: number, target = app): Promise<User> {
  const response = await send(target, 'GET', `/api/admin/user-admin/${id}`);
  expect(response.status, response.text).toBe(200);
  return response.json;
}

async function createPat(user: TestUser, description = unique('pat')): Promise<PersonalAccessTokenWithSecret> {
  const response = await send(app, 'POST', '/api/admin/user/tokens', { ...as(user), body: { description, expiresAt: FAR_FUTURE } });
  expect(response.status, response.text).toBe(201);
  return response.json;
}

async function patsOf(user: TestUser): Promise<PersonalAccessToken[]> {
  const response = await send(app, 'GET', '/api/admin/user/tokens', as(user));
  expect(response.status, response.text).toBe(200);
  return response.json.pats;
}

const withPat = (secret: string) => ({ token: secret });
const createFlag = (options: Parameters<typeof call>[3]) =>
  send(app, 'POST', '/api/admin/projects/default/features', { ...options, body: { name: unique('flag') } });
const listProjects = (options: Parameters<typeof call>[3], target = app) => send(target, 'GET', '/api/admin/projects', options);

describe('logging in', () => {
  it('answers 200 with the user, without any password field, and a session cookie that is HttpOnly, SameSite=Lax, for the whole site, with an expiry', async () => {
    const user = await newUser('Editor');
    const response = await login(user.username);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({
      id: user.id,
      name: user.name,
      email: user.email,
      username: user.username,
      imageUrl: expect.stringMatching(/^https:\/\//),
      rootRole: 2,
      loginAttempts: 0,
      emailSent: false,
      seenAt: expect.any(String),
      createdAt: expect.any(String),
      accountType: 'User',
    });
    expect(response.text).not.toMatch(/password|hash/i);

    const cookie = sessionCookieOf(response)!;
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(cookie.attributes.httponly).toBe(true);
    expect(cookie.attributes.samesite).toMatch(/^lax$/i);
    expect(cookie.attributes.path).toBe('/');
    const expires = Date.parse(String(cookie.attributes.expires));
    expect(expires).toBeGreaterThan(Date.parse(response.json.seenAt) + 3_600_000);
  });

  it('accepts the email instead of the username, in any case, and the username in any case', async () => {
    const user = await newUser('Viewer');
    for (const identity of [user.email.toUpperCase(), user.email, user.username.toUpperCase()]) {
      const response = await login(identity);
      expect(response.status, `${identity}: ${response.text}`).toBe(200);
      expect(response.json.id).toBe(user.id);
      expect(sessionCookieOf(response)?.value).toBeTruthy();
    }
  });

  it('makes the session cookie a credential on the admin API, acting as the user', async () => {
    const user = await newUser('Viewer');
    const projects = await listProjects(as(user));
    expect(projects.status, projects.text).toBe(200);
    expect(projects.json.projects.map((p: { id: string }) => p.id)).toContain('default');

    const me = await send(app, 'GET', '/api/admin/user', as(user));
    expect(me.status, me.text).toBe(200);
    expect(me.json.user).toMatchObject({ id: user.id, email: user.email, rootRole: 3 });
  });

  it('gives every login its own session: ending one leaves the other working', async () => {
    const user = await newUser('Viewer');
    const second = await sessionOf(user.email);
    expect(second).not.toBe(user.cookie);
    expect((await send(app, 'POST', '/logout', { token: null, headers: { cookie: user.cookie } })).status).toBe(200);
    expectError(await listProjects(as(user)), 401, 'AuthenticationRequired');
    expect((await listProjects({ token: null, headers: { cookie: second } })).status).toBe(200);
  });

  it('answers 401 to a session whose expiry has passed (set in the database)', async () => {
    const user = await newUser('Viewer');
    expect((await listProjects(as(user))).status).toBe(200);
    await app.db.update(t.sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(t.sessions.userId, user.id));
    expectError(await listProjects(as(user)), 401, 'AuthenticationRequired');
  });

  it('answers 401 to a session cookie the service never issued', async () => {
    const forged = `flag-session=${'A'.repeat(43)}`;
    expectError(await listProjects({ token: null, headers: { cookie: forged } }), 401, 'AuthenticationRequired');
  });

  it.each<[string, unknown]>([
    ['a missing password', { username: 'someone' }],
    ['an empty password', { username: 'someone', password: '' }],
    ['a missing username', { password: USER_PASSWORD }],
    ['an unknown field', { username: 'someone', password: USER_PASSWORD, remember: true }],
  ])('answers 400 for a body with %s', async (_case, body) => {
    const response = await send(app, 'POST', '/auth/simple/login', { token: null, body: body as object });
    expectError(response, 400, 'ValidationError');
    expect(sessionCookieOf(response)).toBeUndefined();
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await send(app, 'POST', '/auth/simple/login', {
      token: null,
      body: `username=someone&password=${USER_PASSWORD}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expectError(response, 415, 'ContentTypeerror');
  });
});

describe('failed logins', () => {
  it('answers 401 with the same message for a wrong password and for an unknown user, and sets no cookie', async () => {
    const user = await newUser('Viewer');
    const wrong = await login(user.email, WRONG_PASSWORD);
    const unknown = await login(`nobody-${user.username}@example.com`, USER_PASSWORD);
    const unknownName = await login(`nobody-${user.username}`, USER_PASSWORD);
    const wrongMessage = expectError(wrong, 401, 'AuthenticationRequired').message;
    expect(expectError(unknown, 401, 'AuthenticationRequired').message).toBe(wrongMessage);
    expect(expectError(unknownName, 401, 'AuthenticationRequired').message).toBe(wrongMessage);
    for (const response of [wrong, unknown, unknownName]) expect(sessionCookieOf(response)?.value).toBeFalsy();
  });

  it('answers 401 to a user who has no password, whatever password is tried', async () => {
    const user = await newUser('Viewer', app, { password: null });
    for (const password of [USER_PASSWORD, 'x']) expectError(await login(user.email, password), 401, 'AuthenticationRequired');
  });

  it("counts failed attempts on the user's loginAttempts and resets the count at the next good login", async () => {
    const user = await newUser('Viewer');
    expect((await userById(user.id)).loginAttempts).toBe(0);
    for (const expected of [1, 2, 3]) {
      expectError(await login(user.email, WRONG_PASSWORD), 401, 'AuthenticationRequired');
      expect((await userById(user.id)).loginAttempts).toBe(expected);
    }
    const good = await login(user.username);
    expect(good.status, good.text).toBe(200);
    expect(good.json.loginAttempts).toBe(0);
    expect((await userById(user.id)).loginAttempts).toBe(0);
  });
});

describe('login rate limit', () => {
  let user: Account;
  beforeAll(async () => {
    limited = await startTestApp({ loginLimitPerMinute: 3 });
    user = await newUser('Viewer', limited);
  });

  /** Logs in until the limit refuses; the refusing answer. */
  async function untilLimited(): Promise<RawResponse> {
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await login(user.email, USER_PASSWORD, limited);
      if (response.status === 429) return response;
    }
    throw new Error('4 logins from one address were all let through; the limit is 3');
  }

  it('lets 3 attempts a minute through from one address and refuses the next with 429, even with the right password', async () => {
    // newUser logged in once already.
    expectError(await login(user.email, WRONG_PASSWORD, limited), 401, 'AuthenticationRequired');
    const good = await login(user.email, USER_PASSWORD, limited);
    expect(good.status, good.text).toBe(200);

    const refused = await login(user.email, USER_PASSWORD, limited);
    expect(expectError(refused, 429, 'TooManyRequestsError').message).toMatch(/try again/i);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(sessionCookieOf(refused)).toBeUndefined();
    expectError(await login(user.email, WRONG_PASSWORD, limited), 429, 'TooManyRequestsError');
    expect((await userById(user.id, limited)).loginAttempts).toBe(0);
  });

  it('counts by the address the connection comes from, not by an X-Forwarded-For header the client chose', async () => {
    expectError(await untilLimited(), 429, 'TooManyRequestsError');
    const disguised = await send(limited!, 'POST', '/auth/simple/login', {
      token: null,
      headers: { 'x-forwarded-for': '203.0.113.7' },
      body: { username: user.email, password: USER_PASSWORD },
    });
    expectError(disguised, 429, 'TooManyRequestsError');
  });

  it('limits only logins: sessions, logout and other operations go on while logins are refused', async () => {
    expectError(await untilLimited(), 429, 'TooManyRequestsError');
    for (let i = 0; i < 5; i++) {
      expect((await listProjects({}, limited)).status).toBe(200);
      expect((await listProjects(as(user), limited)).status).toBe(200);
      expect((await send(limited!, 'POST', '/logout', { token: null })).status).toBe(200);
    }
    const created = await send(limited!, 'POST', '/api/admin/user-admin', { body: { email: `${unique('late')}@example.com`, rootRole: 'Viewer' } });
    expect(created.status, created.text).toBe(201);
    expectError(await login(user.email, USER_PASSWORD, limited), 429, 'TooManyRequestsError');
  });
});

describe('logging out', () => {
  it('answers 200, clears the cookie, and the old cookie then gets 401 on the admin API', async () => {
    const user = await newUser('Editor');
    expect((await listProjects(as(user))).status).toBe(200);
    const response = await send(app, 'POST', '/logout', { token: null, headers: { cookie: user.cookie } });
    expect(response.status, response.text).toBe(200);
    const cleared = sessionCookieOf(response)!;
    expect(cleared.value).toBe('');
    expect(cleared.attributes.httponly).toBe(true);
    expect(cleared.attributes.path).toBe('/');
    const expiredLongAgo = cleared.attributes['max-age'] === '0' || Date.parse(String(cleared.attributes.expires)) < Date.UTC(2000, 0, 1);
    expect(expiredLongAgo, JSON.stringify(cleared.attributes)).toBe(true);

    expectError(await listProjects(as(user)), 401, 'AuthenticationRequired');
    expectError(await createFlag(as(user)), 401, 'AuthenticationRequired');
  });

  it('answers 200 and clears the cookie without a session too', async () => {
    for (const headers of [{}, { cookie: 'flag-session=never-issued' }] as Record<string, string>[]) {
      const response = await send(app, 'POST', '/logout', { token: null, headers });
      expect(response.status, response.text).toBe(200);
      expect(sessionCookieOf(response)?.value).toBe('');
    }
  });
});

describe("deleting a user ends the user's access", () => {
  it('their session cookie and their personal access token get 401 at once', async () => {
    const user = await newUser('Editor');
    const pat = await createPat(user);
    expect((await listProjects(as(user))).status).toBe(200);
    expect((await listProjects(withPat(pat.secret))).status).toBe(200);

    const deleted = await send(app, 'DELETE', `/api/admin/user-admin/${user.id}`);
    expect(deleted.status, deleted.text).toBe(200);

    expectError(await listProjects(as(user)), 401, 'AuthenticationRequired');
    expectError(await createFlag(as(user)), 401, 'AuthenticationRequired');
    expectError(await listProjects(withPat(pat.secret)), 401, 'AuthenticationRequired');
    expectError(await createFlag(withPat(pat.secret)), 401, 'AuthenticationRequired');
    expectError(await login(user.email), 401, 'AuthenticationRequired');
  });
});

describe('sessions and personal access tokens hold the permissions of their user', () => {
  it.each<[string, (user: Account) => Promise<Parameters<typeof call>[3]>]>([
    ['session', async (user) => as(user)],
    ['personal access token', async (user) => withPat((await createPat(user)).secret)],
  ])("a Viewer's %s gets 403 NoAccessError on creating a flag; an Editor's creates it", async (_kind, credentialOf) => {
    const viewer = await credentialOf(await newUser('Viewer'));
    const editor = await credentialOf(await newUser('Editor'));
    const since = await latestEventId();
    expectError(await createFlag(viewer), 403, 'NoAccessError');
    expect(await eventsSince(since)).toEqual([]);
    const created = await createFlag(editor);
    expect(created.status, created.text).toBe(201);
  });
});

describe("a change of the user's root role", () => {
  it('applies at once to their live session and personal access token', async () => {
    const user = await newUser('Editor');
    const pat = await createPat(user);
    expect((await createFlag(as(user))).status).toBe(201);
    const demoted = await send(app, 'PUT', `/api/admin/user-admin/${user.id}`, { body: { rootRole: 'Viewer' } });
    expect(demoted.status, demoted.text).toBe(200);
    expectError(await createFlag(as(user)), 403, 'NoAccessError');
    expectError(await createFlag(withPat(pat.secret)), 403, 'NoAccessError');
    expect((await listProjects(as(user))).status).toBe(200);
  });
});

describe('personal access tokens', () => {
  it('creates a token: 201 with its secret, and records pat-created by the user', async () => {
    const user = await newUser('Viewer');
    const since = await latestEventId();
    const expiresAt = new Date(Date.UTC(2098, 4, 6, 7, 8, 9)).toISOString();
    const response = await send(app, 'POST', '/api/admin/user/tokens', { ...as(user), body: { description: 'ci pipeline', expiresAt } });
    expect(response.status, response.text).toBe(201);
    expect(response.json).toEqual({
      id: expect.any(Number),
      description: 'ci pipeline',
      expiresAt,
      createdAt: expect.any(String),
      seenAt: null,
      secret: expect.stringMatching(/^user:[0-9a-f]{56}$/),
    });

    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'pat-created',
      data: { id: response.json.id, description: 'ci pipeline', expiresAt, userId: user.id },
      createdBy: user.email,
      createdByUserId: user.id,
    });
    expect(JSON.stringify(events[0])).not.toContain(response.json.secret);
  });

  it("lists only the caller's tokens, oldest first, without their secrets", async () => {
    const user = await newUser('Viewer');
    const other = await newUser('Viewer');
    const first = await createPat(user, 'first');
    const second = await createPat(user, 'second');
    await createPat(other, 'not yours');
    const response = await send(app, 'GET', '/api/admin/user/tokens', as(user));
    expect(response.status, response.text).toBe(200);
    const { secret: _a, ...firstListed } = first;
    const { secret: _b, ...secondListed } = second;
    expect(response.json).toEqual({ pats: [firstListed, secondListed] });
    expect(response.text).not.toContain(first.secret);
    expect(response.text).not.toContain(second.secret);
  });

  it('acts as its user, with or without "Bearer": the events it causes name the user, and it shows when it was last seen', async () => {
    const user = await newUser('Editor');
    const pat = await createPat(user);
    const me = await send(app, 'GET', '/api/admin/user', withPat(pat.secret));
    expect(me.status, me.text).toBe(200);
    expect(me.json.user).toMatchObject({ id: user.id, email: user.email });

    const since = await latestEventId();
    for (const token of [pat.secret, `Bearer ${pat.secret}`]) {
      const created = await createFlag(withPat(token));
      expect(created.status, created.text).toBe(201);
    }
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([
      ['feature-created', user.email, user.id],
      ['feature-created', user.email, user.id],
    ]);
    const [listed] = await patsOf(user);
    expect(listed?.seenAt).toEqual(expect.any(String));
  });

  it('deletes a token: 200, pat-deleted by the user, then the token gets 401', async () => {
    const user = await newUser('Editor');
    const pat = await createPat(user, 'short-lived');
    const kept = await createPat(user, 'kept');
    const since = await latestEventId();
    const response = await send(app, 'DELETE', `/api/admin/user/tokens/${pat.id}`, as(user));
    expect(response.status, response.text).toBe(200);

    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'pat-deleted',
      preData: { id: pat.id, description: 'short-lived', userId: user.id },
      createdBy: user.email,
      createdByUserId: user.id,
    });
    expect((await patsOf(user)).map((p) => p.id)).toEqual([kept.id]);
    expectError(await listProjects(withPat(pat.secret)), 401, 'AuthenticationRequired');
    expectError(await createFlag(withPat(pat.secret)), 401, 'AuthenticationRequired');
    expect((await listProjects(withPat(kept.secret))).status).toBe(200);
  });

  it("answers 404 for an unknown id and for another user's token, which keeps working", async () => {
    const user = await newUser('Viewer');
    const other = await newUser('Viewer');
    const theirs = await createPat(other);
    const since = await latestEventId();
    expectError(await send(app, 'DELETE', '/api/admin/user/tokens/2147483647', as(user)), 404, 'NotFoundError');
    expectError(await send(app, 'DELETE', `/api/admin/user/tokens/${theirs.id}`, as(user)), 404, 'NotFoundError');
    expectError(await send(app, 'DELETE', `/api/admin/user/tokens/${theirs.id}`, withPat((await createPat(user)).secret)), 404, 'NotFoundError');
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['pat-created']);
    expect((await patsOf(other)).map((p) => p.id)).toEqual([theirs.id]);
    expect((await listProjects(withPat(theirs.secret))).status).toBe(200);
  });

  it('refuses an expiry in the past with 400 and creates nothing', async () => {
    const user = await newUser('Viewer');
    const since = await latestEventId();
    for (const expiresAt of [new Date(Date.now() - 60_000).toISOString(), '2000-01-01T00:00:00.000Z']) {
      const response = await send(app, 'POST', '/api/admin/user/tokens', { ...as(user), body: { description: 'too late', expiresAt } });
      expect(expectError(response, 400, 'ValidationError').message).toMatch(/expiresAt/);
    }
    expect(await eventsSince(since)).toEqual([]);
    expect(await patsOf(user)).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['a missing description', { expiresAt: FAR_FUTURE }],
    ['a missing expiry', { description: 'no expiry' }],
    ['an expiry that is not a date-time', { description: 'bad date', expiresAt: 'next tuesday' }],
    ['an unknown field', { description: 'extra', expiresAt: FAR_FUTURE, userId: 1 }],
  ])('answers 400 for a body with %s', async (_case, body) => {
    const user = await newUser('Viewer');
    expectError(await send(app, 'POST', '/api/admin/user/tokens', { ...as(user), body: body as object }), 400, 'ValidationError');
    expect(await patsOf(user)).toEqual([]);
  });

  it('answers 401 to a token whose expiry has passed (set in the database)', async () => {
    const user = await newUser('Viewer');
    const pat = await createPat(user);
    expect((await listProjects(withPat(pat.secret))).status).toBe(200);
    await app.db.update(t.personalAccessTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(t.personalAccessTokens.id, pat.id));
    expectError(await listProjects(withPat(pat.secret)), 401, 'AuthenticationRequired');
  });

  it('answers 401 to a token with the user: prefix that was never issued', async () => {
    expectError(await listProjects(withPat(`user:${'0'.repeat(56)}`)), 401, 'AuthenticationRequired');
  });

  describe('are for users only', () => {
    it('answers 400 ValidationError to an admin API token, which is no user, and records nothing', async () => {
      const owner = await newUser('Viewer');
      const pat = await createPat(owner);
      const since = await latestEventId();
      for (const response of [
        await send(app, 'GET', '/api/admin/user/tokens'),
        await send(app, 'POST', '/api/admin/user/tokens', { body: { description: 'robot', expiresAt: FAR_FUTURE } }),
        await send(app, 'DELETE', `/api/admin/user/tokens/${pat.id}`),
      ]) {
        expect(expectError(response, 400, 'ValidationError').message).toMatch(/users/);
      }
      expect(await eventsSince(since)).toEqual([]);
      expect((await patsOf(owner)).map((p) => p.id)).toEqual([pat.id]);
    });

    it('answers 403 NoAccessError to a client token', async () => {
      const created = await send(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: unique('sdk'), type: 'client' } });
      expect(created.status, created.text).toBe(201);
      const client = created.json.secret as string;
      expectError(await send(app, 'GET', '/api/admin/user/tokens', { token: client }), 403, 'NoAccessError');
      expectError(await send(app, 'POST', '/api/admin/user/tokens', { token: client, body: { description: 'sdk', expiresAt: FAR_FUTURE } }), 403, 'NoAccessError');
    });

    it('answers 401 without a credential', async () => {
      expectError(await send(app, 'GET', '/api/admin/user/tokens', { token: null }), 401, 'AuthenticationRequired');
      expectError(await send(app, 'POST', '/api/admin/user/tokens', { token: null, body: { description: 'x', expiresAt: FAR_FUTURE } }), 401, 'AuthenticationRequired');
      expectError(await send(app, 'DELETE', '/api/admin/user/tokens/1', { token: null }), 401, 'AuthenticationRequired');
    });
  });
});

describe('events name the real caller as their creator', () => {
  it("a flag created in a session records the user's email and id", async () => {
    const user = await newUser('Editor');
    const since = await latestEventId();
    const created = await createFlag(as(user));
    expect(created.status, created.text).toBe(201);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.featureName, e.createdBy, e.createdByUserId])).toEqual([['feature-created', created.json.name, user.email, user.id]]);
  });

  it('a user without an email is named by their username', async () => {
    const username = unique('no-email');
    const created = await send(app, 'POST', '/api/admin/user-admin', { body: { username, password: USER_PASSWORD, rootRole: 'Editor' } });
    expect(created.status, created.text).toBe(201);
    const user = { id: created.json.id as number, email: '', cookie: await sessionOf(username) };
    const since = await latestEventId();
    const flag = await createFlag(as(user));
    expect(flag.status, flag.text).toBe(201);
    expect((await eventsSince(since)).map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([['feature-created', username, user.id]]);
  });

  it("a flag created with the admin token records the token's name, admin, and -42", async () => {
    const since = await latestEventId();
    const created = await createFlag({});
    expect(created.status, created.text).toBe(201);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.featureName, e.createdBy, e.createdByUserId])).toEqual([['feature-created', created.json.name, 'admin', -42]]);
  });
});

describe('secrets', () => {
  it('never shows a password, a password hash, a session secret, or a personal access token outside the answer that created it, in any answer or log line', async () => {
    const user = await newUser('Editor');
    expectError(await login(user.email, WRONG_PASSWORD), 401, 'AuthenticationRequired');
    const pat = await createPat(user);
    expect((await createFlag(withPat(pat.secret))).status).toBe(201);
    await patsOf(user);
    await send(app, 'POST', '/logout', { token: null, headers: { cookie: user.cookie } });
    await send(app, 'GET', '/api/admin/user-admin');
    await send(app, 'GET', '/api/admin/events');
    if (limited) {
      await send(limited, 'GET', '/api/admin/user-admin');
      await send(limited, 'GET', '/api/admin/events');
    }

    expect(sessionSecrets.size).toBeGreaterThan(0);
    expect(patSecrets.has(pat.secret)).toBe(true);
    const logs = [...app.logs, ...(limited?.logs ?? [])];
    expect(logs.some((line) => line.includes('/auth/simple/login'))).toBe(true);
    const texts: [string, string, Answer | undefined][] = [
      ...answers.map((answer): [string, string, Answer] => [answer.request, answer.text, answer]),
      ...logs.map((line): [string, string, undefined] => ['log line', line, undefined]),
    ];
    for (const [where, text, answer] of texts) {
      for (const password of [USER_PASSWORD, WRONG_PASSWORD]) expect(text, where).not.toContain(password);
      expect(text, where).not.toContain('scrypt$');
      for (const secret of sessionSecrets) expect(text, where).not.toContain(secret);
      for (const [secret, createdIn] of patSecrets) if (answer !== createdIn) expect(text, where).not.toContain(secret);
    }
    expect(patSecrets.get(pat.secret)!.text).toContain(pat.secret);
  });
});
