import postgres from 'postgres';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePostgresDatabase, startTestApp, type TestApp } from '../support/app.js';

/** The client's patience: an answer slower than this counts as a hang, the failure this file guards against. */
const PATIENCE_MS = 5000;

let app: TestApp;
let databaseName: string;
const server = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });

interface Answer {
  status: number;
  json: any;
}

/** One HTTP call as the admin, failing the test when no answer comes within PATIENCE_MS. */
async function sendRaw(method: string, path: string, body?: object): Promise<Answer> {
  const response = await request(`${app.url}${path}`, {
    method: method as 'GET',
    headers: { authorization: app.adminToken, ...(body && { 'content-type': 'application/json' }) },
    body: body && JSON.stringify(body),
    signal: AbortSignal.timeout(PATIENCE_MS),
  }).catch((error: unknown) => {
    throw new Error(`${method} ${path} had no answer within ${PATIENCE_MS} ms: ${String(error)}`);
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: text ? JSON.parse(text) : undefined };
}

function expectUnavailable(answer: Answer, what: string) {
  expect(answer.status, `${what}: ${JSON.stringify(answer.json)}`).toBe(503);
  expect(answer.json).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'ServiceUnavailableError', message: expect.any(String) });
  expect(answer.json.message).not.toMatch(/ECONNREFUSED|CONNECTION_|postgres|select|insert/i);
}

/** Until `allowConnections`, this file's database refuses every new connection and has lost the ones it had. */
async function refuseConnections() {
  await server.unsafe(`alter database ${databaseName} allow_connections false`);
  await server`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`;
}

async function allowConnections() {
  await server.unsafe(`alter database ${databaseName} allow_connections true`);
}

/** Retries `attempt` (each bounded by PATIENCE_MS) until it answers 2xx, for at most `withinMs`. */
async function succeedsWithin(withinMs: number, attempt: () => Promise<Answer>): Promise<Answer> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answer = await attempt();
    if (answer.status < 300) return answer;
    expect([503], `no other failure than 503 while reconnecting: ${JSON.stringify(answer.json)}`).toContain(answer.status);
    if (Date.now() > deadline) throw new Error(`still ${answer.status} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  app = await startTestApp();
  databaseName = new URL(await filePostgresDatabase()).pathname.slice(1);
});

afterAll(async () => {
  await allowConnections();
  await server.end();
});

describe('while PostgreSQL refuses connections', () => {
  it('answers admin reads and writes 503 ServiceUnavailableError, every time, never 500 and never hanging', async () => {
    expect((await sendRaw('POST', '/api/admin/projects/default/features', { name: 'before.outage' })).status).toBe(201);
    await refuseConnections();
    try {
      // Repeated, so that a reconnection delay growing with each failure would show as a hang.
      for (let i = 0; i < 6; i++) {
        expectUnavailable(await sendRaw('GET', '/api/admin/projects'), 'a read');
        expectUnavailable(await sendRaw('POST', '/api/admin/projects/default/features', { name: `during.outage.${i}` }), 'a write');
        expectUnavailable(await sendRaw('POST', '/api/admin/projects/default/features/before.outage/environments/development/on'), 'an update');
      }
    } finally {
      await allowConnections();
    }
    const created = await succeedsWithin(5000, () => sendRaw('POST', '/api/admin/projects/default/features', { name: 'after.outage' }));
    expect(created.status).toBe(201);
    expect((await sendRaw('GET', '/api/admin/projects/default/features/after.outage')).status).toBe(200);
  });

  it('answers /ready 503 ServiceUnavailableError, and 200 again once the database is back', async () => {
    expect((await sendRaw('GET', '/ready')).status).toBe(200);
    await refuseConnections();
    try {
      expectUnavailable(await sendRaw('GET', '/ready'), '/ready');
      expectUnavailable(await sendRaw('GET', '/ready'), '/ready again');
    } finally {
      await allowConnections();
    }
    await succeedsWithin(5000, () => sendRaw('GET', '/ready'));
  });

  it('keeps answering the client API from memory', async () => {
    const token = (await sendRaw('POST', '/api/admin/api-tokens', { tokenName: 'outage', type: 'client', environment: 'development' })).json.secret;
    expect((await sendRaw('POST', '/api/admin/projects/default/features', { name: 'served.from.memory' })).status).toBe(201);
    // The snapshot is read again when an SDK next asks: ask once while the database answers.
    const before = await request(`${app.url}/api/client/features`, { headers: { authorization: token } });
    expect(before.statusCode).toBe(200);
    await before.body.dump();
    await refuseConnections();
    try {
      const response = await request(`${app.url}/api/client/features`, { headers: { authorization: token }, signal: AbortSignal.timeout(PATIENCE_MS) });
      expect(response.statusCode).toBe(200);
      const body = (await response.body.json()) as { features: { name: string }[] };
      expect(body.features.map((f) => f.name)).toContain('served.from.memory');
    } finally {
      await allowConnections();
    }
  });
});

describe('while PostgreSQL connections are cut again and again', () => {
  it('answers every write 2xx or 503, never 500 and never hanging, and writes succeed once the cuts stop', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i++) {
      await server`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`;
      const answer = await sendRaw('POST', '/api/admin/projects/default/features', { name: `cut.${i}` });
      statuses.add(answer.status);
      if (answer.status >= 300) expectUnavailable(answer, `write ${i}`);
    }
    expect([...statuses].every((s) => s === 201 || s === 503), [...statuses].join(',')).toBe(true);
    await succeedsWithin(5000, () => sendRaw('POST', '/api/admin/projects/default/features', { name: 'after.cuts' }));
  });

  // postgres.js 3.4.9, the driver before, ended the process (an uncaught TypeError) when a transaction's
  // connection died while it rolled back, and left its pool wedged (503 forever) when that was caught.
  it('survives connections cut in the middle of concurrent transactions, and writes succeed once the cuts stop', async () => {
    let stop = false;
    const statuses = new Set<number>();
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const answer = await sendRaw('POST', '/api/admin/projects/default/features', { name: `mid.${w}.${i}` });
        statuses.add(answer.status);
        if (answer.status >= 300) expectUnavailable(answer, `write ${w}.${i}`);
      }
    };
    const writers = Array.from({ length: 6 }, (_, w) => writer(w));
    try {
      for (let cut = 0; cut < 15; cut++) {
        await new Promise((resolve) => setTimeout(resolve, 40 + 20 * (cut % 4)));
        await server`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`;
      }
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    expect([...statuses].every((s) => s === 201 || s === 503), [...statuses].join(',')).toBe(true);
    for (let w = 0; w < 6; w++) await succeedsWithin(5000, () => sendRaw('POST', '/api/admin/projects/default/features', { name: `after.mid.${w}` }));
  });
});
