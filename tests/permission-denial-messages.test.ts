// A 403 tells the caller what would have let them through: the permission, one of several, or the kind of
// token that API needs.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { as, userWithSession, type TestUser } from './support/users.js';

let app: TestApp;
let viewer: TestUser;
const tokens: Record<'client' | 'frontend', string> = { client: '', frontend: '' };

beforeAll(async () => {
  app = await startTestApp();
  viewer = await userWithSession(app, 'Viewer');
  for (const type of ['client', 'frontend'] as const) {
    const created = await call(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: type, type, environment: 'development', projects: ['*'] } });
    expect(created.status, created.text).toBe(201);
    tokens[type] = created.json.secret;
  }
});

describe('the message of a 403', () => {
  it('names the one permission an operation needs', async () => {
    const denied = await call(app, 'POST', '/api/admin/projects/default/features', { ...as(viewer), body: { name: 'not-for-viewers' } });
    expect(expectError(denied, 403, 'NoAccessError').message).toBe('You need the "CREATE_FEATURE" permission to perform this operation.');
  });

  it('names every permission of which any one would do', async () => {
    const denied = await call(app, 'GET', '/api/admin/api-tokens', as(viewer));
    expect(expectError(denied, 403, 'NoAccessError').message).toBe(
      'You need one of the permissions "ADMIN", "READ_CLIENT_API_TOKEN", "READ_FRONTEND_API_TOKEN" to perform this operation.',
    );
  });

  it('tells a client or frontend token on an admin operation any caller may use that it needs an admin token', async () => {
    for (const token of [tokens.client, tokens.frontend]) {
      const denied = await call(app, 'GET', '/api/admin/tag-types', { token });
      expect(expectError(denied, 403, 'NoAccessError').message).toBe('This credential cannot use the admin API: use an admin token.');
    }
  });

  it('tells a frontend token on the client API that it needs a client token', async () => {
    const denied = await call(app, 'GET', '/api/client/features', { token: tokens.frontend });
    expect(expectError(denied, 403, 'NoAccessError').message).toBe('This endpoint is for SDKs: use a client (backend) token.');
  });

  it('lets a caller through who holds one of several permissions and not the others', async () => {
    const editor = await userWithSession(app, 'Editor');
    const listed = await call(app, 'GET', '/api/admin/api-tokens', as(editor));
    expect(listed.status, listed.text).toBe(200);
  });

  it('lets a signed-in user call an admin operation any caller may use, and a client token the client API', async () => {
    expect((await call(app, 'GET', '/api/admin/tag-types', as(viewer))).status).toBe(200);
    expect((await call(app, 'GET', '/api/client/features', { token: tokens.client })).status).toBe(200);
  });
});
