import { setTimeout as sleep } from 'node:timers/promises';
import type { components } from 'flag-service/client';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';

type SignupToken = components['schemas']['SignupToken'];
type User = components['schemas']['User'];
type Event = components['schemas']['Event'];

let app: TestApp;
/** An admin token named `inviter`: what creates the tokens of this file, so that `createdBy` is known. */
let inviter: string;
let viewer: { id: number; name: string; type: string; description: string };
const { latestEventId, eventsSince } = eventReader(() => app);
const unique = uniqueNames();

const FAR_FUTURE = new Date(Date.UTC(2099, 0, 1)).toISOString();
const GOOD_PASSWORD = 'Tr1cky-Blue-Otter';

beforeAll(async () => {
  app = await startTestApp();
  const created = await call(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: 'inviter', type: 'admin' } });
  expect(created.status, created.text).toBe(201);
  inviter = created.json.secret;
  const [role] = await app.db
    .select({ id: t.roles.id, name: t.roles.name, type: t.roles.type, description: t.roles.description })
    .from(t.roles)
    .where(eq(t.roles.name, 'Viewer'));
  viewer = role!;
});

async function createToken(body: { name?: string; expiresAt?: string } = {}): Promise<SignupToken> {
  const response = await call(app, 'POST', '/api/admin/invite-link/tokens', {
    token: inviter,
    body: { name: body.name ?? unique('invite'), expiresAt: body.expiresAt ?? FAR_FUTURE },
  });
  expect(response.status, response.text).toBe(201);
  return response.json;
}

async function getToken(secret: string): Promise<SignupToken> {
  const response = await call(app, 'GET', `/api/admin/invite-link/tokens/${secret}`);
  expect(response.status, response.text).toBe(200);
  return response.json;
}

const updateToken = (secret: string, body: object) => call(app, 'PUT', `/api/admin/invite-link/tokens/${secret}`, { token: inviter, body });
const validate = (secret: string) => call(app, 'GET', `/invite/${secret}/validate`, { token: null });
const signUp = (secret: string, body: object | string, contentType?: string) =>
  call(app, 'POST', `/invite/${secret}/signup`, { token: null, body, ...(contentType && { contentType }) });

/** A signup body no other test uses. */
function newcomer(overrides: Record<string, unknown> = {}) {
  const name = unique('newcomer');
  return { name: `New ${name}`, email: `${name}@example.com`, username: name, password: GOOD_PASSWORD, ...overrides };
}

async function allEvents(): Promise<{ events: Event[]; text: string }> {
  const response = await call(app, 'GET', '/api/admin/events');
  expect(response.status).toBe(200);
  return { events: response.json.events, text: response.text };
}

/** A token that stops being usable 1.5 s after it is created; resolves once that instant has passed. */
async function expiringToken(): Promise<{ token: SignupToken; expired: Promise<void> }> {
  const token = await createToken({ expiresAt: new Date(Date.now() + 1500).toISOString() });
  const expired = sleep(Date.parse(token.expiresAt) - Date.now() + 50);
  return { token, expired };
}

describe('creating signup tokens', () => {
  it('answers 201 with the token, its location, its invite URL, the Viewer role and no users', async () => {
    const expiresAt = new Date(Date.UTC(2098, 6, 15, 12, 30)).toISOString();
    const since = await latestEventId();
    const response = await call(app, 'POST', '/api/admin/invite-link/tokens', { token: inviter, body: { name: 'launch-party', expiresAt } });
    expect(response.status, response.text).toBe(201);
    const token = response.json as SignupToken;
    expect(token.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(response.headers.location).toBe(`/api/admin/invite-link/tokens/${token.secret}`);
    expect(token).toEqual({
      secret: token.secret,
      url: `http://localhost:4242/new-user?invite=${token.secret}`,
      name: 'launch-party',
      enabled: true,
      expiresAt,
      createdAt: expect.any(String),
      createdBy: 'inviter',
      users: [],
      role: { id: viewer.id, name: 'Viewer', type: 'root', description: viewer.description },
    });
    expect(Math.abs(Date.parse(token.createdAt) - Date.now())).toBeLessThan(60_000);

    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['public-signup-token-created']);
    const { users: _, ...withoutUsers } = token;
    expect(events[0]!.data).toEqual(withoutUsers);
    expect(events[0]!.createdBy).toBe('inviter');
  });

  it('gives every token a different secret', async () => {
    const a = await createToken({ name: 'twin' });
    const b = await createToken({ name: 'twin' });
    expect(a.secret).not.toBe(b.secret);
  });

  it('refuses an expiry in the past with 400 and records nothing', async () => {
    const since = await latestEventId();
    for (const expiresAt of [new Date(Date.now() - 1000).toISOString(), '2000-01-01T00:00:00Z']) {
      const response = await call(app, 'POST', '/api/admin/invite-link/tokens', { body: { name: 'too-late', expiresAt } });
      expect(expectError(response, 400, 'ValidationError').message).toMatch(/expiresAt/);
    }
    expect(await eventsSince(since)).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['a missing name', { expiresAt: FAR_FUTURE }],
    ['a blank name', { name: '   ', expiresAt: FAR_FUTURE }],
    ['a missing expiry', { name: 'no-expiry' }],
    ['an expiry that is not a date-time', { name: 'bad-date', expiresAt: 'next tuesday' }],
    ['an unknown field', { name: 'extra', expiresAt: FAR_FUTURE, role: 'Admin' }],
    ['a body that is not an object', ['name']],
  ])('answers 400 for %s', async (_case, body) => {
    expectError(await call(app, 'POST', '/api/admin/invite-link/tokens', { body: body as object }), 400, 'ValidationError');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await call(app, 'POST', '/api/admin/invite-link/tokens', { body: 'name=x', contentType: 'application/x-www-form-urlencoded' });
    expectError(response, 415, 'ContentTypeerror');
  });
});

describe('managing signup tokens needs an admin credential', () => {
  let secret: string;
  beforeAll(async () => {
    secret = (await createToken()).secret;
  });

  it.each<[string, string, object | undefined]>([
    ['GET', '/api/admin/invite-link/tokens', undefined],
    ['POST', '/api/admin/invite-link/tokens', { name: 'anonymous', expiresAt: FAR_FUTURE }],
    ['GET', '/api/admin/invite-link/tokens/{secret}', undefined],
    ['PUT', '/api/admin/invite-link/tokens/{secret}', { enabled: false }],
  ])('%s %s answers 401 without a credential', async (method, path, body) => {
    const response = await call(app, method, path.replace('{secret}', secret), { token: null, body });
    expectError(response, 401, 'AuthenticationRequired');
  });

  it('answers 403 to a client token', async () => {
    const created = await call(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: 'sdk', type: 'client' } });
    const client = created.json.secret as string;
    expectError(await call(app, 'GET', '/api/admin/invite-link/tokens', { token: client }), 403, 'NoAccessError');
    expectError(await call(app, 'POST', '/api/admin/invite-link/tokens', { token: client, body: { name: 'x', expiresAt: FAR_FUTURE } }), 403, 'NoAccessError');
    expect((await getToken(secret)).enabled).toBe(true);
  });
});

describe('reading signup tokens', () => {
  it('lists every token, newest first, each with its users', async () => {
    const older = await createToken({ name: 'older' });
    await sleep(5);
    const newer = await createToken({ name: 'newer' });
    const response = await call(app, 'GET', '/api/admin/invite-link/tokens');
    expect(response.status, response.text).toBe(200);
    const tokens = response.json.tokens as SignupToken[];
    const secrets = tokens.map((token) => token.secret);
    expect(secrets).toContain(older.secret);
    expect(secrets.indexOf(newer.secret)).toBeLessThan(secrets.indexOf(older.secret));
    const createdAts = tokens.map((token) => Date.parse(token.createdAt));
    expect([...createdAts].sort((a, b) => b - a)).toEqual(createdAts);
    expect(tokens.find((token) => token.secret === older.secret)).toEqual(older);
    for (const token of tokens) expect(Array.isArray(token.users)).toBe(true);
  });

  it('reads one token as it was created', async () => {
    const created = await createToken({ name: 'read-me' });
    expect(await getToken(created.secret)).toEqual(created);
  });

  it('answers 404 for an unknown secret', async () => {
    expectError(await call(app, 'GET', `/api/admin/invite-link/tokens/${'0'.repeat(32)}`), 404, 'NotFoundError');
  });
});

describe('updating signup tokens', () => {
  it('disables and re-enables a token: 200 with the token, an event each time, validation follows', async () => {
    const token = await createToken();
    const since = await latestEventId();

    const disabled = await updateToken(token.secret, { enabled: false });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.json).toEqual({ ...token, enabled: false });
    expect((await getToken(token.secret)).enabled).toBe(false);
    expectError(await validate(token.secret), 400, 'ValidationError');

    const enabled = await updateToken(token.secret, { enabled: true });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.json).toEqual(token);
    expect((await validate(token.secret)).status).toBe(200);

    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.data, e.createdBy])).toEqual([
      ['public-signup-token-updated', { secret: token.secret, enabled: false, expiresAt: token.expiresAt }, 'inviter'],
      ['public-signup-token-updated', { secret: token.secret, enabled: true, expiresAt: token.expiresAt }, 'inviter'],
    ]);
  });

  it('changes the expiry: 200 with the new expiry and an event', async () => {
    const token = await createToken();
    const expiresAt = new Date(Date.UTC(2097, 2, 3, 4, 5, 6)).toISOString();
    const since = await latestEventId();
    const response = await updateToken(token.secret, { expiresAt });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ ...token, expiresAt });
    expect((await getToken(token.secret)).expiresAt).toBe(expiresAt);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.data])).toEqual([['public-signup-token-updated', { secret: token.secret, enabled: true, expiresAt }]]);
  });

  it('shows a token whose new expiry has passed as disabled', async () => {
    const token = await createToken();
    const response = await updateToken(token.secret, { expiresAt: '2001-01-01T00:00:00.000Z' });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({ expiresAt: '2001-01-01T00:00:00.000Z', enabled: false });
    expectError(await validate(token.secret), 400, 'ValidationError');
  });

  it('answers 404 for an unknown secret and records nothing', async () => {
    const since = await latestEventId();
    expectError(await updateToken('f'.repeat(32), { enabled: false }), 404, 'NotFoundError');
    expect(await eventsSince(since)).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['an empty body', {}],
    ['an unknown field', { enabled: false, name: 'renamed' }],
    ['a non-boolean enabled', { enabled: 'no' }],
    ['an expiry that is not a date-time', { expiresAt: 'soon' }],
  ])('answers 400 for %s', async (_case, body) => {
    const token = await createToken();
    expectError(await updateToken(token.secret, body as object), 400, 'ValidationError');
    expect(await getToken(token.secret)).toEqual(token);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const token = await createToken();
    const response = await call(app, 'PUT', `/api/admin/invite-link/tokens/${token.secret}`, { body: 'enabled=false', contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
  });
});

describe('validating signup tokens (public)', () => {
  it('answers 200 without a body for a usable token, with no credential', async () => {
    const token = await createToken();
    const response = await validate(token.secret);
    expect(response.status, response.text).toBe(200);
    expect(response.text).toBe('');
  });

  it('answers 400 naming the reason for an unknown token', async () => {
    expect(expectError(await validate('0'.repeat(32)), 400, 'ValidationError').message).toMatch(/no such token/);
  });

  it('answers 400 naming the reason for a disabled token', async () => {
    const token = await createToken();
    expect((await updateToken(token.secret, { enabled: false })).status).toBe(200);
    expect(expectError(await validate(token.secret), 400, 'ValidationError').message).toMatch(/disabled/);
  });

  it('stops accepting a token at the instant it expires, and shows it disabled from then on', async () => {
    const { token, expired } = await expiringToken();
    expect((await validate(token.secret)).status).toBe(200);
    expect((await getToken(token.secret)).enabled).toBe(true);
    await expired;
    expect(expectError(await validate(token.secret), 400, 'ValidationError').message).toMatch(/expired/);
    expect(await getToken(token.secret)).toEqual({ ...token, enabled: false });
    const listed = (await call(app, 'GET', '/api/admin/invite-link/tokens')).json.tokens as SignupToken[];
    expect(listed.find((listedToken) => listedToken.secret === token.secret)?.enabled).toBe(false);
  });

  it('counts a token expired through the database (stored enabled) as expired', async () => {
    const token = await createToken();
    await app.db.update(t.publicSignupTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(t.publicSignupTokens.secret, token.secret));
    expect(expectError(await validate(token.secret), 400, 'ValidationError').message).toMatch(/expired/);
    expect((await getToken(token.secret)).enabled).toBe(false);
  });
});

describe('signing up with a token (public)', () => {
  it('creates a Viewer with 200, links it to the token and records user-created then public-signup-token-user-added', async () => {
    const token = await createToken();
    const body = newcomer();
    const since = await latestEventId();
    const response = await signUp(token.secret, body);
    expect(response.status, response.text).toBe(200);
    const user = response.json as User;
    expect(user).toEqual({
      id: expect.any(Number),
      name: body.name,
      email: body.email,
      username: body.username,
      imageUrl: expect.stringMatching(/^https:\/\//),
      rootRole: viewer.id,
      loginAttempts: 0,
      emailSent: false,
      seenAt: null,
      createdAt: expect.any(String),
      accountType: 'User',
    });

    expect((await getToken(token.secret)).users).toEqual([user]);
    const listed = (await call(app, 'GET', '/api/admin/invite-link/tokens')).json.tokens as SignupToken[];
    expect(listed.find((listedToken) => listedToken.secret === token.secret)?.users).toEqual([user]);

    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['user-created', 'public-signup-token-user-added']);
    expect(events[0]!.data).toMatchObject({ id: user.id, email: body.email, username: body.username, rootRole: viewer.id });
    expect(events[1]!.data).toEqual({ secret: token.secret, userId: user.id });
    // Nobody is authenticated on this route: the service records the events itself.
    for (const event of events) expect(event.createdBy).toBe('unleash_system_user');
  });

  it('lists several joiners in the order they joined; username is optional', async () => {
    const token = await createToken();
    const first = newcomer();
    const { username: _, ...second } = newcomer();
    const a = await signUp(token.secret, first);
    const b = await signUp(token.secret, second);
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    expect(b.json.username).toBeNull();
    expect((await getToken(token.secret)).users).toEqual([a.json, b.json]);
  });

  it('never shows the password or its hash in an answer, an event or a log line', async () => {
    const token = await createToken();
    const password = 'Unguessable-Heron-4711';
    const response = await signUp(token.secret, newcomer({ password }));
    expect(response.status, response.text).toBe(200);
    const { text: eventsText } = await allEvents();
    const tokenText = (await call(app, 'GET', `/api/admin/invite-link/tokens/${token.secret}`)).text;
    const listText = (await call(app, 'GET', '/api/admin/invite-link/tokens')).text;
    for (const text of [response.text, eventsText, tokenText, listText, ...app.logs]) {
      expect(text).not.toContain('scrypt$');
      expect(text).not.toContain(password);
    }
    expect(Object.keys(response.json)).not.toContain('passwordHash');
  });

  it('keeps the token secret out of the log lines of the requests that carry it in their path', async () => {
    const token = await createToken();
    await call(app, 'GET', `/invite/${token.secret}/validate`, { token: null });
    await signUp(token.secret, newcomer());
    await call(app, 'GET', `/api/admin/invite-link/tokens/${token.secret}`);
    await call(app, 'PUT', `/api/admin/invite-link/tokens/${token.secret}`, { body: { enabled: false } });
    const requestLines = app.logs.filter((line) => line.includes('invite'));
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    for (const line of app.logs) expect(line).not.toContain(token.secret);
  });

  describe('refuses an unusable token with 400 and creates nobody', () => {
    async function expectRefused(secret: string, reason: RegExp) {
      const body = newcomer();
      const since = await latestEventId();
      const error = expectError(await signUp(secret, body), 400, 'ValidationError');
      expect(error.message).toMatch(reason);
      expect(await eventsSince(since)).toEqual([]);
      // The same identity is still free.
      const usable = await createToken();
      expect((await signUp(usable.secret, body)).status).toBe(200);
    }

    it('unknown', async () => {
      await expectRefused('a'.repeat(32), /no such token/);
    });

    it('disabled', async () => {
      const token = await createToken();
      expect((await updateToken(token.secret, { enabled: false })).status).toBe(200);
      await expectRefused(token.secret, /disabled/);
      expect((await getToken(token.secret)).users).toEqual([]);
    });

    it('expired (waiting for the instant to pass)', async () => {
      const { token, expired } = await expiringToken();
      await expired;
      await expectRefused(token.secret, /expired/);
      expect((await getToken(token.secret)).users).toEqual([]);
    });

    it('expired (set in the database)', async () => {
      const token = await createToken();
      await app.db.update(t.publicSignupTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(t.publicSignupTokens.secret, token.secret));
      await expectRefused(token.secret, /expired/);
    });
  });

  describe('answers 409 NameExistsError for an identity already in use', () => {
    let token: SignupToken;
    let taken: ReturnType<typeof newcomer>;
    beforeAll(async () => {
      token = await createToken();
      taken = newcomer();
      const response = await signUp(token.secret, taken);
      expect(response.status, response.text).toBe(200);
    });

    it.each<[string, (taken: ReturnType<typeof newcomer>) => Record<string, unknown>]>([
      ['the same email', (t) => ({ email: t.email })],
      ['the same email in other case', (t) => ({ email: t.email.toUpperCase() })],
      ['the same username', (t) => ({ username: t.username })],
      ['the same username in other case', (t) => ({ username: t.username.toUpperCase() })],
    ])('%s', async (_case, clash) => {
      const since = await latestEventId();
      expectError(await signUp(token.secret, newcomer(clash(taken))), 409, 'NameExistsError');
      expect(await eventsSince(since)).toEqual([]);
      expect((await getToken(token.secret)).users).toHaveLength(1);
    });
  });

  describe('answers 400 for a password that breaks the policy, and creates nobody', () => {
    it.each([
      ['shorter than 10 characters', 'Sh0rt-pw'],
      ['among the most common', 'password123'],
      ['empty', ''],
    ])('%s', async (_case, password) => {
      const token = await createToken();
      const body = newcomer({ password });
      const since = await latestEventId();
      expect(expectError(await signUp(token.secret, body), 400, 'ValidationError').message).toMatch(/password/);
      expect(await eventsSince(since)).toEqual([]);
      expect((await getToken(token.secret)).users).toEqual([]);
      expect((await signUp(token.secret, { ...body, password: GOOD_PASSWORD })).status).toBe(200);
    });
  });

  describe('answers 400 for a body that breaks the contract', () => {
    let token: SignupToken;
    beforeAll(async () => {
      token = await createToken();
    });

    it.each<[string, (body: ReturnType<typeof newcomer>) => unknown]>([
      ['a missing email', ({ email: _, ...rest }) => rest],
      ['an email without @', (body) => ({ ...body, email: 'not-an-email' })],
      ['a missing name', ({ name: _, ...rest }) => rest],
      ['a missing password', ({ password: _, ...rest }) => rest],
      ['a username with a space', (body) => ({ ...body, username: 'two words' })],
      ['an unknown field', (body) => ({ ...body, rootRole: 1 })],
    ])('%s', async (_case, shape) => {
      expectError(await signUp(token.secret, shape(newcomer()) as object), 400, 'ValidationError');
      expect((await getToken(token.secret)).users).toEqual([]);
    });

    it('answers 415 for a body that is not JSON', async () => {
      expectError(await signUp(token.secret, 'name=x&email=x@example.com', 'application/x-www-form-urlencoded'), 415, 'ContentTypeerror');
      expectError(await signUp(token.secret, JSON.stringify(newcomer()), 'text/plain'), 415, 'ContentTypeerror');
    });
  });
});
