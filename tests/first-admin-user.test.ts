import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { login } from './support/users.js';

const ADMIN_ROLE_ID = 1;

// On PostgreSQL every app of this file shares one database: a test that needs a start without any user
// deletes the users the previous start made.
async function deleteEveryUser(app: TestApp) {
  const list = await app.admin.GET('/api/admin/user-admin');
  for (const user of list.data!.users) {
    const deleted = await app.admin.DELETE('/api/admin/user-admin/{id}', { params: { path: { id: user.id } } });
    expect(deleted.response.status, JSON.stringify(deleted.error)).toBe(200);
  }
}

describe('the admin user of a start without users', () => {
  let first: TestApp;

  it('is created as "admin" with the Admin role and a generated password that logs in and is never logged', async () => {
    first = await startTestApp();
    const password = first.createdAdminPassword!;
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const answer = await login(first, 'admin', password);
    expect(answer.response.status, JSON.stringify(answer.error)).toBe(200);
    expect(answer.data).toMatchObject({ username: 'admin', rootRole: ADMIN_ROLE_ID });
    expect(JSON.stringify(answer.data)).not.toContain(password);
    for (const line of first.logs) expect(line).not.toContain(password);
  });

  it('takes the configured username and password instead of generating one', async () => {
    await deleteEveryUser(first);
    const app = await startTestApp({ defaultAdmin: { username: 'root-person', password: 'Configured-Secret-77' } });
    expect(app.createdAdminPassword).toBeUndefined();
    const answer = await login(app, 'root-person', 'Configured-Secret-77');
    expect(answer.response.status, JSON.stringify(answer.error)).toBe(200);
    expect(answer.data!.rootRole).toBe(ADMIN_ROLE_ID);
    expect((await login(app, 'admin', 'Configured-Secret-77')).response.status).toBe(401);
    await deleteEveryUser(app);
  });

  it('refuses to start with a configured password that breaks the policy, naming the variable, and creates nothing', async () => {
    const refusedToken = `*:*.refused${randomBytes(16).toString('hex')}`;
    await expect(
      startTestApp({ initTokens: { admin: [refusedToken] }, defaultAdmin: { username: 'admin', password: 'short' } }),
    ).rejects.toThrow(/UNLEASH_DEFAULT_ADMIN_PASSWORD/);
    await expect(startTestApp({ defaultAdmin: { username: 'admin', password: 'password123' } })).rejects.toThrow(/common/);

    const next = await startTestApp({ defaultAdmin: { username: 'admin', password: 'Finally-Strong-91' } });
    expect((await next.clientWith(refusedToken).GET('/api/admin/projects')).response.status).toBe(401);
    expect((await login(next, 'admin', 'Finally-Strong-91')).response.status).toBe(200);
  });
});
