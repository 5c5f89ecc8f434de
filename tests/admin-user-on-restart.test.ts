import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app/app.js';
import { createClient } from '../client/index.js';
import { configFromEnv } from '../kernel/config.js';
import { databaseKind, startTestApp, type TestApp } from './support/app.js';

// The admin user is made at the first start only. A later start on a database that has users, even when none
// of them is called admin any more, creates no user and shows no password. On PostgreSQL the starts share this
// file's database; on PGlite they open the same data folder (startTestApp would give each a fresh snapshot).

const scratch = await mkdtemp(path.join(tmpdir(), 'flag-restart-'));
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const adminToken = `*:*.restart${randomBytes(16).toString('hex')}`;

async function start(): Promise<TestApp> {
  if (databaseKind === 'postgres') return startTestApp();
  const config = configFromEnv({ LOG_LEVEL: 'error' });
  const dataDir = path.join(scratch, 'data');
  const built = await buildApp({ ...config, database: { kind: 'pglite', dataDir }, port: 0, host: '127.0.0.1', initTokens: { admin: [adminToken], client: [], frontend: [] } });
  const url = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = createClient(url, { token: adminToken });
  return { url, adminToken, admin, createdAdminPassword: built.createdAdminPassword, close: () => built.app.close() } as unknown as TestApp;
}

const usernames = async (app: TestApp) => (await app.admin.GET('/api/admin/user-admin')).data!.users.map((u) => u.username);

// Two whole starts; on PGlite the first migrates a new data folder: up to a minute while the suite shares the cores.
describe('a start on a database that has users', { timeout: 90_000 }, () => {
  it('creates no admin user and shows no password, even when the admin user was deleted', async () => {
    const first = await start();
    expect(first.createdAdminPassword).toBeDefined();
    const kept = await first.admin.POST('/api/admin/user-admin', { body: { username: 'kept-person', password: 'Correct-Horse-42', rootRole: 'Admin' } });
    expect(kept.response.status, JSON.stringify(kept.error)).toBe(201);
    const users = (await first.admin.GET('/api/admin/user-admin')).data!.users;
    for (const user of users.filter((u) => u.username === 'admin')) {
      expect((await first.admin.DELETE('/api/admin/user-admin/{id}', { params: { path: { id: user.id } } })).response.status).toBe(200);
    }
    await first.close();

    const second = await start();
    expect(second.createdAdminPassword).toBeUndefined();
    expect(await usernames(second)).toEqual(['kept-person']);
    await second.close();
  });
});
