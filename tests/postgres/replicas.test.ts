import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, filePostgresDatabase, startTestApp, type TestApp } from '../support/app.js';

let first: TestApp;
let second: TestApp;
let clientToken: string;

async function admin(app: TestApp, method: string, path: string, body?: object) {
  const response = await call(app, method, path, body === undefined ? {} : { body });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
  return response.json;
}

async function clientFeatures(app: TestApp, headers: Record<string, string> = {}) {
  return call(app, 'GET', '/api/client/features', { token: clientToken, headers });
}

const enabledIn = (body: { features: { name: string; enabled: boolean }[] } | undefined, flag: string) =>
  body?.features.find((f) => f.name === flag)?.enabled;

/** Polls until `check` holds; fails when `withinMs` passes first. */
async function within(withinMs: number, what: string, check: () => Promise<boolean>) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  first = await startTestApp();
  second = await startTestApp();
  clientToken = (await admin(first, 'POST', '/api/admin/api-tokens', { tokenName: 'replicas', type: 'client', environment: 'development' })).secret;
});

describe('two instances on one PostgreSQL database', () => {
  it('serves a change made on one from the other within 1 s', async () => {
    await admin(first, 'POST', '/api/admin/projects/default/features', { name: 'replica.flag' });
    await within(1000, 'the new flag reaching the second instance', async () => enabledIn((await clientFeatures(second)).json, 'replica.flag') === false);
    await admin(first, 'POST', '/api/admin/projects/default/features/replica.flag/environments/development/on');
    await within(1000, 'the flag being enabled on the second instance', async () => enabledIn((await clientFeatures(second)).json, 'replica.flag') === true);
    await admin(second, 'POST', '/api/admin/projects/default/features/replica.flag/environments/development/off');
    await within(1000, 'the flag being disabled on the first instance', async () => enabledIn((await clientFeatures(first)).json, 'replica.flag') === false);
  });

  it('accepts on one instance a token created on the other', async () => {
    const token = (await admin(first, 'POST', '/api/admin/api-tokens', { tokenName: 'fresh', type: 'client', environment: 'development' })).secret;
    const response = await call(second, 'GET', '/api/client/features', { token });
    expect(response.status).toBe(200);
  });

  it('stops accepting on one instance a token revoked on the other', async () => {
    const token = (await admin(first, 'POST', '/api/admin/api-tokens', { tokenName: 'doomed', type: 'client', environment: 'development' })).secret;
    expect((await call(second, 'GET', '/api/client/features', { token })).status).toBe(200);
    await admin(first, 'DELETE', `/api/admin/api-tokens/${encodeURIComponent(token)}`);
    await within(2000, 'the revocation reaching the second instance', async () => (await call(second, 'GET', '/api/client/features', { token })).status === 401);
  });

  it('tells a delta poller on one instance, scoped to the project a flag left, of the move made on the other', async () => {
    for (const id of ['replica-from', 'replica-to']) await admin(first, 'POST', '/api/admin/projects', { id, name: id });
    await admin(first, 'POST', '/api/admin/projects/replica-from/features', { name: 'replica.moved' });
    const token = (await admin(first, 'POST', '/api/admin/api-tokens', { tokenName: 'left', type: 'client', environment: 'development', projects: ['replica-from'] })).secret;
    const hydration = await call(first, 'GET', '/api/client/delta', { token });
    expect(hydration.json.events[0].features.map((f: { name: string }) => f.name)).toEqual(['replica.moved']);
    await admin(second, 'POST', '/api/admin/projects/replica-from/features/replica.moved/changeProject', { newProjectId: 'replica-to' });

    let answer = hydration;
    await within(2000, 'the move reaching the first instance', async () => {
      answer = await call(first, 'GET', '/api/client/delta', { token, headers: { 'if-none-match': String(hydration.headers.etag) } });
      return answer.status !== 304;
    });
    expect(answer.json.events).toMatchObject([{ type: 'feature-removed', featureName: 'replica.moved', project: 'replica-from' }]);
  });
});

describe('users across instances', () => {
  it('creates the admin user once: the second start finds it and generates no password', () => {
    expect(first.createdAdminPassword).toEqual(expect.any(String));
    expect(second.createdAdminPassword).toBeUndefined();
  });

  it('accepts on one instance a session opened on the other, and ends it on both at logout', async () => {
    const login = await call(first, 'POST', '/auth/simple/login', { token: null, body: { username: 'admin', password: first.createdAdminPassword! } });
    expect(login.status, login.text).toBe(200);
    const cookie = [login.headers['set-cookie']].flat()[0]!.split(';')[0]!;
    const asSession = { token: null, headers: { cookie } };
    expect((await call(second, 'GET', '/api/admin/projects', asSession)).status).toBe(200);
    expect((await call(second, 'POST', '/logout', asSession)).status).toBe(200);
    expect((await call(first, 'GET', '/api/admin/projects', asSession)).status).toBe(401);
  });
});

describe('when a notification is lost', () => {
  it('still serves a change written without one, found by polling', async () => {
    await admin(first, 'POST', '/api/admin/projects/default/features', { name: 'silent.flag' });
    await within(1000, 'the flag reaching the second instance', async () => enabledIn((await clientFeatures(second)).json, 'silent.flag') === false);
    const direct = postgres(await filePostgresDatabase(), { max: 1, onnotice: () => {} });
    try {
      await direct.begin(async (tx) => {
        await tx`update feature_environments set enabled = true where feature_name = 'silent.flag' and environment = 'development'`;
        await tx`insert into events (type, created_by, feature_name, project, environment) values ('feature-environment-enabled', 'test', 'silent.flag', 'default', 'development')`;
      });
    } finally {
      await direct.end();
    }
    await within(3000, 'the silent change reaching the second instance', async () => enabledIn((await clientFeatures(second)).json, 'silent.flag') === true);
  });
});

describe('when the database connections are cut', () => {
  const server = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  afterAll(() => server.end());

  async function terminateConnections() {
    const url = new URL(await filePostgresDatabase());
    const database = url.pathname.slice(1);
    await server`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${database} and pid <> pg_backend_pid()`;
  }

  it('keeps answering the client API with 200 and 304, and recovers by itself', async () => {
    await admin(first, 'POST', '/api/admin/projects/default/features', { name: 'outage.flag' });
    await within(1000, 'the flag reaching the second instance', async () => enabledIn((await clientFeatures(second)).json, 'outage.flag') === false);
    const before = await clientFeatures(second);
    const etag = before.headers.etag as string;

    await terminateConnections();
    const during = await clientFeatures(second);
    expect(during.status).toBe(200);
    expect(enabledIn(during.json, 'outage.flag')).toBe(false);
    expect((await clientFeatures(second, { 'if-none-match': etag })).status).toBe(304);

    // The first writes after the cut may fail while the pool reconnects; the service must get there alone.
    await within(10_000, 'a change being accepted again', async () => {
      const response = await call(first, 'POST', '/api/admin/projects/default/features/outage.flag/environments/development/on');
      return response.status === 200;
    });
    await within(5000, 'the second instance serving the change', async () => enabledIn((await clientFeatures(second)).json, 'outage.flag') === true);
    await within(5000, 'the first instance serving the change', async () => enabledIn((await clientFeatures(first)).json, 'outage.flag') === true);
  });
});
