// What authentication answers: which 401 and why, sessions that ended, and a flag path no lookup can hold.
import { describe, expect, it } from 'vitest';
import { expectError, startTestApp } from './support/app.js';
import { envPath, ok } from './support/fixtures.js';
import { clientAs, userWithSession } from './support/users.js';

describe('401 messages say what is wrong', () => {
  it('without a credential: send one', async () => {
    const app = await startTestApp();
    const error = expectError(await app.clientWith().GET('/api/admin/tag-types'), 401, 'AuthenticationRequired');
    expect(error.message).toBe('This operation needs a credential: send an API token in the Authorization header.');
  });

  it('with an unknown token: it is not valid', async () => {
    const app = await startTestApp();
    const error = expectError(await app.clientWith('*:*.not-a-token-this-service-made').GET('/api/admin/tag-types'), 401, 'AuthenticationRequired');
    expect(error.message).toBe('The credential in the Authorization header is not valid: it is unknown, revoked or expired.');
  });

  it('with the cookie of a session that ended: log in again', async () => {
    const app = await startTestApp();
    const user = await userWithSession(app, 'Viewer');
    expect((await clientAs(app, user).POST('/logout')).response.status).toBeLessThan(300);
    const error = expectError(await clientAs(app, user).GET('/api/admin/tag-types'), 401, 'AuthenticationRequired');
    expect(error.message).toBe('Your session has ended (logged out, expired, or the user was deleted); log in again.');
  });
});

describe('with AUTH_TYPE none', () => {
  it('the cookie of a session that ended is no obstacle: the caller acts as the admin', async () => {
    const app = await startTestApp({ authType: 'none' });
    const response = await clientAs(app, { cookie: 'flag-session=ended-long-ago' }).GET('/api/admin/tag-types');
    expect(response.response.status).toBe(200);
  });
});

describe('a flag path for a caller without the permission', () => {
  it('with a NUL in the flag name answers 4xx, never a server error', async () => {
    const app = await startTestApp();
    const viewer = await userWithSession(app, 'Viewer');
    const { response } = await clientAs(app, viewer).POST('/api/admin/features/{featureName}/tags', {
      params: { path: { featureName: 'a\u0000b' } },
      body: { type: 'simple', value: 'x1' },
    });
    expect(response.url).toContain('/api/admin/features/a%00b/tags');
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});

describe('the project a permission is checked in', () => {
  it("is the path's project, not the project of the flag the path names", async () => {
    const app = await startTestApp();
    const member = await userWithSession(app, 'Viewer');
    for (const id of ['auth-path-a', 'auth-path-b']) await ok(app.admin.POST('/api/admin/projects', { body: { id, name: id } }), 201);
    await ok(app.admin.POST('/api/admin/projects/{projectId}/access', { params: { path: { projectId: 'auth-path-b' } }, body: { roles: [5], users: [member.id] } }));
    await ok(app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'auth-path-b' } }, body: { name: 'auth-path-flag' } }), 201);
    // A Member of B only: asking through project A is refused before the flag is looked at.
    const response = await clientAs(app, member).POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', {
      params: { path: envPath('auth-path-flag', 'development', 'auth-path-a') },
    });
    expectError(response, 403, 'NoAccessError');
  });
});
