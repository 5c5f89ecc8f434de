import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePostgresDatabase, startTestApp, type TestApp } from '../support/app.js';
import { uniqueNames } from '../support/events.js';
import { envPath, fixtures, flagPath, newApiToken, ok } from '../support/fixtures.js';
import { clientFeaturesOn } from '../support/client-api.js';
import { clientAs, sessionOf } from '../support/users.js';

let first: TestApp;
let second: TestApp;
let clientToken: string;

const unique = uniqueNames();
const onFirst = fixtures(() => first, unique);
const onSecond = fixtures(() => second, unique);


const enabledIn = (body: { features: { name: string; enabled: boolean }[] } | undefined, flag: string) =>
  body?.features.find((f) => f.name === flag)?.enabled;
const enabledOn = async (app: TestApp, flag: string) => enabledIn((await clientFeaturesOn(app, clientToken)).data, flag);

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
  clientToken = await newApiToken(first, { type: 'client', environment: 'development' });
});

describe('two instances on one PostgreSQL database', () => {
  it('serves a change made on one from the other within 1 s', async () => {
    await onFirst.createFlag('default', 'replica.flag');
    await within(1000, 'the new flag reaching the second instance', async () => (await enabledOn(second, 'replica.flag')) === false);
    await onFirst.turnOn('replica.flag');
    await within(1000, 'the flag being enabled on the second instance', async () => (await enabledOn(second, 'replica.flag')) === true);
    await onSecond.turnOff('replica.flag');
    await within(1000, 'the flag being disabled on the first instance', async () => (await enabledOn(first, 'replica.flag')) === false);
  });

  it('accepts on one instance a token created on the other', async () => {
    const token = await newApiToken(first, { type: 'client', environment: 'development' });
    expect((await second.clientWith(token).GET('/api/client/features')).response.status).toBe(200);
  });

  it('stops accepting on one instance a token revoked on the other', async () => {
    const token = await newApiToken(first, { type: 'client', environment: 'development' });
    const status = async () => (await second.clientWith(token).GET('/api/client/features')).response.status;
    expect(await status()).toBe(200);
    await ok(first.admin.DELETE('/api/admin/api-tokens/{token}', { params: { path: { token } } }));
    await within(2000, 'the revocation reaching the second instance', async () => (await status()) === 401);
  });

  it('tells a delta poller on one instance, scoped to the project a flag left, of the move made on the other', async () => {
    for (const id of ['replica-from', 'replica-to']) await ok(first.admin.POST('/api/admin/projects', { body: { id, name: id } }));
    await onFirst.createFlag('replica-from', 'replica.moved');
    const token = await newApiToken(first, { type: 'client', environment: 'development', projects: ['replica-from'] });
    const delta = (headers: Record<string, string> = {}) => first.clientWith(token).GET('/api/client/delta', { headers });
    const hydration = await delta();
    expect(hydration.data!.events[0]!.features!.map((f) => f.name)).toEqual(['replica.moved']);
    await ok(
      second.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', {
        params: { path: flagPath('replica.moved', 'replica-from') },
        body: { newProjectId: 'replica-to' },
      }),
    );

    let answer = hydration;
    await within(2000, 'the move reaching the first instance', async () => {
      answer = await delta({ 'if-none-match': String(hydration.response.headers.get('etag')) });
      return answer.response.status !== 304;
    });
    expect(answer.data!.events).toMatchObject([{ type: 'feature-removed', featureName: 'replica.moved', project: 'replica-from' }]);
  });
});

describe('users across instances', () => {
  it('creates the admin user once: the second start finds it and generates no password', () => {
    expect(first.createdAdminPassword).toEqual(expect.any(String));
    expect(second.createdAdminPassword).toBeUndefined();
  });

  it('accepts on one instance a session opened on the other, and ends it on both at logout', async () => {
    const session = { cookie: await sessionOf(first, 'admin', first.createdAdminPassword!) };
    expect((await clientAs(second, session).GET('/api/admin/projects')).response.status).toBe(200);
    expect((await clientAs(second, session).POST('/logout')).response.status).toBe(200);
    expect((await clientAs(first, session).GET('/api/admin/projects')).response.status).toBe(401);
  });
});

describe('when a notification is lost', () => {
  it('still serves a change written without one, found by polling', async () => {
    await onFirst.createFlag('default', 'silent.flag');
    await within(1000, 'the flag reaching the second instance', async () => (await enabledOn(second, 'silent.flag')) === false);
    const direct = postgres(await filePostgresDatabase(), { max: 1, onnotice: () => {} });
    try {
      await direct.begin(async (tx) => {
        await tx`update feature_environments set enabled = true where feature_name = 'silent.flag' and environment = 'development'`;
        await tx`insert into events (type, created_by, feature_name, project, environment) values ('feature-environment-enabled', 'test', 'silent.flag', 'default', 'development')`;
      });
    } finally {
      await direct.end();
    }
    await within(3000, 'the silent change reaching the second instance', async () => (await enabledOn(second, 'silent.flag')) === true);
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
    await onFirst.createFlag('default', 'outage.flag');
    await within(1000, 'the flag reaching the second instance', async () => (await enabledOn(second, 'outage.flag')) === false);
    const before = await clientFeaturesOn(second, clientToken);
    const etag = before.response.headers.get('etag')!;

    await terminateConnections();
    const during = await clientFeaturesOn(second, clientToken);
    expect(during.response.status).toBe(200);
    expect(enabledIn(during.data, 'outage.flag')).toBe(false);
    expect((await clientFeaturesOn(second, clientToken, {}, { 'if-none-match': etag })).response.status).toBe(304);

    // The first writes after the cut may fail while the pool reconnects; the service must get there alone.
    await within(10_000, 'a change being accepted again', async () => {
      const { response } = await first.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', {
        params: { path: envPath('outage.flag') },
      });
      return response.status === 200;
    });
    await within(5000, 'the second instance serving the change', async () => (await enabledOn(second, 'outage.flag')) === true);
    await within(5000, 'the first instance serving the change', async () => (await enabledOn(first, 'outage.flag')) === true);
  });
});
