// Measures the running service from outside: starts it as its own process on a fresh embedded database
// (or DATABASE_URL), drives load over loopback, prints req/s, p50/p99 latency and the server's RSS.
// Usage: npm run bench [-- --seconds 5 --connections 50]
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Pool } from 'undici';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const seconds = option('seconds', 5);
const connections = option('connections', 50);
const port = option('port', 4299);
const adminToken = `*:*.bench${randomBytes(16).toString('hex')}`;
const base = `http://127.0.0.1:${port}`;

interface Measurement {
  name: string;
  requests: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function measure(name: string, pool: Pool, next: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string }): Promise<Measurement> {
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const request = next(counter++);
      const start = performance.now();
      const response = await pool.request({
        method: request.method,
        path: request.path,
        headers: { authorization: adminToken, ...(request.body ? { 'content-type': 'application/json' } : {}) },
        body: request.body,
      });
      await response.body.dump();
      latencies.push(performance.now() - start);
      if (response.statusCode >= 400) errors++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, requests: latencies.length, errors, perSecond: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function waitForHealth() {
  for (let i = 0; i < 300; i++) {
    try {
      const response = await fetch(`${base}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the service did not start within 30 s');
}

async function main() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'flag-bench-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, INIT_ADMIN_API_TOKENS: adminToken, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForHealth();
    const pool = new Pool(base, { connections });
    await fetch(`${base}/api/admin/tag-types`, {
      method: 'POST',
      headers: { authorization: adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench' }),
    });
    const results = [
      await measure('GET /api/admin/tag-types', pool, () => ({ method: 'GET', path: '/api/admin/tag-types' })),
      await measure('POST /api/admin/tags (write + event)', pool, (i) => ({
        method: 'POST',
        path: '/api/admin/tags',
        body: JSON.stringify({ type: 'bench', value: `v${i}-${randomBytes(3).toString('hex')}` }),
      })),
    ];
    const rss = await rssMb(server.pid!);
    await pool.close();
    console.log(`\n${connections} connections, ${seconds} s each, database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'}\n`);
    console.log('| path | requests | errors | req/s | p50 ms | p99 ms |');
    console.log('|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(`| ${r.name} | ${r.requests} | ${r.errors} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
    }
    console.log(`\nserver RSS after the run: ${rss.toFixed(0)} MB`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
