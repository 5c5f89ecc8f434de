import { createHash } from 'node:crypto';
import type { components, ServiceClient } from '../client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures, idParams, newApiToken } from './support/fixtures.js';
import { as, clientAs, login, newcomer, sessionOf, setProjectRoles, USER_PASSWORD, userWithSession, type TestUser } from './support/users.js';

type User = components['schemas']['User'];
type CreateUser = components['schemas']['CreateUser'];
type UpdateUser = components['schemas']['UpdateUser'];
type ChangeOwnPassword = components['schemas']['ChangeOwnPassword'];

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
const { newFlagAs } = fixtures(() => app, unique);

beforeAll(async () => {
  app = await startTestApp();
  clientToken = await newApiToken(app, { type: 'client' });
});

/** A create-user body (a Viewer unless `fields` say otherwise) whose name, email and username no other test uses. */
const person = (fields: Partial<CreateUser> = {}) => newcomer(unique, { rootRole: 'Viewer', ...fields });

/** Creates a user, as the admin token unless another client is given. */
const postUser = (body: CreateUser, client: ServiceClient = app.admin) => client.POST('/api/admin/user-admin', { body });
/** For bodies the types forbid: wrong types, unknown fields, not JSON. */
const postUserRaw = (body: unknown, options: { contentType?: string; token?: string | null; headers?: Record<string, string> } = {}) =>
  call(app, 'POST', '/api/admin/user-admin', { body: body as object, ...options });

async function createUser(fields: Partial<CreateUser> = {}): Promise<User> {
  const { data, error, response } = await postUser(person(fields));
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!;
}


async function getUser(id: number): Promise<User> {
  const { data, error, response } = await app.admin.GET('/api/admin/user-admin/{id}', idParams(id));
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!;
}

async function listUsers() {
  const { data, error, response } = await app.admin.GET('/api/admin/user-admin');
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!;
}

const updateUser = (id: number, body: UpdateUser, client: ServiceClient = app.admin) => client.PUT('/api/admin/user-admin/{id}', { ...idParams(id), body });
const deleteUser = (id: number, client: ServiceClient = app.admin) => client.DELETE('/api/admin/user-admin/{id}', idParams(id));
const setPassword = (id: number, password: string) => app.admin.POST('/api/admin/user-admin/{id}/change-password', { ...idParams(id), body: { password } });
/** For bodies the types forbid. */
const updateUserRaw = (id: number, body: unknown, contentType?: string) =>
  call(app, 'PUT', `/api/admin/user-admin/${id}`, { body: body as object, ...(contentType && { contentType }) });
const setPasswordRaw = (id: number, body: unknown, contentType?: string) =>
  call(app, 'POST', `/api/admin/user-admin/${id}/change-password`, { body: body as object, ...(contentType && { contentType }) });
/** The caller GET /api/admin/user answers for: a user's session, a token, or nobody (`clientWith()`). */
const currentUser = (client: ServiceClient) => client.GET('/api/admin/user');

const gravatarOf = (identity: string) =>
  `https://gravatar.com/avatar/${createHash('sha256').update(identity.trim().toLowerCase()).digest('hex')}?s=42&d=retro&r=g`;

/** Asserts the error, and that the request created no user and recorded no event. */
async function expectRefused(send: () => Promise<Parameters<typeof expectError>[0]>, status: number, name: string) {
  const usersBefore = (await listUsers()).users;
  const since = await latestEventId();
  const error = expectError(await send(), status, name);
  expect(await eventsSince(since)).toEqual([]);
  expect((await listUsers()).users).toEqual(usersBefore);
  return error;
}

async function personalToken(user: TestUser): Promise<string> {
  const { data, error, response } = await clientAs(app, user).POST('/api/admin/user/tokens', { body: { description: unique('pat'), expiresAt: FAR_FUTURE } });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!.secret;
}

describe('creating a user', () => {
  it('answers 201 with the user in the contract shape and its location, and records user-created by the admin token', async () => {
    const body = person({ rootRole: 'Editor' });
    const since = await latestEventId();
    const { data: user, error, response } = await postUser(body);
    expect(response.status, JSON.stringify(error)).toBe(201);
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
    expect(Object.keys(user!).sort()).toEqual([...USER_FIELDS].sort());
    expect(Math.abs(Date.parse(user!.createdAt) - Date.now())).toBeLessThan(60_000);
    expect(response.headers.get('location')).toBe(`/api/admin/user-admin/${user!.id}`);
    expect(await getUser(user!.id)).toEqual(user);

    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([['user-created', 'admin', -42]]);
    expect(events[0]!.data).toEqual({ id: user!.id, name: body.name, username: body.username, email: body.email, rootRole: EDITOR });
    expect(events[0]!.preData).toBeNull();
  });

  it('never shows the password or its hash in the answer, the user, the list, the events or the logs', async () => {
    const password = 'Unguessable-Heron-4711';
    const { data, error, response } = await postUser(person({ password }));
    expect(response.status, JSON.stringify(error)).toBe(201);
    const texts = [
      JSON.stringify(data),
      JSON.stringify(await getUser(data!.id)),
      JSON.stringify(await listUsers()),
      JSON.stringify((await app.admin.GET('/api/admin/events')).data),
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
    const role = await app.admin.POST('/api/admin/roles', {
      body: { name, description: 'Keeps segments', type: 'root-custom', permissions: [{ name: 'CREATE_SEGMENT' }] },
    });
    expect(role.response.status, JSON.stringify(role.error)).toBe(201);
    expect((await createUser({ rootRole: name })).rootRole).toBe(role.data!.id);
    expect((await createUser({ rootRole: role.data!.id })).rootRole).toBe(role.data!.id);
  });

  it('creates a user with only a username: no email, an avatar of the username', async () => {
    const { email: _, ...body } = person();
    const { data, error, response } = await postUser(body);
    expect(response.status, JSON.stringify(error)).toBe(201);
    expect(data).toMatchObject({ username: body.username, imageUrl: gravatarOf(body.username) });
    // The interface types email as a plain string: a user without one has no email key, never null.
    expect(data).not.toHaveProperty('email');
    expect((await login(app, body.username)).response.status).toBe(200);
  });

  it('creates a user with only an email and no name: username and name are null', async () => {
    const { username: _, name: __, ...body } = person();
    const { data, error, response } = await postUser(body);
    expect(response.status, JSON.stringify(error)).toBe(201);
    expect(data).toMatchObject({ email: body.email, username: null, name: null });
    expect((await login(app, body.email)).response.status).toBe(200);
  });

  it('creates a user without a password, who cannot log in until one is set', async () => {
    const { password: _, ...body } = person();
    const { data, error, response } = await postUser(body);
    expect(response.status, JSON.stringify(error)).toBe(201);
    expectError(await login(app, body.email), 401, 'AuthenticationRequired');
    expect((await setPassword(data!.id, NEW_PASSWORD)).response.status).toBe(200);
    expect((await login(app, body.email, NEW_PASSWORD)).response.status).toBe(200);
  });

  it('accepts sendEmail and still reports emailSent false', async () => {
    expect((await createUser({ sendEmail: true })).emailSent).toBe(false);
  });

  it('answers one of two simultaneous creations of the same email with 409', async () => {
    const body = person();
    const answers = await Promise.all([postUser(body), postUser({ ...body, username: unique('twin') })]);
    expect(answers.map((a) => a.response.status).sort()).toEqual([201, 409]);
    expectError(answers.find((a) => a.response.status === 409)!, 409, 'NameExistsError');
    expect((await listUsers()).users.filter((u) => u.email === body.email)).toHaveLength(1);
  });
});

describe('refusing to create a user: nobody is created and no event recorded', () => {
  it('answers 400 when the body has neither email nor username', async () => {
    const { email: _, username: __, ...body } = person();
    const error = await expectRefused(() => postUser(body), 400, 'ValidationError');
    expect(error.message).toMatch(/email/);
    expect(error.message).toMatch(/username/);
  });

  it.each<[string, CreateUser['rootRole']]>([
    ['an unknown role name', 'Overlord'],
    ['an unknown role id', 999_999],
    ['the project role Owner by id', OWNER],
    ['the project role Owner by name', 'Owner'],
    ['the project role Member by id', MEMBER],
  ])('answers 400 naming rootRole for %s', async (_case, rootRole) => {
    const error = await expectRefused(() => postUser(person({ rootRole })), 400, 'ValidationError');
    expect(error.message).toContain('rootRole');
  });

  it('answers 400 for a project role made by an admin', async () => {
    const role = await app.admin.POST('/api/admin/roles', {
      body: { name: unique('flag tender'), description: 'Tends flags', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE' }] },
    });
    expect(role.response.status, JSON.stringify(role.error)).toBe(201);
    await expectRefused(() => postUser(person({ rootRole: role.data!.id })), 400, 'ValidationError');
    await expectRefused(() => postUser(person({ rootRole: role.data!.name })), 400, 'ValidationError');
  });

  describe('answers 409 NameExistsError for an identity already in use', () => {
    let taken: ReturnType<typeof person>;
    beforeAll(async () => {
      taken = person();
      expect((await postUser(taken)).response.status).toBe(201);
    });

    it.each<[string, (taken: ReturnType<typeof person>) => Partial<CreateUser>]>([
      ['the same email', (t) => ({ email: t.email })],
      ['the same email in other case', (t) => ({ email: t.email.toUpperCase() })],
      ['the same username', (t) => ({ username: t.username })],
      ['the same username in other case', (t) => ({ username: t.username.toUpperCase() })],
      ['the same username and no email', (t) => ({ username: t.username, email: undefined })],
    ])('%s', async (_case, clash) => {
      const error = await expectRefused(() => postUser(person(clash(taken))), 409, 'NameExistsError');
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
    const body = person({ password });
    const error = await expectRefused(() => postUser(body), 400, 'ValidationError');
    expect(error.message).toMatch(/password/);
    expect((await postUser({ ...body, password: USER_PASSWORD })).response.status).toBe(201);
  });

  it.each<[string, (body: ReturnType<typeof person>) => unknown]>([
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
    await expectRefused(() => postUserRaw(shape(person())), 400, 'ValidationError');
  });

  it('answers 400 for malformed JSON', async () => {
    await expectRefused(() => postUserRaw('{"email": "x@example.com",'), 400, 'ValidationError');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const body = person();
    await expectRefused(() => postUserRaw(`email=${body.email}&rootRole=Viewer`, { contentType: 'application/x-www-form-urlencoded' }), 415, 'ContentTypeerror');
    await expectRefused(() => postUserRaw(JSON.stringify(body), { contentType: 'text/plain' }), 415, 'ContentTypeerror');
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
    expect(expectError(await app.admin.GET('/api/admin/user-admin/{id}', idParams(999999)), 404, 'NotFoundError').message).toContain('999999');
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('answers 400 for the id %s', async (id) => {
    expectError(await call(app, 'GET', `/api/admin/user-admin/${id}`), 400, 'ValidationError');
  });

  it('shows failed logins in loginAttempts, and a successful login resets them and sets seenAt', async () => {
    const user = await createUser();
    expect((await login(app, user.email!, 'Wrong-Password-1')).response.status).toBe(401);
    expect((await login(app, user.email!, 'Wrong-Password-2')).response.status).toBe(401);
    expect(await getUser(user.id)).toEqual({ ...user, loginAttempts: 2 });
    const loggedIn = await login(app, user.email!);
    expect(loggedIn.response.status, JSON.stringify(loggedIn.error)).toBe(200);
    const seen = await getUser(user.id);
    expect(seen).toEqual({ ...user, loginAttempts: 0, seenAt: expect.any(String) });
    expect(Date.parse(seen.seenAt!)).toBeGreaterThanOrEqual(Date.parse(user.createdAt));
    expect(loggedIn.data).toEqual(seen);
  });
});

describe('searching for people (GET /api/admin/user-admin/search)', () => {
  const search = (q: string, client: ServiceClient = app.admin) => client.GET('/api/admin/user-admin/search', { params: { query: { q } } });

  it('finds users by part of their name, username or email, ignoring case, with only what identifies them', async () => {
    const byName = await createUser({ name: 'Quentin Zebrafish' });
    const byEmail = await createUser({ email: `${unique('qz')}@zebrafish.example` });
    const byUsername = await createUser({ username: unique('ZEBRAFISH-fan') });
    const { data: found, error, response } = await search('zebraFISH');
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(found!.map((u) => u.id).sort()).toEqual([byName.id, byEmail.id, byUsername.id].sort());
    expect(found!.find((u) => u.id === byName.id)).toEqual({ id: byName.id, name: byName.name, username: byName.username, email: byName.email, imageUrl: byName.imageUrl });
  });

  it('orders by name and answers at most 100', async () => {
    // Written directly: 102 users through the API would hash 102 passwords.
    await app.db.insert(t.users).values(Array.from({ length: 102 }, (_, i) => ({ name: `Crowd ${String(101 - i).padStart(3, '0')}`, username: unique('crowd'), rootRoleId: VIEWER })));
    const found = (await search('crowd ')).data!;
    expect(found).toHaveLength(100);
    expect(found.map((u) => u.name)).toEqual(Array.from({ length: 100 }, (_, i) => `Crowd ${String(i).padStart(3, '0')}`));
  });

  it('takes %, _ and \\ as themselves, not as patterns', async () => {
    const percent = await createUser({ name: 'Hundred % sure' });
    await createUser({ name: 'Hundred x sure' });
    expect((await search('d % s')).data!.map((u) => u.id)).toEqual([percent.id]);
    expect((await search('_')).data).toEqual([]);
    expect((await search('\\')).data).toEqual([]);
  });

  it('answers an empty list when nobody matches', async () => {
    expect((await search('nobody-has-this-in-their-name')).data).toEqual([]);
  });

  it('is open to a Viewer, so that project owners can choose members', async () => {
    const target = await createUser({ name: 'Findable Fiona' });
    const viewer = await userWithSession(app, 'Viewer');
    const { data, error, response } = await search('findable fiona', clientAs(app, viewer));
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data!.map((u) => u.id)).toEqual([target.id]);
  });

  it('refuses a missing or empty q with 400, and a call without a credential with 401', async () => {
    expectError(await call(app, 'GET', '/api/admin/user-admin/search'), 400, 'ValidationError');
    expectError(await search(''), 400, 'ValidationError');
    expectError(await search('x'.repeat(101)), 400, 'ValidationError');
    expectError(await search('fiona', app.clientWith()), 401, 'AuthenticationRequired');
  });
});

describe('updating a user', () => {
  it('changes name, email and root role: 200 with the user, and user-updated with data and preData', async () => {
    const user = await createUser();
    const email = `${unique('renamed')}@example.com`;
    const since = await latestEventId();
    const { data, error, response } = await updateUser(user.id, { name: 'Renamed Person', email, rootRole: 'Editor' });
    expect(response.status, JSON.stringify(error)).toBe(200);
    const updated = { ...user, name: 'Renamed Person', email, rootRole: EDITOR, imageUrl: gravatarOf(email) };
    expect(data).toEqual(updated);
    expect(await getUser(user.id)).toEqual(updated);

    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([['user-updated', 'admin', -42]]);
    expect(events[0]!.data).toEqual({ id: user.id, name: 'Renamed Person', username: user.username, email, rootRole: EDITOR });
    expect(events[0]!.preData).toEqual({ id: user.id, name: user.name, username: user.username, email: user.email, rootRole: VIEWER });
    expect((await login(app, email)).response.status).toBe(200);
    expect((await login(app, user.email!)).response.status).toBe(401);
  });

  it('changes only the fields sent', async () => {
    const user = await createUser({ rootRole: 'Editor' });
    const renamed = await updateUser(user.id, { name: 'Only The Name' });
    expect(renamed.data).toEqual({ ...user, name: 'Only The Name' });
    const promoted = await updateUser(user.id, { rootRole: ADMIN });
    expect(promoted.data).toEqual({ ...user, name: 'Only The Name', rootRole: ADMIN });
    const unnamed = await updateUser(user.id, { name: null });
    expect(unnamed.data).toEqual({ ...user, name: null, rootRole: ADMIN });
  });

  it('records no event for an update that changes nothing', async () => {
    const user = await createUser();
    const since = await latestEventId();
    const { data, error, response } = await updateUser(user.id, { name: user.name, email: user.email, rootRole: 'Viewer' });
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data).toEqual(user);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('answers 200 with the user unchanged, and no event, for an empty body', async () => {
    const user = await createUser();
    const since = await latestEventId();
    const { data, error, response } = await updateUser(user.id, {});
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data).toEqual(user);
    expect(await eventsSince(since)).toEqual([]);
  });

  it("lets a user's email change case", async () => {
    const user = await createUser();
    const { data, error, response } = await updateUser(user.id, { email: user.email!.toUpperCase() });
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data!.email).toBe(user.email!.toUpperCase());
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
    expectError(await updateUserRaw(user.id, body), 400, 'ValidationError');
    expect(await eventsSince(since)).toEqual([]);
    expect(await getUser(user.id)).toEqual(user);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const user = await createUser();
    expectError(await updateUserRaw(user.id, 'name=x', 'application/x-www-form-urlencoded'), 415, 'ContentTypeerror');
    expect(await getUser(user.id)).toEqual(user);
  });

  it("gives a logged-in user the new root role's permissions at once", async () => {
    const user = await userWithSession(app, 'Viewer');
    expectError(await newFlagAs(user), 403, 'NoAccessError');
    expect((await updateUser(user.id, { rootRole: 'Editor' })).response.status).toBe(200);
    expect((await newFlagAs(user)).response.status).toBe(201);
    expect((await updateUser(user.id, { rootRole: VIEWER })).response.status).toBe(200);
    expectError(await newFlagAs(user), 403, 'NoAccessError');
  });
});

describe('deleting a user', () => {
  it('answers 200, records user-deleted, and the user is gone', async () => {
    const user = await createUser();
    const since = await latestEventId();
    const deleted = await deleteUser(user.id);
    expect(deleted.response.status, JSON.stringify(deleted.error)).toBe(200);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([['user-deleted', 'admin', -42]]);
    expect(events[0]!.preData).toEqual({ id: user.id, name: user.name, username: user.username, email: user.email, rootRole: VIEWER });
    expect(events[0]!.data).toBeNull();
    expectError(await app.admin.GET('/api/admin/user-admin/{id}', idParams(user.id)), 404, 'NotFoundError');
    expect((await listUsers()).users.map((u) => u.id)).not.toContain(user.id);
    expectError(await deleteUser(user.id), 404, 'NotFoundError');
  });

  it("ends the user's sessions and personal access tokens, and the password no longer logs in", async () => {
    const user = await userWithSession(app, 'Editor');
    const pat = await personalToken(user);
    expect((await currentUser(app.clientWith(pat))).response.status).toBe(200);
    expect((await deleteUser(user.id)).response.status).toBe(200);
    expectError(await currentUser(clientAs(app, user)), 401, 'AuthenticationRequired');
    expectError(await newFlagAs(user), 401, 'AuthenticationRequired');
    expectError(await currentUser(app.clientWith(pat)), 401, 'AuthenticationRequired');
    expectError(await login(app, user.email), 401, 'AuthenticationRequired');
  });

  it('deletes a user who created flags and belongs to a project and a group', async () => {
    const user = await userWithSession(app, 'Editor');
    expect((await newFlagAs(user)).response.status).toBe(201);
    expect((await setProjectRoles(app, 'default', user.id, [MEMBER])).response.status).toBe(200);
    const group = await app.admin.POST('/api/admin/groups', { body: { name: unique('Crew'), users: [{ user: { id: user.id } }] } });
    expect(group.response.status, JSON.stringify(group.error)).toBe(201);
    const deleted = await deleteUser(user.id);
    expect(deleted.response.status, JSON.stringify(deleted.error)).toBe(200);
    expectError(await app.admin.GET('/api/admin/user-admin/{id}', idParams(user.id)), 404, 'NotFoundError');
  });

  it('frees the email and username for a new user', async () => {
    const user = await createUser();
    expect((await deleteUser(user.id)).response.status).toBe(200);
    const again = await postUser(person({ email: user.email, username: user.username! }));
    expect(again.response.status, JSON.stringify(again.error)).toBe(201);
    expect(again.data!.id).not.toBe(user.id);
  });

  it('answers 404 for an unknown user and 400 for an id that is not one, recording nothing', async () => {
    const since = await latestEventId();
    expectError(await deleteUser(999999), 404, 'NotFoundError');
    expectError(await call(app, 'DELETE', '/api/admin/user-admin/abc'), 400, 'ValidationError');
    expect(await eventsSince(since)).toEqual([]);
  });
});

describe("an admin setting a user's password", () => {
  it('answers 200; the new password logs in, the old one does not, and the open session ends', async () => {
    const user = await userWithSession(app, 'Editor');
    expect((await currentUser(clientAs(app, user))).response.status).toBe(200);
    const response = await setPassword(user.id, NEW_PASSWORD);
    expect(response.response.status, JSON.stringify(response.error)).toBe(200);
    expectError(await login(app, user.email), 401, 'AuthenticationRequired');
    expect((await login(app, user.email, NEW_PASSWORD)).response.status).toBe(200);
    expectError(await currentUser(clientAs(app, user)), 401, 'AuthenticationRequired');
    expectError(await newFlagAs(user), 401, 'AuthenticationRequired');
    const fresh = await sessionOf(app, user.email, NEW_PASSWORD);
    expect((await currentUser(clientAs(app, { cookie: fresh }))).response.status).toBe(200);
  });

  it('keeps the new password out of the answers, the events and the logs', async () => {
    const user = await createUser();
    const password = 'Secret-Walrus-5150';
    expect((await setPassword(user.id, password)).response.status).toBe(200);
    const events = (await app.admin.GET('/api/admin/events')).data;
    for (const text of [JSON.stringify(events), JSON.stringify(await getUser(user.id)), ...app.logs]) {
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
    expect(expectError(await setPassword(user.id, password), 400, 'ValidationError').message).toMatch(/password/);
    expect((await currentUser(clientAs(app, user))).response.status).toBe(200);
    expect((await login(app, user.email)).response.status).toBe(200);
  });

  it.each<[string, unknown]>([
    ['a missing password', {}],
    ['a numeric password', { password: 1234567890123 }],
    ['an unknown field', { password: NEW_PASSWORD, oldPassword: USER_PASSWORD }],
  ])('answers 400 for %s', async (_case, body) => {
    const user = await createUser();
    expectError(await setPasswordRaw(user.id, body), 400, 'ValidationError');
    expect((await login(app, user.email!)).response.status).toBe(200);
  });

  it('answers 404 for an unknown user and 415 for a body that is not JSON', async () => {
    expectError(await setPassword(999_999, NEW_PASSWORD), 404, 'NotFoundError');
    const user = await createUser();
    expectError(await setPasswordRaw(user.id, `password=${NEW_PASSWORD}`, 'application/x-www-form-urlencoded'), 415, 'ContentTypeerror');
    expect((await login(app, user.email!)).response.status).toBe(200);
  });
});

describe('the current user (GET /api/admin/user)', () => {
  it('answers a session caller with the user and no permissions for a Viewer', async () => {
    const user = await userWithSession(app, 'Viewer');
    const { data, error, response } = await currentUser(clientAs(app, user));
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data).toEqual({ user: await getUser(user.id), permissions: [] });
  });

  it("lists an Editor's root permissions everywhere and flag permissions in the default project, per environment", async () => {
    const user = await userWithSession(app, 'Editor');
    const { user: me, permissions } = (await currentUser(clientAs(app, user))).data!;
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
    expect((await currentUser(clientAs(app, admin))).data!.permissions).toEqual([{ permission: 'ADMIN' }]);

    const member = await userWithSession(app, 'Viewer');
    const project = unique('mine');
    expect((await app.admin.POST('/api/admin/projects', { body: { id: project, name: project } })).response.status).toBe(201);
    expect((await setProjectRoles(app, project, member.id, [MEMBER])).response.status).toBe(200);
    const { permissions } = (await currentUser(clientAs(app, member))).data!;
    expect(permissions).toContainEqual({ permission: 'CREATE_FEATURE', project });
    expect(permissions).toContainEqual({ permission: 'UPDATE_FEATURE_ENVIRONMENT', project, environment: 'development' });
    expect(permissions.every((p) => p.project === project)).toBe(true);
  });

  it('follows a change of root role', async () => {
    const user = await userWithSession(app, 'Viewer');
    expect((await updateUser(user.id, { rootRole: 'Admin' })).response.status).toBe(200);
    const me = (await currentUser(clientAs(app, user))).data!;
    expect(me).toEqual({ user: await getUser(user.id), permissions: [{ permission: 'ADMIN' }] });
    expect(me.user.rootRole).toBe(ADMIN);
  });

  it('answers a personal access token with the user who owns it', async () => {
    const user = await userWithSession(app, 'Editor');
    const pat = await personalToken(user);
    const byToken = await currentUser(app.clientWith(pat));
    expect(byToken.response.status, JSON.stringify(byToken.error)).toBe(200);
    expect(byToken.data).toEqual((await currentUser(clientAs(app, user))).data);
  });

  it('answers 400 to an admin API token, which is no user', async () => {
    const error = expectError(await currentUser(app.admin), 400, 'ValidationError');
    expect(error.message).toMatch(/log in|personal access token/);
  });

  it('answers 403 to a client token and 401 without a credential or after logout', async () => {
    expectError(await currentUser(app.clientWith(clientToken)), 403, 'NoAccessError');
    expectError(await currentUser(app.clientWith()), 401, 'AuthenticationRequired');
    const user = await userWithSession(app, 'Viewer');
    expect((await clientAs(app, user).POST('/logout')).response.status).toBe(200);
    expectError(await currentUser(clientAs(app, user)), 401, 'AuthenticationRequired');
  });
});

describe("changing one's own password (POST /api/admin/user/change-password)", () => {
  const changeOwn = (client: ServiceClient, body: ChangeOwnPassword) => client.POST('/api/admin/user/change-password', { body });
  /** For bodies the types forbid. */
  const changeOwnRaw = (user: TestUser, body: unknown, contentType?: string) =>
    call(app, 'POST', '/api/admin/user/change-password', { ...as(user), body: body as object, ...(contentType && { contentType }) });

  it('answers 200; the new password logs in, the old one does not, and other sessions end', async () => {
    const user = await userWithSession(app, 'Viewer');
    const otherSession = await sessionOf(app, user.email);
    const response = await changeOwn(clientAs(app, user), { password: NEW_PASSWORD });
    expect(response.response.status, JSON.stringify(response.error)).toBe(200);
    expectError(await login(app, user.email), 401, 'AuthenticationRequired');
    expect((await login(app, user.email, NEW_PASSWORD)).response.status).toBe(200);
    expectError(await currentUser(clientAs(app, { cookie: otherSession })), 401, 'AuthenticationRequired');
  });

  it('keeps the session that changed the password', async () => {
    const user = await userWithSession(app, 'Viewer');
    expect((await changeOwn(clientAs(app, user), { password: NEW_PASSWORD })).response.status).toBe(200);
    const after = await currentUser(clientAs(app, user));
    expect(after.response.status, JSON.stringify(after.error)).toBe(200);
    expect(after.data!.user.id).toBe(user.id);
  });

  it('works with a personal access token, which keeps working', async () => {
    const user = await userWithSession(app, 'Viewer');
    const pat = await personalToken(user);
    expect((await changeOwn(app.clientWith(pat), { password: NEW_PASSWORD })).response.status).toBe(200);
    expect((await login(app, user.email, NEW_PASSWORD)).response.status).toBe(200);
    expect((await currentUser(app.clientWith(pat))).response.status).toBe(200);
  });

  it.each([
    ['shorter than 10 characters', 'Sh0rt-pw!'],
    ['common', 'password123'],
    ['common digits', '1234567890'],
  ])('answers 400 for a password %s and keeps the old one', async (_case, password) => {
    const user = await userWithSession(app, 'Viewer');
    expect(expectError(await changeOwn(clientAs(app, user), { password }), 400, 'ValidationError').message).toMatch(/password/);
    expect((await login(app, user.email)).response.status).toBe(200);
    expect((await currentUser(clientAs(app, user))).response.status).toBe(200);
  });

  it('answers 200 to the body Unleash sends, the current password and the new one typed twice', async () => {
    const user = await userWithSession(app, 'Viewer');
    const response = await changeOwn(clientAs(app, user), { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, oldPassword: USER_PASSWORD });
    expect(response.response.status, JSON.stringify(response.error)).toBe(200);
    expect((await login(app, user.email, NEW_PASSWORD)).response.status).toBe(200);
  });

  it('answers 400 naming oldPassword when it is not the current password, and keeps the old one', async () => {
    const user = await userWithSession(app, 'Viewer');
    const error = expectError(await changeOwn(clientAs(app, user), { password: NEW_PASSWORD, oldPassword: `${USER_PASSWORD}-not` }), 400, 'ValidationError');
    expect(error.message).toMatch(/^oldPassword/);
    expect((await login(app, user.email)).response.status).toBe(200);
    expect((await currentUser(clientAs(app, user))).response.status).toBe(200);
  });

  it('answers 400 naming confirmPassword when it differs from password, and keeps the old one', async () => {
    const user = await userWithSession(app, 'Viewer');
    const error = expectError(await changeOwn(clientAs(app, user), { password: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!`, oldPassword: USER_PASSWORD }), 400, 'ValidationError');
    expect(error.message).toMatch(/^confirmPassword/);
    expect((await login(app, user.email)).response.status).toBe(200);
  });

  it('answers 400 for a body that breaks the contract and 415 for one that is not JSON', async () => {
    const user = await userWithSession(app, 'Viewer');
    expectError(await changeOwnRaw(user, {}), 400, 'ValidationError');
    expectError(await changeOwnRaw(user, { password: NEW_PASSWORD, userId: 1 }), 400, 'ValidationError');
    expectError(await changeOwnRaw(user, `password=${NEW_PASSWORD}`, 'application/x-www-form-urlencoded'), 415, 'ContentTypeerror');
    expect((await login(app, user.email)).response.status).toBe(200);
  });

  it('answers 400 to an admin API token, 403 to a client token and 401 without a credential', async () => {
    expectError(await changeOwn(app.admin, { password: NEW_PASSWORD }), 400, 'ValidationError');
    expectError(await changeOwn(app.clientWith(clientToken), { password: NEW_PASSWORD }), 403, 'NoAccessError');
    expectError(await changeOwn(app.clientWith(), { password: NEW_PASSWORD }), 401, 'AuthenticationRequired');
  });
});

describe('user administration needs the ADMIN permission', () => {
  let target: User;
  beforeAll(async () => {
    target = await createUser();
  });

  const withoutLogins = ({ seenAt: _, loginAttempts: __, ...user }: User) => user;

  /** Each user administration operation, sent by `client` about the user `id`. */
  const operations: [string, string, (client: ServiceClient, id: number) => Promise<Parameters<typeof expectError>[0]>][] = [
    ['GET', '/api/admin/user-admin', (client) => client.GET('/api/admin/user-admin')],
    ['POST', '/api/admin/user-admin', (client) => postUser(person(), client)],
    ['GET', '/api/admin/user-admin/{id}', (client, id) => client.GET('/api/admin/user-admin/{id}', idParams(id))],
    ['PUT', '/api/admin/user-admin/{id}', (client, id) => updateUser(id, { rootRole: 'Admin' }, client)],
    ['DELETE', '/api/admin/user-admin/{id}', (client, id) => deleteUser(id, client)],
    ['POST', '/api/admin/user-admin/{id}/change-password', (client, id) => client.POST('/api/admin/user-admin/{id}/change-password', { ...idParams(id), body: { password: NEW_PASSWORD } })],
  ];

  describe.each(['Viewer', 'Editor'])('a %s session', (rootRole) => {
    let user: TestUser;
    beforeAll(async () => {
      user = await userWithSession(app, rootRole);
    });

    it.each(operations)('gets 403 naming ADMIN on %s %s, and nothing changes', async (_method, _path, send) => {
      const since = await latestEventId();
      expect(expectError(await send(clientAs(app, user), target.id), 403, 'NoAccessError').message).toContain('ADMIN');
      expect(await eventsSince(since)).toEqual([]);
      expect(withoutLogins(await getUser(target.id))).toEqual(withoutLogins(target));
      expect((await login(app, target.email!)).response.status).toBe(200);
    });

    it('gets 403 before the body is looked at', async () => {
      expectError(await postUserRaw('email=x', { ...as(user), contentType: 'text/plain' }), 403, 'NoAccessError');
      expectError(await postUserRaw({ surelyNotAField: 1 }, as(user)), 403, 'NoAccessError');
    });

    it('cannot make itself an Admin', async () => {
      expectError(await updateUser(user.id, { rootRole: 'Admin' }, clientAs(app, user)), 403, 'NoAccessError');
      expect((await getUser(user.id)).rootRole).not.toBe(ADMIN);
    });
  });

  it.each(operations)('answers 403 to a client token and 401 without a credential on %s %s', async (_method, _path, send) => {
    const target = await createUser();
    expectError(await send(app.clientWith(clientToken), target.id), 403, 'NoAccessError');
    expectError(await send(app.clientWith(), target.id), 401, 'AuthenticationRequired');
    expect(await getUser(target.id)).toEqual(target);
  });

  it('lets an Admin session manage users; the events name the admin user', async () => {
    const admin = await userWithSession(app, 'Admin');
    const asAdmin = clientAs(app, admin);
    const since = await latestEventId();
    const created = await postUser(person(), asAdmin);
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    expect((await updateUser(created.data!.id, { rootRole: 'Editor' }, asAdmin)).response.status).toBe(200);
    expect((await deleteUser(created.data!.id, asAdmin)).response.status).toBe(200);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([
      ['user-created', admin.email, admin.id],
      ['user-updated', admin.email, admin.id],
      ['user-deleted', admin.email, admin.id],
    ]);
  });

  it('names an admin token of another name as createdBy', async () => {
    const created = await app.admin.POST('/api/admin/api-tokens', { body: { tokenName: 'people-ops', type: 'admin' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const since = await latestEventId();
    expect((await postUser(person(), app.clientWith(created.data!.secret))).response.status).toBe(201);
    expect((await eventsSince(since)).map((e) => [e.type, e.createdBy, e.createdByUserId])).toEqual([['user-created', 'people-ops', -42]]);
  });
});
