// Measures what admin writes get while PostgreSQL is really stopped, and how soon they succeed after it starts
// again: a scratch cluster (initdb as the `postgres` OS user, on a free port), the service on it in this process,
// one write every 100 ms. Run as root on a machine with PostgreSQL's binaries: `npx tsx scripts/outage-probe.ts`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, chmodSync, readdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { buildApp } from '../app/app.js';
import { configFromEnv } from '../kernel/config.js';

const OUTAGE_MS = Number(process.argv[2] ?? 5000);
const bin = path.join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort().at(-1)!, 'bin');
const asPostgres = (command: string, ...args: string[]) =>
  execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args], { stdio: 'pipe' });

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'outage-probe-'));
chmodSync(dir, 0o777);
const dataDir = path.join(dir, 'data');
const port = await freePort();
asPostgres('initdb', '-D', dataDir, '-A', 'trust', '-U', 'postgres');
const start = () => asPostgres('pg_ctl', '-D', dataDir, '-o', `-p ${port} -k ${dir}`, '-l', path.join(dir, 'log'), '-w', 'start');
const stop = () => asPostgres('pg_ctl', '-D', dataDir, '-m', 'fast', '-w', 'stop');
start();

const token = `*:*.probe${'0'.repeat(32)}`;
const config = { ...configFromEnv({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`, INIT_ADMIN_API_TOKENS: token, LOG_LEVEL: 'fatal' }), port: 0, host: '127.0.0.1' };
const { app } = await buildApp(config);
const url = await app.listen({ port: 0, host: '127.0.0.1' });

interface Attempt { at: number; status: number | 'no answer'; ms: number }
const attempts: Attempt[] = [];
const t0 = performance.now();
let running = true;
const writer = (async () => {
  for (let i = 0; running; i++) {
    const started = performance.now();
    const status = await request(`${url}/api/admin/projects/default/features`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `probe.${i}` }),
      signal: AbortSignal.timeout(20_000),
    }).then(async (r) => (await r.body.dump(), r.statusCode), () => 'no answer' as const);
    attempts.push({ at: started - t0, status, ms: performance.now() - started });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();

await new Promise((resolve) => setTimeout(resolve, 1000));
const stoppedAt = performance.now() - t0;
stop();
await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
start();
const startedAt = performance.now() - t0;
await new Promise((resolve) => setTimeout(resolve, 3000));
running = false;
await writer;
await app.close();
stop();
rmSync(dir, { recursive: true, force: true });

const during = attempts.filter((a) => a.at > stoppedAt && a.at + a.ms < startedAt);
const firstSuccess = attempts.find((a) => a.at > startedAt && a.status === 201);
const statuses = [...new Set(during.map((a) => a.status))];
const slowest = Math.max(...during.map((a) => a.ms));
console.log(`PostgreSQL stopped for ${(startedAt - stoppedAt).toFixed(0)} ms (pg_ctl stop -m fast, then start)`);
console.log(`writes while it was down: ${during.length}, statuses ${statuses.join(', ')}, slowest answer ${slowest.toFixed(0)} ms`);
console.log(firstSuccess ? `first 201 after it was back: ${(firstSuccess.at + firstSuccess.ms - startedAt).toFixed(0)} ms after pg_ctl start returned` : 'no write succeeded after it was back');
