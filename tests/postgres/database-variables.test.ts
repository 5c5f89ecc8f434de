import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../app/app.js';
import { configFromEnv } from '../../kernel/config.js';
import { filePostgresDatabase } from '../support/app.js';

// A role whose password holds every character that means something in a URL: built into a URL without
// encoding, the host, port or database would be read wrongly and the start would fail.
const role = `flag_vars_${randomBytes(4).toString('hex')}`;
const password = `p@ss:w/rd?#%[]&=+ é${randomBytes(4).toString('hex')}`;
const adminToken = `*:*.vars${randomBytes(20).toString('hex')}`;
let built: BuiltApp;
let url: string;
let server: ReturnType<typeof postgres>;

beforeAll(async () => {
  const target = new URL(await filePostgresDatabase());
  server = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  await server.unsafe(`create role ${role} login superuser password '${password.replaceAll("'", "''")}'`);
  const config = configFromEnv({
    DATABASE_HOST: target.hostname,
    DATABASE_PORT: target.port || '5432',
    DATABASE_NAME: target.pathname.slice(1),
    DATABASE_USERNAME: role,
    DATABASE_PASSWORD: password,
    DATABASE_SSL: 'false',
    DATABASE_POOL_MAX: '2',
    INIT_ADMIN_API_TOKENS: adminToken,
    LOG_LEVEL: 'error',
  });
  built = await buildApp({ ...config, port: 0, host: '127.0.0.1' });
  url = await built.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await built?.app.close();
  await server.unsafe(`drop role if exists ${role}`);
  await server.end();
});

describe('a start through DATABASE_HOST, DATABASE_PORT, DATABASE_NAME, DATABASE_USERNAME, DATABASE_PASSWORD', () => {
  it('connects to that database as that user and serves the API', async () => {
    const response = await fetch(`${url}/api/admin/tag-types`, { headers: { authorization: adminToken } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { tagTypes: { name: string }[] };
    expect(body.tagTypes.map((t) => t.name)).toContain('simple');
    // The service's pool is connected to that database as that user.
    const database = new URL(await filePostgresDatabase()).pathname.slice(1);
    const [row] = await server<{ connections: number }[]>`select count(*)::int as connections from pg_stat_activity where usename = ${role} and datname = ${database}`;
    expect(row!.connections).toBeGreaterThan(0);
  });
});
