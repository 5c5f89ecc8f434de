// A token is refused from the instant it expires, also when it was used (and remembered) just before.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

async function tokenExpiringSoon(type: 'client' | 'admin'): Promise<{ secret: string; expiresAt: string }> {
  const expiresAt = new Date(Date.now() + 1_500).toISOString();
  const body = type === 'admin' ? { tokenName: `soon-${type}`, type, expiresAt } : { tokenName: `soon-${type}`, type, environment: 'development', expiresAt };
  const { data, error, response } = await app.admin.POST('/api/admin/api-tokens', { body });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return { secret: data!.secret, expiresAt: data!.expiresAt! };
}

const untilPast = async (instant: string) => {
  while (Date.now() <= Date.parse(instant)) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('an API token past its expiry', () => {
  it('is refused on the client API after answering before it', async () => {
    const token = await tokenExpiringSoon('client');
    expect((await app.clientWith(token.secret).GET('/api/client/features')).response.status).toBe(200);
    expect((await app.clientWith(token.secret).GET('/api/client/features')).response.status).toBe(200);
    await untilPast(token.expiresAt);
    expectError(await app.clientWith(token.secret).GET('/api/client/features'), 401, 'AuthenticationRequired');
  });

  it('is refused on the admin API after answering before it', async () => {
    const token = await tokenExpiringSoon('admin');
    expect((await app.clientWith(token.secret).GET('/api/admin/tag-types')).response.status).toBe(200);
    await untilPast(token.expiresAt);
    expectError(await app.clientWith(token.secret).GET('/api/admin/tag-types'), 401, 'AuthenticationRequired');
  });

  it('is refused when first used after it', async () => {
    const token = await tokenExpiringSoon('client');
    await untilPast(token.expiresAt);
    expectError(await app.clientWith(token.secret).GET('/api/client/features'), 401, 'AuthenticationRequired');
  });
});
