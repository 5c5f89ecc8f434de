import { setTimeout as sleep } from 'node:timers/promises';
import type { components, ServiceClient } from '../client/index.js';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { newApiToken } from './support/fixtures.js';
import { newcomer, signUp } from './support/users.js';

type SignupToken = components['schemas']['SignupToken'];
type SignUp = components['schemas']['SignUp'];
type UpdateSignupToken = components['schemas']['UpdateSignupToken'];

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
  const created = await app.admin.POST('/api/admin/api-tokens', { body: { tokenName: 'inviter', type: 'admin' } });
  expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  inviter = created.data!.secret;
  const [role] = await app.db
    .select({ id: t.roles.id, name: t.roles.name, type: t.roles.type, description: t.roles.description })
    .from(t.roles)
    .where(eq(t.roles.name, 'Viewer'));
  viewer = role!;
});

const tokensRoute = '/api/admin/invite-link/tokens';
const tokenRoute = '/api/admin/invite-link/tokens/{token}';
const tokenPath = (secret: string) => ({ params: { path: { token: secret } } });

const postToken = (body: { name: string; expiresAt: string }, client: ServiceClient = app.clientWith(inviter)) => client.POST(tokensRoute, { body });

async function createSignupToken(body: { name?: string; expiresAt?: string } = {}): Promise<SignupToken> {
  const { data, error, response } = await postToken({ name: body.name ?? unique('invite'), expiresAt: body.expiresAt ?? FAR_FUTURE });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!;
}

async function getToken(secret: string): Promise<SignupToken> {
  const { data, error, response } = await app.admin.GET(tokenRoute, tokenPath(secret));
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!;
}

async function inviteTokens(): Promise<SignupToken[]> {
  const { data, error, response } = await app.admin.GET(tokensRoute);
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!.tokens;
}

const updateToken = (secret: string, body: UpdateSignupToken) => app.clientWith(inviter).PUT(tokenRoute, { ...tokenPath(secret), body });
/** For bodies the types forbid. */
const updateTokenRaw = (secret: string, body: unknown, contentType?: string) =>
  call(app, 'PUT', `/api/admin/invite-link/tokens/${secret}`, { token: inviter, body: body as object, ...(contentType && { contentType }) });
const validate = (secret: string) => app.clientWith().GET('/invite/{token}/validate', tokenPath(secret));
/** For bodies the types forbid: missing fields, unknown fields, not JSON. */
const signUpRaw = (secret: string, body: unknown, contentType?: string) =>
  call(app, 'POST', `/invite/${secret}/signup`, { token: null, body: body as object, ...(contentType && { contentType }) });

/** A signup body no other test uses. */
const joiner = (fields: Partial<SignUp> = {}) => newcomer(unique, { password: GOOD_PASSWORD, ...fields }, 'newcomer');

/** A token that stops being usable 1.5 s after it is created; resolves once that instant has passed. */
async function expiringToken(): Promise<{ token: SignupToken; expired: Promise<void> }> {
  const token = await createSignupToken({ expiresAt: new Date(Date.now() + 1500).toISOString() });
  const expired = sleep(Date.parse(token.expiresAt) - Date.now() + 50);
  return { token, expired };
}

describe('creating signup tokens', () => {
  it('answers 201 with the token, its location, its invite URL, the Viewer role and no users', async () => {
    const expiresAt = new Date(Date.UTC(2098, 6, 15, 12, 30)).toISOString();
    const since = await latestEventId();
    const { data, error, response } = await postToken({ name: 'launch-party', expiresAt });
    expect(response.status, JSON.stringify(error)).toBe(201);
    const token = data!;
    expect(token.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(response.headers.get('location')).toBe(`/api/admin/invite-link/tokens/${token.secret}`);
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
    const a = await createSignupToken({ name: 'twin' });
    const b = await createSignupToken({ name: 'twin' });
    expect(a.secret).not.toBe(b.secret);
  });

  it('refuses an expiry in the past with 400 and records nothing', async () => {
    const since = await latestEventId();
    for (const expiresAt of [new Date(Date.now() - 1000).toISOString(), '2000-01-01T00:00:00Z']) {
      const response = await postToken({ name: 'too-late', expiresAt }, app.admin);
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
    secret = (await createSignupToken()).secret;
  });

  it.each<[string, string, (anonymous: ServiceClient) => Promise<Parameters<typeof expectError>[0]>]>([
    ['GET', tokensRoute, (anonymous) => anonymous.GET(tokensRoute)],
    ['POST', tokensRoute, (anonymous) => postToken({ name: 'anonymous', expiresAt: FAR_FUTURE }, anonymous)],
    ['GET', tokenRoute, (anonymous) => anonymous.GET(tokenRoute, tokenPath(secret))],
    ['PUT', tokenRoute, (anonymous) => anonymous.PUT(tokenRoute, { ...tokenPath(secret), body: { enabled: false } })],
  ])('%s %s answers 401 without a credential', async (_method, _path, send) => {
    expectError(await send(app.clientWith()), 401, 'AuthenticationRequired');
  });

  it('answers 403 to a client token', async () => {
    const sdk = app.clientWith(await newApiToken(app, { type: 'client' }));
    expectError(await sdk.GET(tokensRoute), 403, 'NoAccessError');
    expectError(await postToken({ name: 'x', expiresAt: FAR_FUTURE }, sdk), 403, 'NoAccessError');
    expect((await getToken(secret)).enabled).toBe(true);
  });
});

describe('reading signup tokens', () => {
  it('lists every token, newest first, each with its users', async () => {
    const older = await createSignupToken({ name: 'older' });
    await sleep(5);
    const newer = await createSignupToken({ name: 'newer' });
    const tokens = await inviteTokens();
    const secrets = tokens.map((token) => token.secret);
    expect(secrets).toContain(older.secret);
    expect(secrets.indexOf(newer.secret)).toBeLessThan(secrets.indexOf(older.secret));
    const createdAts = tokens.map((token) => Date.parse(token.createdAt));
    expect([...createdAts].sort((a, b) => b - a)).toEqual(createdAts);
    expect(tokens.find((token) => token.secret === older.secret)).toEqual(older);
    for (const token of tokens) expect(Array.isArray(token.users)).toBe(true);
  });

  it('reads one token as it was created', async () => {
    const created = await createSignupToken({ name: 'read-me' });
    expect(await getToken(created.secret)).toEqual(created);
  });

  it('answers 404 for an unknown secret', async () => {
    expectError(await app.admin.GET(tokenRoute, tokenPath('0'.repeat(32))), 404, 'NotFoundError');
  });
});

describe('updating signup tokens', () => {
  it('disables and re-enables a token: 200 with the token, an event each time, validation follows', async () => {
    const token = await createSignupToken();
    const since = await latestEventId();

    const disabled = await updateToken(token.secret, { enabled: false });
    expect(disabled.response.status, JSON.stringify(disabled.error)).toBe(200);
    expect(disabled.data).toEqual({ ...token, enabled: false });
    expect((await getToken(token.secret)).enabled).toBe(false);
    expectError(await validate(token.secret), 400, 'ValidationError');

    const enabled = await updateToken(token.secret, { enabled: true });
    expect(enabled.response.status, JSON.stringify(enabled.error)).toBe(200);
    expect(enabled.data).toEqual(token);
    expect((await validate(token.secret)).response.status).toBe(200);

    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.data, e.createdBy])).toEqual([
      ['public-signup-token-updated', { secret: token.secret, enabled: false, expiresAt: token.expiresAt }, 'inviter'],
      ['public-signup-token-updated', { secret: token.secret, enabled: true, expiresAt: token.expiresAt }, 'inviter'],
    ]);
  });

  it('changes the expiry: 200 with the new expiry and an event', async () => {
    const token = await createSignupToken();
    const expiresAt = new Date(Date.UTC(2097, 2, 3, 4, 5, 6)).toISOString();
    const since = await latestEventId();
    const { data, error, response } = await updateToken(token.secret, { expiresAt });
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data).toEqual({ ...token, expiresAt });
    expect((await getToken(token.secret)).expiresAt).toBe(expiresAt);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.data])).toEqual([['public-signup-token-updated', { secret: token.secret, enabled: true, expiresAt }]]);
  });

  it('shows a token whose new expiry has passed as disabled', async () => {
    const token = await createSignupToken();
    const { data, error, response } = await updateToken(token.secret, { expiresAt: '2001-01-01T00:00:00.000Z' });
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data).toMatchObject({ expiresAt: '2001-01-01T00:00:00.000Z', enabled: false });
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
    const token = await createSignupToken();
    expectError(await updateTokenRaw(token.secret, body), 400, 'ValidationError');
    expect(await getToken(token.secret)).toEqual(token);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const token = await createSignupToken();
    expectError(await updateTokenRaw(token.secret, 'enabled=false', 'text/plain'), 415, 'ContentTypeerror');
  });
});

describe('validating signup tokens (public)', () => {
  it('answers 200 without a body for a usable token, with no credential', async () => {
    const token = await createSignupToken();
    const { data, error, response } = await validate(token.secret);
    expect(response.status, JSON.stringify(error)).toBe(200);
    // The client answers undefined data for an empty body only.
    expect(data).toBeUndefined();
  });

  it('answers 400 naming the reason for an unknown token', async () => {
    expect(expectError(await validate('0'.repeat(32)), 400, 'ValidationError').message).toMatch(/no such token/);
  });

  it('answers 400 naming the reason for a disabled token', async () => {
    const token = await createSignupToken();
    expect((await updateToken(token.secret, { enabled: false })).response.status).toBe(200);
    expect(expectError(await validate(token.secret), 400, 'ValidationError').message).toMatch(/disabled/);
  });

  it('stops accepting a token at the instant it expires, and shows it disabled from then on', async () => {
    const { token, expired } = await expiringToken();
    expect((await validate(token.secret)).response.status).toBe(200);
    expect((await getToken(token.secret)).enabled).toBe(true);
    await expired;
    expect(expectError(await validate(token.secret), 400, 'ValidationError').message).toMatch(/expired/);
    expect(await getToken(token.secret)).toEqual({ ...token, enabled: false });
    const listed = await inviteTokens();
    expect(listed.find((listedToken) => listedToken.secret === token.secret)?.enabled).toBe(false);
  });

  it('counts a token expired through the database (stored enabled) as expired', async () => {
    const token = await createSignupToken();
    await app.db.update(t.publicSignupTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(t.publicSignupTokens.secret, token.secret));
    expect(expectError(await validate(token.secret), 400, 'ValidationError').message).toMatch(/expired/);
    expect((await getToken(token.secret)).enabled).toBe(false);
  });
});

describe('signing up with a token (public)', () => {
  it('creates a Viewer with 200, links it to the token and records user-created then public-signup-token-user-added', async () => {
    const token = await createSignupToken();
    const body = joiner();
    const since = await latestEventId();
    const { data: user, error, response } = await signUp(app, token.secret, body);
    expect(response.status, JSON.stringify(error)).toBe(200);
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
    const listed = await inviteTokens();
    expect(listed.find((listedToken) => listedToken.secret === token.secret)?.users).toEqual([user]);

    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['user-created', 'public-signup-token-user-added']);
    expect(events[0]!.data).toMatchObject({ id: user!.id, email: body.email, username: body.username, rootRole: viewer.id });
    expect(events[1]!.data).toEqual({ secret: token.secret, userId: user!.id });
    // Nobody is authenticated on this route: the service records the events itself.
    for (const event of events) expect(event.createdBy).toBe('unleash_system_user');
  });

  it('lists several joiners in the order they joined; username is optional', async () => {
    const token = await createSignupToken();
    const first = joiner();
    const { username: _, ...second } = joiner();
    const a = await signUp(app, token.secret, first);
    const b = await signUp(app, token.secret, second);
    expect(a.response.status, JSON.stringify(a.error)).toBe(200);
    expect(b.response.status, JSON.stringify(b.error)).toBe(200);
    expect(b.data!.username).toBeNull();
    expect((await getToken(token.secret)).users).toEqual([a.data, b.data]);
  });

  it('never shows the password or its hash in an answer, an event or a log line', async () => {
    const token = await createSignupToken();
    const password = 'Unguessable-Heron-4711';
    const { data, error, response } = await signUp(app, token.secret, joiner({ password }));
    expect(response.status, JSON.stringify(error)).toBe(200);
    const eventsText = JSON.stringify((await app.admin.GET('/api/admin/events')).data);
    const tokenText = JSON.stringify(await getToken(token.secret));
    const listText = JSON.stringify(await inviteTokens());
    for (const text of [JSON.stringify(data), eventsText, tokenText, listText, ...app.logs]) {
      expect(text).not.toContain('scrypt$');
      expect(text).not.toContain(password);
    }
    expect(Object.keys(data!)).not.toContain('passwordHash');
  });

  it('keeps the token secret out of the log lines of the requests that carry it in their path', async () => {
    const token = await createSignupToken();
    await validate(token.secret);
    await signUp(app, token.secret, joiner());
    await app.admin.GET(tokenRoute, tokenPath(token.secret));
    await app.admin.PUT(tokenRoute, { ...tokenPath(token.secret), body: { enabled: false } });
    const requestLines = app.logs.filter((line) => line.includes('invite'));
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    for (const line of app.logs) expect(line).not.toContain(token.secret);
  });

  describe('refuses an unusable token with 400 and creates nobody', () => {
    async function expectTokenRefused(secret: string, reason: RegExp) {
      const body = joiner();
      const since = await latestEventId();
      const error = expectError(await signUp(app, secret, body), 400, 'ValidationError');
      expect(error.message).toMatch(reason);
      expect(await eventsSince(since)).toEqual([]);
      // The same identity is still free.
      const usable = await createSignupToken();
      expect((await signUp(app, usable.secret, body)).response.status).toBe(200);
    }

    it('unknown', async () => {
      await expectTokenRefused('a'.repeat(32), /no such token/);
    });

    it('disabled', async () => {
      const token = await createSignupToken();
      expect((await updateToken(token.secret, { enabled: false })).response.status).toBe(200);
      await expectTokenRefused(token.secret, /disabled/);
      expect((await getToken(token.secret)).users).toEqual([]);
    });

    it('expired (waiting for the instant to pass)', async () => {
      const { token, expired } = await expiringToken();
      await expired;
      await expectTokenRefused(token.secret, /expired/);
      expect((await getToken(token.secret)).users).toEqual([]);
    });

    it('expired (set in the database)', async () => {
      const token = await createSignupToken();
      await app.db.update(t.publicSignupTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(t.publicSignupTokens.secret, token.secret));
      await expectTokenRefused(token.secret, /expired/);
    });
  });

  describe('answers 409 NameExistsError for an identity already in use', () => {
    let token: SignupToken;
    let taken: ReturnType<typeof joiner>;
    beforeAll(async () => {
      token = await createSignupToken();
      taken = joiner();
      const { error, response } = await signUp(app, token.secret, taken);
      expect(response.status, JSON.stringify(error)).toBe(200);
    });

    it.each<[string, (taken: ReturnType<typeof joiner>) => Partial<SignUp>]>([
      ['the same email', (t) => ({ email: t.email })],
      ['the same email in other case', (t) => ({ email: t.email.toUpperCase() })],
      ['the same username', (t) => ({ username: t.username })],
      ['the same username in other case', (t) => ({ username: t.username.toUpperCase() })],
    ])('%s', async (_case, clash) => {
      const since = await latestEventId();
      expectError(await signUp(app, token.secret, joiner(clash(taken))), 409, 'NameExistsError');
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
      const token = await createSignupToken();
      const body = joiner({ password });
      const since = await latestEventId();
      expect(expectError(await signUp(app, token.secret, body), 400, 'ValidationError').message).toMatch(/password/);
      expect(await eventsSince(since)).toEqual([]);
      expect((await getToken(token.secret)).users).toEqual([]);
      expect((await signUp(app, token.secret, { ...body, password: GOOD_PASSWORD })).response.status).toBe(200);
    });
  });

  describe('answers 400 for a body that breaks the contract', () => {
    let token: SignupToken;
    beforeAll(async () => {
      token = await createSignupToken();
    });

    it.each<[string, (body: ReturnType<typeof joiner>) => unknown]>([
      ['a missing email', ({ email: _, ...rest }) => rest],
      ['an email without @', (body) => ({ ...body, email: 'not-an-email' })],
      ['a missing name', ({ name: _, ...rest }) => rest],
      ['a missing password', ({ password: _, ...rest }) => rest],
      ['a username with a space', (body) => ({ ...body, username: 'two words' })],
      ['an unknown field', (body) => ({ ...body, rootRole: 1 })],
    ])('%s', async (_case, shape) => {
      expectError(await signUpRaw(token.secret, shape(joiner())), 400, 'ValidationError');
      expect((await getToken(token.secret)).users).toEqual([]);
    });

    it('answers 415 for a body that is not JSON', async () => {
      expectError(await signUpRaw(token.secret, 'name=x&email=x@example.com', 'application/x-www-form-urlencoded'), 415, 'ContentTypeerror');
      expectError(await signUpRaw(token.secret, JSON.stringify(joiner()), 'text/plain'), 415, 'ContentTypeerror');
    });
  });
});
