// A 403 tells the caller what would have let them through: the permission, one of several, or the kind of
// token that API needs.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { newApiToken } from './support/fixtures.js';
import { clientAs, userWithSession, type TestUser } from './support/users.js';

let app: TestApp;
let viewer: TestUser;
const tokens: Record<'client' | 'frontend', string> = { client: '', frontend: '' };

beforeAll(async () => {
  app = await startTestApp();
  viewer = await userWithSession(app, 'Viewer');
  for (const type of ['client', 'frontend'] as const) {
    tokens[type] = await newApiToken(app, { type, environment: 'development', projects: ['*'] });
  }
});

describe('the message of a 403', () => {
  it('names the one permission an operation needs', async () => {
    const denied = await clientAs(app, viewer).POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'default' } }, body: { name: 'not-for-viewers' } });
    expect(expectError(denied, 403, 'NoAccessError').message).toBe('You need the "CREATE_FEATURE" permission to perform this operation.');
  });

  it('names every permission of which any one would do', async () => {
    const denied = await clientAs(app, viewer).GET('/api/admin/api-tokens');
    expect(expectError(denied, 403, 'NoAccessError').message).toBe(
      'You need one of the permissions "ADMIN", "READ_CLIENT_API_TOKEN", "READ_FRONTEND_API_TOKEN" to perform this operation.',
    );
  });

  it('tells a client or frontend token on an admin operation any caller may use that it needs an admin token', async () => {
    for (const token of [tokens.client, tokens.frontend]) {
      const denied = await app.clientWith(token).GET('/api/admin/tag-types');
      expect(expectError(denied, 403, 'NoAccessError').message).toBe('This credential cannot use the admin API: use an admin token.');
    }
  });

  it('tells a frontend token on the client API that it needs a client token', async () => {
    const denied = await app.clientWith(tokens.frontend).GET('/api/client/features');
    expect(expectError(denied, 403, 'NoAccessError').message).toBe('This endpoint is for SDKs: use a client (backend) token.');
  });

  it('lets a caller through who holds one of several permissions and not the others', async () => {
    const editor = await userWithSession(app, 'Editor');
    const listed = await clientAs(app, editor).GET('/api/admin/api-tokens');
    expect(listed.response.status, JSON.stringify(listed.error)).toBe(200);
  });

  it('lets a signed-in user call an admin operation any caller may use, and a client token the client API', async () => {
    expect((await clientAs(app, viewer).GET('/api/admin/tag-types')).response.status).toBe(200);
    expect((await app.clientWith(tokens.client).GET('/api/client/features')).response.status).toBe(200);
  });
});
