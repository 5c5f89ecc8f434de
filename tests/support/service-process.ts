// The service as its own process (`app/main.ts`), for what only a real process shows: start, stop, kill -9.
import { spawn, type ChildProcess } from 'node:child_process';
import { TEST_PASSWORD_HASH_COST } from './password-cost.js';

export interface Started {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const children: Started[] = [];

/** Kills what a test file started and left running (tests/support/per-file.ts, after each file). */
export function killLeftoverServices(): void {
  for (const child of children.splice(0)) if (child.process.exitCode === null) child.process.kill('SIGKILL');
}

/** Starts the service with `env` over this process's environment; killed after the file if still running. */
export function startService(env: Record<string, string>): Started {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'app/main.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: '', PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = { process: child, output: () => output, exited };
  children.push(started);
  return started;
}

/**
 * A test that starts a whole service process: its start (a new embedded database, migrations) and its stop take
 * seconds alone and several times that while the rest of the suite shares the two cores, so it may wait as long as
 * `waitFor` does, and stop after.
 */
export const SERVICE_PROCESS_TEST_TIMEOUT = 120_000;

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * The address the service says it can be reached at, without the trailing slash (it binds port 0: the system picks
 * a free port): the URL of its line `listening at 127.0.0.1:1234 (http://127.0.0.1:1234/)`.
 */
export const listeningAt = (service: Started) =>
  waitFor('the listening address', () => /listening at \S+ \((http:\/\/[^/\s)]+)\/\)/.exec(service.output())?.[1]);

/** Waits until the service at `base` answers /health. */
export const healthy = (base: string) => waitFor('health', async () => ((await fetch(`${base}/health`).catch(() => undefined))?.ok ? true : undefined));
