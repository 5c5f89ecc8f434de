// What authentication answers: which 401 and why, sessions that ended, and a flag path no lookup can hold.
import { describe, expect, it } from 'vitest';
import { call, expectError, startTestApp } from './support/app.js';
import { as, userWithSession } from './support/users.js';

describe('401 messages say what is wrong', () => {
  it('without a credential: send one', async () => {
    const app = await startTestApp();
    const error = expectError(await call(app, 'GET', '/api/admin/tag-types', { token: null }), 401, 'AuthenticationRequired');
    expect(error.message).toBe('This operation needs a credential: send an API token in the Authorization header.');
  });

  it('with an unknown token: it is not valid', async () => {
    const app = await startTestApp();
    const error = expectError(await call(app, 'GET', '/api/admin/tag-types', { token: '*:*.not-a-token-this-service-made' }), 401, 'AuthenticationRequired');
    expect(error.message).toBe('The credential in the Authorization header is not valid: it is unknown, revoked or expired.');
  });

  it('with the cookie of a session that ended: log in again', async () => {
    const app = await startTestApp();
    const user = await userWithSession(app, 'Viewer');
    expect((await call(app, 'POST', '/logout', as(user))).status).toBeLessThan(300);
    const error = expectError(await call(app, 'GET', '/api/admin/tag-types', as(user)), 401, 'AuthenticationRequired');
    expect(error.message).toBe('Your session has ended (logged out, expired, or the user was deleted); log in again.');
  });
});

describe('with AUTH_TYPE none', () => {
  it('the cookie of a session that ended is no obstacle: the caller acts as the admin', async () => {
    const app = await startTestApp({ authType: 'none' });
    const response = await call(app, 'GET', '/api/admin/tag-types', { token: null, headers: { cookie: 'flag-session=ended-long-ago' } });
    expect(response.status).toBe(200);
  });
});

describe('a flag path for a caller without the permission', () => {
  it('with a NUL in the flag name answers 4xx, never a server error', async () => {
    const app = await startTestApp();
    const viewer = await userWithSession(app, 'Viewer');
    const response = await call(app, 'POST', '/api/admin/features/a%00b/tags', { ...as(viewer), body: { type: 'simple', value: 'x1' } });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});

describe('the project a permission is checked in', () => {
  it("is the path's project, not the project of the flag the path names", async () => {
    const app = await startTestApp();
    const member = await userWithSession(app, 'Viewer');
    for (const id of ['auth-path-a', 'auth-path-b']) expect((await call(app, 'POST', '/api/admin/projects', { body: { id, name: id } })).status).toBe(201);
    expect((await call(app, 'POST', '/api/admin/projects/auth-path-b/access', { body: { roles: [5], users: [member.id] } })).status).toBeLessThan(300);
    expect((await call(app, 'POST', '/api/admin/projects/auth-path-b/features', { body: { name: 'auth-path-flag' } })).status).toBe(201);
    // A Member of B only: asking through project A is refused before the flag is looked at.
    const response = await call(app, 'POST', '/api/admin/projects/auth-path-a/features/auth-path-flag/environments/development/on', as(member));
    expectError(response, 403, 'NoAccessError');
  });
});
