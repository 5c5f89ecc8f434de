import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { FAR_FUTURE, recordedSessions, withPat } from './support/sessions.js';
import { as, USER_PASSWORD } from './support/users.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { latestEventId, eventsSince } = eventReader(() => app);
const { send, newUser, createPat, patsOf, createFlag, listProjects, expectNoSecretShown, patSecrets } = recordedSessions(() => app, unique);

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

describe('personal access token secrets', () => {
  it('are shown only in the answer that created them: in no other answer of this file and in no log line', async () => {
    const user = await newUser('Editor');
    const pat = await createPat(user);
    expect((await createFlag(withPat(pat.secret))).status).toBe(201);
    await patsOf(user);
    await send(app, 'GET', '/api/admin/events');
    expect(patSecrets.size).toBeGreaterThan(1);
    expectNoSecretShown(app.logs, [USER_PASSWORD]);
    expect(patSecrets.get(pat.secret)!.text).toContain(pat.secret);
  });
});
