import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { call, expectError, startTestApp, type RawResponse, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { recordedSessions, sessionCookieOf, withPat, type Account } from './support/sessions.js';
import { as, USER_PASSWORD } from './support/users.js';

const WRONG_PASSWORD = 'Wrong-Badger-1717';

let app: TestApp;
/** A second app whose login allows 3 attempts a minute; started by the rate-limit tests. */
let limited: TestApp | undefined;

beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { latestEventId, eventsSince } = eventReader(() => app);
const { send, login, sessionOf, newUser, userById, createPat, patsOf, createFlag, listProjects, expectNoSecretShown, sessionSecrets, patSecrets } =
  recordedSessions(() => app, unique);

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

  it('sets no Secure cookie, logging in or out, over plain HTTP with an X-Forwarded-Proto the client chose (no TRUST_PROXY)', async () => {
    const user = await newUser('Viewer');
    const https = { token: null, headers: { 'x-forwarded-proto': 'https' } };
    const response = await send(app, 'POST', '/auth/simple/login', { ...https, body: { username: user.username, password: USER_PASSWORD } });
    expect(response.status, response.text).toBe(200);
    expect(sessionCookieOf(response)!.attributes.secure).toBeUndefined();
    expect(sessionCookieOf(await send(app, 'POST', '/logout', https))!.attributes.secure).toBeUndefined();
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

describe('PASSWORD_HASH_COST', () => {
  const storedHashOf = async (target: TestApp, id: number) =>
    (await target.db.select({ hash: t.users.passwordHash }).from(t.users).where(eq(t.users.id, id)))[0]!.hash!;

  it('hashes new passwords at the cost it names, and keeps the cost with each hash', async () => {
    const costly = await startTestApp({ passwordHashCost: 2048 });
    const user = await newUser('Viewer', costly);
    expect(await storedHashOf(costly, user.id)).toMatch(/^scrypt\$2048\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    expect((await login(user.username, USER_PASSWORD, costly)).status).toBe(200);
  });

  it('still signs in a password hashed at another cost, after the setting changed', async () => {
    const costly = await startTestApp({ passwordHashCost: 4096 });
    const hashedThere = await storedHashOf(costly, (await newUser('Viewer', costly)).id);
    const user = await newUser('Viewer');
    await app.db.update(t.users).set({ passwordHash: hashedThere }).where(eq(t.users.id, user.id));
    expect((await login(user.username)).status).toBe(200);
    expectError(await login(user.username, WRONG_PASSWORD), 401, 'AuthenticationRequired');
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
  it('clears the cookie with SameSite=Lax, as it was set', async () => {
    const user = await newUser('Viewer');
    const response = await send(app, 'POST', '/logout', { token: null, headers: { cookie: user.cookie } });
    expect(response.status, response.text).toBe(200);
    expect(sessionCookieOf(response)!.attributes.samesite).toMatch(/^lax$/i);
  });

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
    expectNoSecretShown(logs, [USER_PASSWORD, WRONG_PASSWORD]);
    expect(patSecrets.get(pat.secret)!.text).toContain(pat.secret);
  });
});
