// The built service as a separate process for the benchmarks: started with `npm run serve`'s node options on a
// throw-away database (PostgreSQL when DATABASE_URL names a server, else the embedded one), called with a token.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { throwAwayDatabase } from './throw-away-database.js';

export async function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
}

export async function waitFor(url: string) {
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(url).then((r) => r.status < 500, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

/** The node options `npm run serve` (and so `npm start`) gives the service, read from package.json. */
export async function serveOptions(): Promise<string[]> {
  const scripts = (JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  const options = scripts.serve!.split(/\s+/).filter((arg) => arg.startsWith('--'));
  // BENCH_CPU_PROF=<folder>: each service writes a V8 CPU profile there when it stops (read with scripts/cpu-profile-top.mjs).
  const profiles = process.env.BENCH_CPU_PROF;
  return profiles ? [...options, '--cpu-prof', `--cpu-prof-dir=${profiles}`] : options;
}

/** Runs compiled code with the service's node options: the measurement is of the service, not of a loader. */
export function startProcess(script: string, env: Record<string, string>, options: string[] = []): ChildProcess {
  return spawn(process.execPath, [...options, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

export type Api = (method: string, route: string, body?: unknown) => Promise<any>;

export interface BenchService {
  base: string;
  adminToken: string;
  process: ChildProcess;
  databaseKind: 'PostgreSQL' | 'embedded PGlite';
  /** The PostgreSQL database it uses, for a second instance on the same one. */
  databaseUrl?: string;
  api: Api;
  close(): Promise<void>;
}

/** Starts dist/app/main.js (built beforehand) on `port` with a fresh database and an admin token. */
export async function startBenchService(prefix: string, port: number, env: Record<string, string> = {}): Promise<BenchService> {
  const adminToken = `*:*.bench${randomBytes(16).toString('hex')}`;
  const base = `http://127.0.0.1:${port}`;
  // A DATABASE_URL given in `env` is shared with another instance: it is not made here, nor dropped.
  const database = env.DATABASE_URL ? undefined : await throwAwayDatabase(prefix);
  const dataDir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  const child = startProcess(
    'dist/app/main.js',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      INIT_ADMIN_API_TOKENS: adminToken,
      ...(database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir, DATABASE_URL: '' }),
      ...env,
    },
    await serveOptions(),
  );
  const api: Api = async (method, route, body) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: adminToken, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.status === 200 || response.status === 201 ? response.json().catch(() => undefined) : undefined;
  };
  try {
    await waitFor(`${base}/health`);
  } catch (error) {
    await stop(child);
    throw error;
  }
  return {
    base,
    adminToken,
    process: child,
    databaseKind: database || env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite',
    ...((database?.url ?? env.DATABASE_URL) && { databaseUrl: database?.url ?? env.DATABASE_URL }),
    api,
    close: async () => {
      await stop(child);
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
