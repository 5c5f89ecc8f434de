// Measures how the built service starts on a database that already exists: the time from spawning it to the
// first 200 on /health, and its RSS after it has been idle. The first start (which creates the database) is
// measured once and reported apart; then every run starts again on the same data.
//
// Usage: node scripts/build-if-stale.mjs && npx tsx scripts/measure-start.ts [--runs 3] [--idle 10] [--node-options "…"]
//   With DATABASE_URL set, a throw-away database is created on that server (and dropped after);
//   otherwise the embedded database is used, in a throw-away folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { throwAwayDatabase } from './throw-away-database.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const runs = option('runs', 3);
const idleSeconds = option('idle', 10);
const port = option('port', 4298);
const health = `http://127.0.0.1:${port}/health`;

interface Memory {
  rssMb: number;
  peakMb: number;
}

/**
 * CPU seconds (user + system) the process has used, with every thread or (`mainThread`) in its main thread only:
 * unlike wall time, not inflated by a busy machine. The main thread's is the start's critical path on an idle one.
 */
async function cpuSecondsOf(pid: number, mainThread = false): Promise<number> {
  const stat = await readFile(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function memoryOf(pid: number): Promise<Memory> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** The node options `npm run serve` (and so `npm start`) gives the service, read from package.json. */
async function serveOptions(): Promise<string[]> {
  const scripts = (JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  return scripts.serve!.split(/\s+/).filter((arg) => arg.startsWith('--'));
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Milliseconds from spawning the service to its first 200 on /health, and its memory after idling. */
async function startOnce(env: Record<string, string>, options: string[]): Promise<{ startMs: number; startCpuS: number; mainThreadCpuS: number; idle: Memory }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...options, 'dist/app/main.js'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before answering`);
      const ok = await fetch(health).then((r) => r.status === 200, () => false);
      if (ok) break;
      if (performance.now() - started > 120_000) throw new Error('/health did not answer within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const startMs = performance.now() - started;
    const [startCpuS, mainThreadCpuS] = [await cpuSecondsOf(child.pid!), await cpuSecondsOf(child.pid!, true)];
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    return { startMs, startCpuS, mainThreadCpuS, idle: await memoryOf(child.pid!) };
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const summary = (values: number[], digits: number) =>
  `min ${Math.min(...values).toFixed(digits)}, median ${median(values).toFixed(digits)} (${values.map((v) => v.toFixed(digits)).join(', ')})`;

async function main() {
  // --node-options "…" replaces the options read from the serve script (to compare V8 settings).
  const given = args.indexOf('--node-options');
  const options = given >= 0 ? args[given + 1]!.split(/\s+/).filter(Boolean) : await serveOptions();
  const database = await throwAwayDatabase('flag_start');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'flag-measure-start-'));
  const env: Record<string, string> = database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir, DATABASE_URL: '' };
  try {
    const first = await startOnce(env, options);
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await startOnce(env, options));
    console.log(`database: ${database ? 'PostgreSQL' : 'embedded PGlite'}; node ${options.join(' ')} dist/app/main.js; idle ${idleSeconds} s`);
    console.log(`first start (creates the database): ${first.startMs.toFixed(0)} ms to /health, RSS ${first.idle.rssMb.toFixed(0)} MB idle`);
    console.log(`start on the existing database, ${runs} runs:`);
    console.log(`  to the first 200 on /health (ms): ${summary(results.map((r) => r.startMs), 0)}`);
    console.log(`  CPU used by then (s):          ${summary(results.map((r) => r.startCpuS), 2)}`);
    console.log(`    of which the main thread (s): ${summary(results.map((r) => r.mainThreadCpuS), 2)}`);
    console.log(`  RSS after ${idleSeconds} s idle (MB):    ${summary(results.map((r) => r.idle.rssMb), 0)}`);
    console.log(`  peak RSS (MB):                 ${summary(results.map((r) => r.idle.peakMb), 0)}`);
  } finally {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
