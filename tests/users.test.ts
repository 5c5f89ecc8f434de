import { createHash } from 'node:crypto';
import type { components } from 'flag-service/client';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { call, expectError, startTestApp, type RawResponse, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { as, sessionOf, USER_PASSWORD, userWithSession, type TestUser } from './support/users.js';

type User = components['schemas']['User'];
type UsersEnvelope = components['schemas']['UsersEnvelope'];
type CurrentUser = components['schemas']['CurrentUser'];

const ADMIN = 1;
const EDITOR = 2;
const VIEWER = 3;
const OWNER = 4;
const MEMBER = 5;

const USER_FIELDS = ['id', 'name', 'email', 'username', 'imageUrl', 'rootRole', 'loginAttempts', 'emailSent', 'seenAt', 'createdAt', 'accountType'];
const NEW_PASSWORD = 'Fresh-Lantern-913';
const FAR_FUTURE = new Date(Date.UTC(2099, 0, 1)).toISOString();

let app: TestApp;
let clientToken: string;
const { latestEventId, eventsSince } = eventReader(() => app);
const unique = uniqueNames();

beforeAll(async () => {
  app = await startTestApp();
  const created = await call(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: 'sdk', type: 'client' } });
  expect(created.status, created.text).toBe(201);
  clientToken = created.json.secret;
});

/** A create-user body whose name, email and username no other test uses. */
function newcomer(overrides: Record<string, unknown> = {}) {
  const username = unique('person');
  return { name: `Person ${username}`, email: `${username}@example.com`, username, password: USER_PASSWORD, rootRole: 'Viewer', ...overrides };
}

const postUser = (body: object | string, options: { contentType?: string; token?: string | null; headers?: Record<string, string> } = {}) =>
  call(app, 'POST', '/api/admin/user-admin', { body, ...options });

async function createUser(overrides: Record<string, unknown> = {}): Promise<User> {
  const response = await postUser(newcomer(overrides));
  expect(response.status, response.text).toBe(201);
  return response.json;
}

async function getUser(id: number): Promise<User> {
  const response = await call(app, 'GET', `/api/admin/user-admin/${id}`);
  expect(response.status, response.text).toBe(200);
  return response.json;
}

async function listUsers(): Promise<UsersEnvelope> {
  const response = await call(app, 'GET', '/api/admin/user-admin');
  expect(response.status, response.text).toBe(200);
  return response.json;
}

const updateUser = (id: number, body: object | string, contentType?: string) =>
  call(app, 'PUT', `/api/admin/user-admin/${id}`, { body, ...(contentType && { contentType }) });
const setPassword = (id: number, body: object | string, contentType?: string) =>
  call(app, 'POST', `/api/admin/user-admin/${id}/change-password`, { body, ...(contentType && { contentType }) });
const login = (username: string, password: string) => call(app, 'POST', '/auth/simple/login', { token: null, body: { username, password } });
const currentUser = (options: { token?: string | null; headers?: Record<string, string> }) => call(app, 'GET', '/api/admin/user', options);
const createFlagAs = (user: TestUser) => call(app, 'POST', '/api/admin/projects/default/features', { ...as(user), body: { name: unique('flag') } });

const gravatarOf = (identity: string) =>
  `https://gravatar.com/avatar/${createHash('sha256').update(identity.trim().toLowerCase()).digest('hex')}?s=42&d=retro&r=g`;

/** Asserts the error, and that the request created no user and recorded no event. */
async function expectRefused(send: () => Promise<RawResponse>, status: number, name: string) {
  const usersBefore = (await listUsers()).users;
  const since = await latestEventId();
  const error = expectError(await send(), status, name);
  expect(await eventsSince(since)).toEqual([]);
  expect((await listUsers()).users).toEqual(usersBefore);
  return error;
}

async function personalToken(user: TestUser): Promise<string> {
  const created = await call(app, 'POST', '/api/admin/user/tokens', { ...as(user), body: { description: unique('pat'), expiresAt: FAR_FUTURE } });
  expect(created.status, created.text).toBe(201);
  return created.json.secret;
}

describe('creating a user', () => {
  it('answers 201 with the user in the contract shape and its location, and records user-created by the admin token', async () => {
    const body = newcomer({ rootRole: 'Editor' });
    const since = await latestEventId();
    const response = await postUser(body);
    expect(response.status, response.text).toBe(201);
    const user = response.json as User;
    expect(user).toEqual({
      id: expect.any(Number),
      name: body.name,
      email: body.email,
      username: body.username,
      imageUrl: gravatarOf(body.email),
      rootRole: EDITOR,
      loginAttempts: 0,
      emailSent: false,
      seenAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
      accountType: 'User',
    });
    expect(Object.keys(user).sort()).toEqual([...USER_FIELDS].sort());
    expect(Math.abs(Date.parse(user.createdAt) - Date.now())).toBeLessThan(60_000);
    expect(response.headers.location).toBe(`/api/admin/user-admin/${user.id}`);
    expect(await getUser(user.id)).toEqual(user);

    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([['user-created', 'admin', -42]]);
    expect(events[0]!.data).toEqual({ id: user.id, name: body.name, username: body.username, email: body.email, rootRole: EDITOR });
    expect(events[0]!.preData).toBeNull();
  });

  it('never shows the password or its hash in the answer, the user, the list, the events or the logs', async () => {
    const password = 'Unguessable-Heron-4711';
    const response = await postUser(newcomer({ password }));
    expect(response.status, response.text).toBe(201);
    const texts = [
      response.text,
      (await call(app, 'GET', `/api/admin/user-admin/${response.json.id}`)).text,
      (await call(app, 'GET', '/api/admin/user-admin')).text,
      (await call(app, 'GET', '/api/admin/events')).text,
      ...app.logs,
    ];
    for (const text of texts) {
      expect(text).not.toContain(password);
      expect(text).not.toContain('scrypt$');
      expect(text).not.toMatch(/"password(Hash)?"/i);
    }
  });

  it.each<[string | number, number]>([
    ['Viewer', VIEWER],
    ['Editor', EDITOR],
    ['Admin', ADMIN],
    ['editor', EDITOR],
    [VIEWER, VIEWER],
    [EDITOR, EDITOR],
    [ADMIN, ADMIN],
  ])('takes the root role %j as role %i', async (rootRole, id) => {
    const user = await createUser({ rootRole });
    expect(user.rootRole).toBe(id);
    expect((await getUser(user.id)).rootRole).toBe(id);
  });

  it('takes a custom root role by name and by id', async () => {
    const name = unique('Segment keeper');
    const role = await call(app, 'POST', '/api/admin/roles', {
      body: { name, description: 'Keeps segments', type: 'root-custom', permissions: [{ name: 'CREATE_SEGMENT' }] },
    });
    expect(role.status, role.text).toBe(201);
    expect((await createUser({ rootRole: name })).rootRole).toBe(role.json.id);
    expect((await createUser({ rootRole: role.json.id })).rootRole).toBe(role.json.id);
  });

  it('creates a user with only a username: no email, an avatar of the username', async () => {
    const { email: _, ...body } = newcomer();
    const response = await postUser(body);
    expect(response.status, response.text).toBe(201);
    expect(response.json).toMatchObject({ username: body.username, imageUrl: gravatarOf(body.username) });
    // The interface types email as a plain string: a user without one has no email key, never null.
    expect(response.json).not.toHaveProperty('email');
    expect((await login(body.username, USER_PASSWORD)).status).toBe(200);
  });

  it('creates a user with only an email and no name: username and name are null', async () => {
    const { username: _, name: __, ...body } = newcomer();
    const response = await postUser(body);
    expect(response.status, response.text).toBe(201);
    expect(response.json).toMatchObject({ email: body.email, username: null, name: null });
    expect((await login(body.email, USER_PASSWORD)).status).toBe(200);
  });

  it('creates a user without a password, who cannot log in until one is set', async () => {
    const { password: _, ...body } = newcomer();
    const response = await postUser(body);
    expect(response.status, response.text).toBe(201);
    expectError(await login(body.email, USER_PASSWORD), 401, 'AuthenticationRequired');
    expect((await setPassword(response.json.id, { password: NEW_PASSWORD })).status).toBe(200);
    expect((await login(body.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('accepts sendEmail and still reports emailSent false', async () => {
    expect((await createUser({ sendEmail: true })).emailSent).toBe(false);
  });

  it('answers one of two simultaneous creations of the same email with 409', async () => {
    const body = newcomer();
    const answers = await Promise.all([postUser(body), postUser({ ...body, username: unique('twin') })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expectError(answers.find((a) => a.status === 409)!, 409, 'NameExistsError');
    expect((await listUsers()).users.filter((u) => u.email === body.email)).toHaveLength(1);
  });
});

describe('refusing to create a user: nobody is created and no event recorded', () => {
  it('answers 400 when the body has neither email nor username', async () => {
    const { email: _, username: __, ...body } = newcomer();
    const error = await expectRefused(() => postUser(body), 400, 'ValidationError');
    expect(error.message).toMatch(/email/);
    expect(error.message).toMatch(/username/);
  });

  it.each<[string, unknown]>([
    ['an unknown role name', 'Overlord'],
    ['an unknown role id', 999_999],
    ['the project role Owner by id', OWNER],
    ['the project role Owner by name', 'Owner'],
    ['the project role Member by id', MEMBER],
  ])('answers 400 naming rootRole for %s', async (_case, rootRole) => {
    const error = await expectRefused(() => postUser(newcomer({ rootRole })), 400, 'ValidationError');
    expect(error.message).toContain('rootRole');
  });

  it('answers 400 for a project role made by an admin', async () => {
    const role = await call(app, 'POST', '/api/admin/roles', {
      body: { name: unique('flag tender'), description: 'Tends flags', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE' }] },
    });
    expect(role.status, role.text).toBe(201);
    await expectRefused(() => postUser(newcomer({ rootRole: role.json.id })), 400, 'ValidationError');
    await expectRefused(() => postUser(newcomer({ rootRole: role.json.name })), 400, 'ValidationError');
  });

  describe('answers 409 NameExistsError for an identity already in use', () => {
    let taken: ReturnType<typeof newcomer>;
    beforeAll(async () => {
      taken = newcomer();
      expect((await postUser(taken)).status).toBe(201);
    });

    it.each<[string, (taken: ReturnType<typeof newcomer>) => Record<string, unknown>]>([
      ['the same email', (t) => ({ email: t.email })],
      ['the same email in other case', (t) => ({ email: t.email.toUpperCase() })],
      ['the same username', (t) => ({ username: t.username })],
      ['the same username in other case', (t) => ({ username: t.username.toUpperCase() })],
      ['the same username and no email', (t) => ({ username: t.username, email: undefined })],
    ])('%s', async (_case, clash) => {
      const error = await expectRefused(() => postUser(newcomer(clash(taken))), 409, 'NameExistsError');
      expect(error.message.toLowerCase()).toMatch(/email|username/);
    });
  });

  it.each([
    ['shorter than 10 characters', 'Sh0rt-pw!'],
    ['empty', ''],
    ['the common password123', 'password123'],
    ['the common 1234567890', '1234567890'],
    ['a common one in other case', 'PASSWORD123'],
    ['fewer than 4 different characters', 'abcabcabcabc'],
    ['longer than 128 characters', `Aa1-${'x'.repeat(125)}`],
  ])('answers 400 for a password %s', async (_case, password) => {
    const body = newcomer({ password });
    const error = await expectRefused(() => postUser(body), 400, 'ValidationError');
    expect(error.message).toMatch(/password/);
    expect((await postUser({ ...body, password: USER_PASSWORD })).status).toBe(201);
  });

  it.each<[string, (body: ReturnType<typeof newcomer>) => unknown]>([
    ['an unknown field', (body) => ({ ...body, permissions: ['ADMIN'] })],
    ['a password hash given directly', (body) => ({ ...body, passwordHash: 'scrypt$1$00$00' })],
    ['a missing rootRole', ({ rootRole: _, ...rest }) => rest],
    ['a null rootRole', (body) => ({ ...body, rootRole: null })],
    ['a boolean rootRole', (body) => ({ ...body, rootRole: true })],
    ['a rootRole id of 0', (body) => ({ ...body, rootRole: 0 })],
    ['an empty rootRole name', (body) => ({ ...body, rootRole: '' })],
    ['a numeric name', (body) => ({ ...body, name: 42 })],
    ['an email without @', (body) => ({ ...body, email: 'not-an-email' })],
    ['a numeric email', (body) => ({ ...body, email: 12345 })],
    ['an empty username', (body) => ({ ...body, username: '' })],
    ['a username with a space', (body) => ({ ...body, username: 'two words' })],
    ['a username with @', (body) => ({ ...body, username: 'who@where' })],
    ['a numeric password', (body) => ({ ...body, password: 12345678901 })],
    ['a string sendEmail', (body) => ({ ...body, sendEmail: 'yes' })],
    ['an array body', (body) => [body]],
  ])('answers 400 for %s', async (_case, shape) => {
    await expectRefused(() => postUser(shape(newcomer()) as object), 400, 'ValidationError');
  });

  it('answers 400 for malformed JSON', async () => {
    await expectRefused(() => postUser('{"email": "x@example.com",'), 400, 'ValidationError');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const body = newcomer();
    await expectRefused(() => postUser(`email=${body.email}&rootRole=Viewer`, { contentType: 'application/x-www-form-urlencoded' }), 415, 'ContentTypeerror');
    await expectRefused(() => postUser(JSON.stringify(body), { contentType: 'text/plain' }), 415, 'ContentTypeerror');
  });
});

describe('reading users', () => {
  it('lists every user, exactly as each reads alone, and the root roles', async () => {
    const [a, b] = [await createUser(), await createUser({ rootRole: 'Admin' })];
    const { users, rootRoles } = await listUsers();
    expect(users).toContainEqual(a);
    expect(users).toContainEqual(b);
    for (const user of users) {
      // A user with only a username has no email key (tests/omitted-not-null.test.ts).
      const fields = user.email === undefined ? USER_FIELDS.filter((f) => f !== 'email') : USER_FIELDS;
      expect(Object.keys(user).sort()).toEqual([...fields].sort());
      expect(await getUser(user.id)).toEqual(user);
    }
    expect(new Set(users.map((u) => u.id)).size).toBe(users.length);
    expect(rootRoles.slice(0, 3)).toEqual([
      { id: ADMIN, type: 'root', name: 'Admin', description: expect.any(String) },
      { id: EDITOR, type: 'root', name: 'Editor', description: expect.any(String) },
      { id: VIEWER, type: 'root', name: 'Viewer', description: expect.any(String) },
    ]);
    for (const role of rootRoles) expect(['root', 'root-custom']).toContain(role.type);
    expect(rootRoles.map((r) => r.name)).not.toContain('Owner');
  });

  it('answers 404 for an unknown id', async () => {
    expect(expectError(await call(app, 'GET', '/api/admin/user-admin/999999'), 404, 'NotFoundError').message).toContain('999999');
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('answers 400 for the id %s', async (id) => {
    expectError(await call(app, 'GET', `/api/admin/user-admin/${id}`), 400, 'ValidationError');
  });

  it('shows failed logins in loginAttempts, and a successful login resets them and sets seenAt', async () => {
    const user = await createUser();
    expect((await login(user.email!, 'Wrong-Password-1')).status).toBe(401);
    expect((await login(user.email!, 'Wrong-Password-2')).status).toBe(401);
    expect(await getUser(user.id)).toEqual({ ...user, loginAttempts: 2 });
    const loggedIn = await login(user.email!, USER_PASSWORD);
    expect(loggedIn.status, loggedIn.text).toBe(200);
    const seen = await getUser(user.id);
    expect(seen).toEqual({ ...user, loginAttempts: 0, seenAt: expect.any(String) });
    expect(Date.parse(seen.seenAt!)).toBeGreaterThanOrEqual(Date.parse(user.createdAt));
    expect(loggedIn.json).toEqual(seen);
  });
});

describe('searching for people (GET /api/admin/user-admin/search)', () => {
  const search = (q: string, options: { token?: string | null; headers?: Record<string, string> } = {}) =>
    call(app, 'GET', `/api/admin/user-admin/search?q=${encodeURIComponent(q)}`, options);

  it('finds users by part of their name, username or email, ignoring case, with only what identifies them', async () => {
    const byName = await createUser({ name: 'Quentin Zebrafish' });
    const byEmail = await createUser({ email: `${unique('qz')}@zebrafish.example` });
    const byUsername = await createUser({ username: unique('ZEBRAFISH-fan') });
    const response = await search('zebraFISH');
    expect(response.status, response.text).toBe(200);
    const found = response.json as Record<string, unknown>[];
    expect(found.map((u) => u.id).sort()).toEqual([byName.id, byEmail.id, byUsername.id].sort());
    expect(found.find((u) => u.id === byName.id)).toEqual({ id: byName.id, name: byName.name, username: byName.username, email: byName.email, imageUrl: byName.imageUrl });
  });

  it('orders by name and answers at most 100', async () => {
    // Written directly: 102 users through the API would hash 102 passwords.
    await app.db.insert(t.users).values(Array.from({ length: 102 }, (_, i) => ({ name: `Crowd ${String(101 - i).padStart(3, '0')}`, username: unique('crowd'), rootRoleId: VIEWER })));
    const found = (await search('crowd ')).json as { name: string }[];
    expect(found).toHaveLength(100);
    expect(found.map((u) => u.name)).toEqual(Array.from({ length: 100 }, (_, i) => `Crowd ${String(i).padStart(3, '0')}`));
  });

  it('takes %, _ and \\ as themselves, not as patterns', async () => {
    const percent = await createUser({ name: 'Hundred % sure' });
    await createUser({ name: 'Hundred x sure' });
    expect(((await search('d % s')).json as { id: number }[]).map((u) => u.id)).toEqual([percent.id]);
    expect((await search('_')).json).toEqual([]);
    expect((await search('\\')).json).toEqual([]);
  });

  it('answers an empty list when nobody matches', async () => {
    expect((await search('nobody-has-this-in-their-name')).json).toEqual([]);
  });

  it('is open to a Viewer, so that project owners can choose members', async () => {
    const target = await createUser({ name: 'Findable Fiona' });
    const viewer = await userWithSession(app, 'Viewer');
    const response = await search('findable fiona', as(viewer));
    expect(response.status, response.text).toBe(200);
    expect((response.json as { id: number }[]).map((u) => u.id)).toEqual([target.id]);
  });

  it('refuses a missing or empty q with 400, and a call without a credential with 401', async () => {
    expectError(await call(app, 'GET', '/api/admin/user-admin/search'), 400, 'ValidationError');
    expectError(await search(''), 400, 'ValidationError');
    expectError(await search('x'.repeat(101)), 400, 'ValidationError');
    expectError(await search('fiona', { token: null }), 401, 'AuthenticationRequired');
  });
});

describe('updating a user', () => {
  it('changes name, email and root role: 200 with the user, and user-updated with data and preData', async () => {
    const user = await createUser();
    const email = `${unique('renamed')}@example.com`;
    const since = await latestEventId();
    const response = await updateUser(user.id, { name: 'Renamed Person', email, rootRole: 'Editor' });
    expect(response.status, response.text).toBe(200);
    const updated = { ...user, name: 'Renamed Person', email, rootRole: EDITOR, imageUrl: gravatarOf(email) };
    expect(response.json).toEqual(updated);
    expect(await getUser(user.id)).toEqual(updated);

    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([['user-updated', 'admin', -42]]);
    expect(events[0]!.data).toEqual({ id: user.id, name: 'Renamed Person', username: user.username, email, rootRole: EDITOR });
    expect(events[0]!.preData).toEqual({ id: user.id, name: user.name, username: user.username, email: user.email, rootRole: VIEWER });
    expect((await login(email, USER_PASSWORD)).status).toBe(200);
    expect((await login(user.email!, USER_PASSWORD)).status).toBe(401);
  });

  it('changes only the fields sent', async () => {
    const user = await createUser({ rootRole: 'Editor' });
    const renamed = await updateUser(user.id, { name: 'Only The Name' });
    expect(renamed.json).toEqual({ ...user, name: 'Only The Name' });
    const promoted = await updateUser(user.id, { rootRole: ADMIN });
    expect(promoted.json).toEqual({ ...user, name: 'Only The Name', rootRole: ADMIN });
    const unnamed = await updateUser(user.id, { name: null });
    expect(unnamed.json).toEqual({ ...user, name: null, rootRole: ADMIN });
  });

  it('records no event for an update that changes nothing', async () => {
    const user = await createUser();
    const since = await latestEventId();
    const response = await updateUser(user.id, { name: user.name, email: user.email, rootRole: 'Viewer' });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual(user);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('answers 200 with the user unchanged, and no event, for an empty body', async () => {
    const user = await createUser();
    const since = await latestEventId();
    const response = await updateUser(user.id, {});
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual(user);
    expect(await eventsSince(since)).toEqual([]);
  });

  it("lets a user's email change case", async () => {
    const user = await createUser();
    const response = await updateUser(user.id, { email: user.email!.toUpperCase() });
    expect(response.status, response.text).toBe(200);
    expect(response.json.email).toBe(user.email!.toUpperCase());
  });

  it("answers 409 for another user's email, in any case, and changes nothing", async () => {
    const [user, other] = [await createUser(), await createUser()];
    for (const email of [other.email!, other.email!.toUpperCase()]) {
      const since = await latestEventId();
      expectError(await updateUser(user.id, { email, name: 'Should Not Stick' }), 409, 'NameExistsError');
      expect(await eventsSince(since)).toEqual([]);
    }
    expect(await getUser(user.id)).toEqual(user);
  });

  it('answers 404 for an unknown user and records nothing', async () => {
    const since = await latestEventId();
    expectError(await updateUser(999_999, { name: 'Nobody' }), 404, 'NotFoundError');
    expect(await eventsSince(since)).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['a project role', { rootRole: OWNER }],
    ['an unknown role', { rootRole: 'Overlord' }],
    ['an unknown field', { name: 'x', surelyNotAField: 1 }],
    ['a username (not changeable)', { username: 'new-username' }],
    ['a password (set through change-password)', { password: NEW_PASSWORD }],
    ['an email without @', { email: 'nope' }],
    ['a numeric name', { name: 7 }],
  ])('answers 400 for %s and changes nothing', async (_case, body) => {
    const user = await createUser();
    const since = await latestEventId();
    expectError(await updateUser(user.id, body as object), 400, 'ValidationError');
    expect(await eventsSince(since)).toEqual([]);
    expect(await getUser(user.id)).toEqual(user);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const user = await createUser();
    expectError(await updateUser(user.id, 'name=x', 'application/x-www-form-urlencoded'), 415, 'ContentTypeerror');
    expect(await getUser(user.id)).toEqual(user);
  });

  it("gives a logged-in user the new root role's permissions at once", async () => {
    const user = await userWithSession(app, 'Viewer');
    expectError(await createFlagAs(user), 403, 'NoAccessError');
    expect((await updateUser(user.id, { rootRole: 'Editor' })).status).toBe(200);
    expect((await createFlagAs(user)).status).toBe(201);
    expect((await updateUser(user.id, { rootRole: VIEWER })).status).toBe(200);
    expectError(await createFlagAs(user), 403, 'NoAccessError');
  });
});

describe('deleting a user', () => {
  it('answers 200, records user-deleted, and the user is gone', async () => {
    const user = await createUser();
    const since = await latestEventId();
    const response = await call(app, 'DELETE', `/api/admin/user-admin/${user.id}`);
    expect(response.status, response.text).toBe(200);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([['user-deleted', 'admin', -42]]);
    expect(events[0]!.preData).toEqual({ id: user.id, name: user.name, username: user.username, email: user.email, rootRole: VIEWER });
    expect(events[0]!.data).toBeNull();
    expectError(await call(app, 'GET', `/api/admin/user-admin/${user.id}`), 404, 'NotFoundError');
    expect((await listUsers()).users.map((u) => u.id)).not.toContain(user.id);
    expectError(await call(app, 'DELETE', `/api/admin/user-admin/${user.id}`), 404, 'NotFoundError');
  });

  it("ends the user's sessions and personal access tokens, and the password no longer logs in", async () => {
    const user = await userWithSession(app, 'Editor');
    const pat = await personalToken(user);
    expect((await currentUser({ token: pat })).status).toBe(200);
    expect((await call(app, 'DELETE', `/api/admin/user-admin/${user.id}`)).status).toBe(200);
    expectError(await currentUser(as(user)), 401, 'AuthenticationRequired');
    expectError(await createFlagAs(user), 401, 'AuthenticationRequired');
    expectError(await currentUser({ token: pat }), 401, 'AuthenticationRequired');
    expectError(await login(user.email, USER_PASSWORD), 401, 'AuthenticationRequired');
  });

  it('deletes a user who created flags and belongs to a project and a group', async () => {
    const user = await userWithSession(app, 'Editor');
    expect((await createFlagAs(user)).status).toBe(201);
    expect((await call(app, 'PUT', `/api/admin/projects/default/users/${user.id}/roles`, { body: { roles: [MEMBER] } })).status).toBe(200);
    const group = await call(app, 'POST', '/api/admin/groups', { body: { name: unique('Crew'), users: [{ user: { id: user.id } }] } });
    expect(group.status, group.text).toBe(201);
    const response = await call(app, 'DELETE', `/api/admin/user-admin/${user.id}`);
    expect(response.status, response.text).toBe(200);
    expectError(await call(app, 'GET', `/api/admin/user-admin/${user.id}`), 404, 'NotFoundError');
  });

  it('frees the email and username for a new user', async () => {
    const user = await createUser();
    expect((await call(app, 'DELETE', `/api/admin/user-admin/${user.id}`)).status).toBe(200);
    const again = await postUser(newcomer({ email: user.email, username: user.username }));
    expect(again.status, again.text).toBe(201);
    expect(again.json.id).not.toBe(user.id);
  });

  it('answers 404 for an unknown user and 400 for an id that is not one, recording nothing', async () => {
    const since = await latestEventId();
    expectError(await call(app, 'DELETE', '/api/admin/user-admin/999999'), 404, 'NotFoundError');
    expectError(await call(app, 'DELETE', '/api/admin/user-admin/abc'), 400, 'ValidationError');
    expect(await eventsSince(since)).toEqual([]);
  });
});

describe("an admin setting a user's password", () => {
  it('answers 200; the new password logs in, the old one does not, and the open session ends', async () => {
    const user = await userWithSession(app, 'Editor');
    expect((await currentUser(as(user))).status).toBe(200);
    const response = await setPassword(user.id, { password: NEW_PASSWORD });
    expect(response.status, response.text).toBe(200);
    expectError(await login(user.email, USER_PASSWORD), 401, 'AuthenticationRequired');
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    expectError(await currentUser(as(user)), 401, 'AuthenticationRequired');
    expectError(await createFlagAs(user), 401, 'AuthenticationRequired');
    const fresh = await sessionOf(app, user.email, NEW_PASSWORD);
    expect((await currentUser({ token: null, headers: { cookie: fresh } })).status).toBe(200);
  });

  it('keeps the new password out of the answers, the events and the logs', async () => {
    const user = await createUser();
    const password = 'Secret-Walrus-5150';
    expect((await setPassword(user.id, { password })).status).toBe(200);
    for (const text of [(await call(app, 'GET', '/api/admin/events')).text, (await call(app, 'GET', `/api/admin/user-admin/${user.id}`)).text, ...app.logs]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain('scrypt$');
    }
  });

  it.each([
    ['shorter than 10 characters', 'Sh0rt-pw!'],
    ['empty', ''],
    ['common', 'password123'],
    ['common digits', '1234567890'],
    ['fewer than 4 different characters', 'aaaaabbbbbccccc'],
  ])('answers 400 for a password %s, and the old password and session still work', async (_case, password) => {
    const user = await userWithSession(app, 'Viewer');
    expect(expectError(await setPassword(user.id, { password }), 400, 'ValidationError').message).toMatch(/password/);
    expect((await currentUser(as(user))).status).toBe(200);
    expect((await login(user.email, USER_PASSWORD)).status).toBe(200);
  });

  it.each<[string, unknown]>([
    ['a missing password', {}],
    ['a numeric password', { password: 1234567890123 }],
    ['an unknown field', { password: NEW_PASSWORD, oldPassword: USER_PASSWORD }],
  ])('answers 400 for %s', async (_case, body) => {
    const user = await createUser();
    expectError(await setPassword(user.id, body as object), 400, 'ValidationError');
    expect((await login(user.email!, USER_PASSWORD)).status).toBe(200);
  });

  it('answers 404 for an unknown user and 415 for a body that is not JSON', async () => {
    expectError(await setPassword(999_999, { password: NEW_PASSWORD }), 404, 'NotFoundError');
    const user = await createUser();
    expectError(await setPassword(user.id, `password=${NEW_PASSWORD}`, 'application/x-www-form-urlencoded'), 415, 'ContentTypeerror');
    expect((await login(user.email!, USER_PASSWORD)).status).toBe(200);
  });
});

describe('the current user (GET /api/admin/user)', () => {
  it('answers a session caller with the user and no permissions for a Viewer', async () => {
    const user = await userWithSession(app, 'Viewer');
    const response = await currentUser(as(user));
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ user: await getUser(user.id), permissions: [] });
  });

  it("lists an Editor's root permissions everywhere and flag permissions in the default project, per environment", async () => {
    const user = await userWithSession(app, 'Editor');
    const { user: me, permissions } = (await currentUser(as(user))).json as CurrentUser;
    expect(me).toEqual(await getUser(user.id));
    expect(permissions).toContainEqual({ permission: 'CREATE_PROJECT' });
    expect(permissions).toContainEqual({ permission: 'CREATE_FEATURE', project: 'default' });
    expect(permissions).not.toContainEqual({ permission: 'CREATE_FEATURE' });
    expect(permissions).toContainEqual({ permission: 'UPDATE_FEATURE_ENVIRONMENT', project: 'default', environment: 'development' });
    expect(permissions).toContainEqual({ permission: 'UPDATE_FEATURE_ENVIRONMENT', project: 'default', environment: 'production' });
    expect(permissions.map((p) => p.permission)).not.toContain('ADMIN');
  });

  it('answers ADMIN for an Admin, and project permissions with their project', async () => {
    const admin = await userWithSession(app, 'Admin');
    expect((await currentUser(as(admin))).json.permissions).toEqual([{ permission: 'ADMIN' }]);

    const member = await userWithSession(app, 'Viewer');
    const project = unique('mine');
    expect((await call(app, 'POST', '/api/admin/projects', { body: { id: project, name: project } })).status).toBe(201);
    expect((await call(app, 'PUT', `/api/admin/projects/${project}/users/${member.id}/roles`, { body: { roles: [MEMBER] } })).status).toBe(200);
    const { permissions } = (await currentUser(as(member))).json as CurrentUser;
    expect(permissions).toContainEqual({ permission: 'CREATE_FEATURE', project });
    expect(permissions).toContainEqual({ permission: 'UPDATE_FEATURE_ENVIRONMENT', project, environment: 'development' });
    expect(permissions.every((p) => p.project === project)).toBe(true);
  });

  it('follows a change of root role', async () => {
    const user = await userWithSession(app, 'Viewer');
    expect((await updateUser(user.id, { rootRole: 'Admin' })).status).toBe(200);
    const me = (await currentUser(as(user))).json as CurrentUser;
    expect(me).toEqual({ user: await getUser(user.id), permissions: [{ permission: 'ADMIN' }] });
    expect(me.user.rootRole).toBe(ADMIN);
  });

  it('answers a personal access token with the user who owns it', async () => {
    const user = await userWithSession(app, 'Editor');
    const pat = await personalToken(user);
    const byToken = await currentUser({ token: pat });
    expect(byToken.status, byToken.text).toBe(200);
    expect(byToken.json).toEqual((await currentUser(as(user))).json);
  });

  it('answers 400 to an admin API token, which is no user', async () => {
    const error = expectError(await currentUser({}), 400, 'ValidationError');
    expect(error.message).toMatch(/log in|personal access token/);
  });

  it('answers 403 to a client token and 401 without a credential or after logout', async () => {
    expectError(await currentUser({ token: clientToken }), 403, 'NoAccessError');
    expectError(await currentUser({ token: null }), 401, 'AuthenticationRequired');
    const user = await userWithSession(app, 'Viewer');
    expect((await call(app, 'POST', '/logout', as(user))).status).toBe(200);
    expectError(await currentUser(as(user)), 401, 'AuthenticationRequired');
  });
});

describe("changing one's own password (POST /api/admin/user/change-password)", () => {
  const changeOwn = (options: { token?: string | null; headers?: Record<string, string> }, body: object | string, contentType?: string) =>
    call(app, 'POST', '/api/admin/user/change-password', { ...options, body, ...(contentType && { contentType }) });

  it('answers 200; the new password logs in, the old one does not, and other sessions end', async () => {
    const user = await userWithSession(app, 'Viewer');
    const otherSession = await sessionOf(app, user.email);
    const response = await changeOwn(as(user), { password: NEW_PASSWORD });
    expect(response.status, response.text).toBe(200);
    expectError(await login(user.email, USER_PASSWORD), 401, 'AuthenticationRequired');
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    expectError(await currentUser({ token: null, headers: { cookie: otherSession } }), 401, 'AuthenticationRequired');
  });

  it('keeps the session that changed the password', async () => {
    const user = await userWithSession(app, 'Viewer');
    expect((await changeOwn(as(user), { password: NEW_PASSWORD })).status).toBe(200);
    const after = await currentUser(as(user));
    expect(after.status, after.text).toBe(200);
    expect(after.json.user.id).toBe(user.id);
  });

  it('works with a personal access token, which keeps working', async () => {
    const user = await userWithSession(app, 'Viewer');
    const pat = await personalToken(user);
    expect((await changeOwn({ token: pat }, { password: NEW_PASSWORD })).status).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    expect((await currentUser({ token: pat })).status).toBe(200);
  });

  it.each([
    ['shorter than 10 characters', 'Sh0rt-pw!'],
    ['common', 'password123'],
    ['common digits', '1234567890'],
  ])('answers 400 for a password %s and keeps the old one', async (_case, password) => {
    const user = await userWithSession(app, 'Viewer');
    expect(expectError(await changeOwn(as(user), { password }), 400, 'ValidationError').message).toMatch(/password/);
    expect((await login(user.email, USER_PASSWORD)).status).toBe(200);
    expect((await currentUser(as(user))).status).toBe(200);
  });

  it('answers 200 to the body Unleash sends, the current password and the new one typed twice', async () => {
    const user = await userWithSession(app, 'Viewer');
    const response = await changeOwn(as(user), { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, oldPassword: USER_PASSWORD });
    expect(response.status, response.text).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('answers 400 naming oldPassword when it is not the current password, and keeps the old one', async () => {
    const user = await userWithSession(app, 'Viewer');
    const error = expectError(await changeOwn(as(user), { password: NEW_PASSWORD, oldPassword: `${USER_PASSWORD}-not` }), 400, 'ValidationError');
    expect(error.message).toMatch(/^oldPassword/);
    expect((await login(user.email, USER_PASSWORD)).status).toBe(200);
    expect((await currentUser(as(user))).status).toBe(200);
  });

  it('answers 400 naming confirmPassword when it differs from password, and keeps the old one', async () => {
    const user = await userWithSession(app, 'Viewer');
    const error = expectError(await changeOwn(as(user), { password: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!`, oldPassword: USER_PASSWORD }), 400, 'ValidationError');
    expect(error.message).toMatch(/^confirmPassword/);
    expect((await login(user.email, USER_PASSWORD)).status).toBe(200);
  });

  it('answers 400 for a body that breaks the contract and 415 for one that is not JSON', async () => {
    const user = await userWithSession(app, 'Viewer');
    expectError(await changeOwn(as(user), {}), 400, 'ValidationError');
    expectError(await changeOwn(as(user), { password: NEW_PASSWORD, userId: 1 }), 400, 'ValidationError');
    expectError(await changeOwn(as(user), `password=${NEW_PASSWORD}`, 'application/x-www-form-urlencoded'), 415, 'ContentTypeerror');
    expect((await login(user.email, USER_PASSWORD)).status).toBe(200);
  });

  it('answers 400 to an admin API token, 403 to a client token and 401 without a credential', async () => {
    expectError(await changeOwn({}, { password: NEW_PASSWORD }), 400, 'ValidationError');
    expectError(await changeOwn({ token: clientToken }, { password: NEW_PASSWORD }), 403, 'NoAccessError');
    expectError(await changeOwn({ token: null }, { password: NEW_PASSWORD }), 401, 'AuthenticationRequired');
  });
});

describe('user administration needs the ADMIN permission', () => {
  let target: User;
  beforeAll(async () => {
    target = await createUser();
  });

  const withoutLogins = ({ seenAt: _, loginAttempts: __, ...user }: User) => user;

  const operations: [string, string, (id: number) => object | undefined][] = [
    ['GET', '/api/admin/user-admin', () => undefined],
    ['POST', '/api/admin/user-admin', () => newcomer()],
    ['GET', '/api/admin/user-admin/{id}', () => undefined],
    ['PUT', '/api/admin/user-admin/{id}', () => ({ rootRole: 'Admin' })],
    ['DELETE', '/api/admin/user-admin/{id}', () => undefined],
    ['POST', '/api/admin/user-admin/{id}/change-password', () => ({ password: NEW_PASSWORD })],
  ];

  describe.each(['Viewer', 'Editor'])('a %s session', (rootRole) => {
    let user: TestUser;
    beforeAll(async () => {
      user = await userWithSession(app, rootRole);
    });

    it.each(operations)('gets 403 naming ADMIN on %s %s, and nothing changes', async (method, path, body) => {
      const since = await latestEventId();
      const response = await call(app, method, path.replace('{id}', String(target.id)), { ...as(user), body: body(target.id) });
      expect(expectError(response, 403, 'NoAccessError').message).toContain('ADMIN');
      expect(await eventsSince(since)).toEqual([]);
      expect(withoutLogins(await getUser(target.id))).toEqual(withoutLogins(target));
      expect((await login(target.email!, USER_PASSWORD)).status).toBe(200);
    });

    it('gets 403 before the body is looked at', async () => {
      expectError(await postUser('email=x', { ...as(user), contentType: 'text/plain' }), 403, 'NoAccessError');
      expectError(await postUser({ surelyNotAField: 1 }, as(user)), 403, 'NoAccessError');
    });

    it('cannot make itself an Admin', async () => {
      expectError(await call(app, 'PUT', `/api/admin/user-admin/${user.id}`, { ...as(user), body: { rootRole: 'Admin' } }), 403, 'NoAccessError');
      expect((await getUser(user.id)).rootRole).not.toBe(ADMIN);
    });
  });

  it.each(operations)('answers 403 to a client token and 401 without a credential on %s %s', async (method, path, body) => {
    const target = await createUser();
    const url = path.replace('{id}', String(target.id));
    expectError(await call(app, method, url, { token: clientToken, body: body(target.id) }), 403, 'NoAccessError');
    expectError(await call(app, method, url, { token: null, body: body(target.id) }), 401, 'AuthenticationRequired');
    expect(await getUser(target.id)).toEqual(target);
  });

  it('lets an Admin session manage users; the events name the admin user', async () => {
    const admin = await userWithSession(app, 'Admin');
    const since = await latestEventId();
    const created = await postUser(newcomer(), as(admin));
    expect(created.status, created.text).toBe(201);
    expect((await call(app, 'PUT', `/api/admin/user-admin/${created.json.id}`, { ...as(admin), body: { rootRole: 'Editor' } })).status).toBe(200);
    expect((await call(app, 'DELETE', `/api/admin/user-admin/${created.json.id}`, as(admin))).status).toBe(200);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([
      ['user-created', admin.email, admin.id],
      ['user-updated', admin.email, admin.id],
      ['user-deleted', admin.email, admin.id],
    ]);
  });

  it('names an admin token of another name as createdBy', async () => {
    const created = await call(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: 'people-ops', type: 'admin' } });
    expect(created.status, created.text).toBe(201);
    const since = await latestEventId();
    expect((await postUser(newcomer(), { token: created.json.secret })).status).toBe(201);
    expect((await eventsSince(since)).map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([['user-created', 'people-ops', -42]]);
  });
});
