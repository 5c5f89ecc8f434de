// A delivery survives the process that recorded it: kill -9 mid-delivery, and the next instance sends everything.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseKind, filePostgresDatabase } from './support/app.js';
import { until } from './support/fixtures.js';
import { startReceiver } from './support/receiver.js';
import { healthy, listeningAt, SERVICE_PROCESS_TEST_TIMEOUT, startService } from './support/service-process.js';

const adminToken = `*:*.crash${randomBytes(20).toString('hex')}`;

async function send(base: string, method: string, route: string, body?: object) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: adminToken, ...(body && { 'content-type': 'application/json' }) },
    ...(body && { body: JSON.stringify(body) }),
  });
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

describe('a crash while delivering', { timeout: SERVICE_PROCESS_TEST_TIMEOUT }, () => {
  it('kill -9 with one delivery in flight and nine waiting: a new instance on the same database delivers all ten', async () => {
    const database: Record<string, string> = databaseKind === 'postgres' ? { DATABASE_URL: await filePostgresDatabase() } : { DATA_DIR: await mkdtemp(path.join(tmpdir(), 'flag-crash-')) };
    const env = {
      PORT: '0',
      INIT_ADMIN_API_TOKENS: adminToken,
      UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION: 'true',
      INTEGRATION_LEASE_MS: '1000',
      ...database,
    };
    const receiver = await startReceiver('hang');

    const first = startService(env);
    const firstBase = await listeningAt(first);
    await healthy(firstBase);
    await send(firstBase, 'POST', '/api/addons', { provider: 'webhook', enabled: true, events: ['feature-created'], parameters: { url: `${receiver.url}/hook` } });
    const flags = Array.from({ length: 10 }, (_, i) => `crash-${i}`);
    for (const name of flags) await send(firstBase, 'POST', '/api/admin/projects/default/features', { name });
    await until('the first delivery to be in flight', async () => receiver.received.length, (n) => n >= 1, 15_000);
    first.process.kill('SIGKILL');
    await first.exited;

    receiver.otherwise = { status: 200 };
    const second = startService(env);
    const secondBase = await listeningAt(second);
    await healthy(secondBase);
    const delivered = await until(
      'every flag at the receiver after the restart',
      async () => receiver.received.slice(1).map((r) => r.json.featureName as string),
      (names) => names.length >= flags.length,
      30_000,
    );
    // The one in flight at the crash is sent again (at-least-once); the rest once each, in order.
    expect(delivered).toEqual(flags);
    expect(receiver.received[0]!.headers['x-delivery-id']).toBe(receiver.received[1]!.headers['x-delivery-id']);
    second.process.kill('SIGTERM');
    await second.exited;
  });
});
