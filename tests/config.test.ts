import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../kernel/config.js';

const scratch = await mkdtemp(path.join(tmpdir(), 'flag-config-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Runs the service's entry point with only `env` (plus PATH) and returns how it ended. */
function runWithEnv(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'app/main.ts'], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // A service that starts instead of stopping is killed, so the test fails instead of leaving it behind.
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const database = (env: Record<string, string>) => configFromEnv(env).database;
const parts = { DATABASE_HOST: 'db.internal', DATABASE_NAME: 'flags', DATABASE_USERNAME: 'svc' };

describe('LOG_LEVEL', () => {
  it('accepts the six pino levels, in any case', () => {
    expect(configFromEnv({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(configFromEnv({ LOG_LEVEL: 'WARN' }).logLevel).toBe('warn');
    expect(configFromEnv({}).logLevel).toBe('info');
  });

  it('refuses an unknown level naming the allowed ones', () => {
    expect(() => configFromEnv({ LOG_LEVEL: 'bogus' })).toThrow('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, got "bogus"');
  });

  it('stops the service at start with a one-line error', async () => {
    const dataDir = path.join(scratch, 'bogus-level');
    const { code, stdout, stderr } = await runWithEnv({ LOG_LEVEL: 'bogus', DATA_DIR: dataDir });
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toEqual(['Could not start: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, got "bogus"']);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('PASSWORD_HASH_COST', () => {
  const cost = (value?: string) => configFromEnv(value === undefined ? {} : { PASSWORD_HASH_COST: value }).passwordHashCost;

  it("is scrypt's N, 16384 unless set", () => {
    expect(cost()).toBe(16384);
    expect(cost('')).toBe(16384);
    expect(cost('1024')).toBe(1024);
    expect(cost('131072')).toBe(131072);
  });

  it('refuses what is not a power of two from 1024 to 131072', () => {
    for (const value of ['512', '1000', '262144', '16384.5', 'high', '-1024']) {
      expect(() => cost(value), value).toThrow(/^PASSWORD_HASH_COST must be/);
    }
  });
});

describe("Unleash's database variables", () => {
  it('uses the embedded database when no database variable is set', () => {
    expect(database({ DATA_DIR: '/tmp/x' })).toEqual({ kind: 'pglite', dataDir: '/tmp/x' });
    expect(database({})).toEqual({ kind: 'pglite', dataDir: './data' });
  });

  it('builds a PostgreSQL URL from DATABASE_HOST, DATABASE_PORT, DATABASE_NAME, DATABASE_USERNAME and DATABASE_PASSWORD', () => {
    expect(database({ ...parts, DATABASE_PORT: '6543', DATABASE_PASSWORD: 'pw' })).toEqual({ kind: 'postgres', url: 'postgres://svc:pw@db.internal:6543/flags' });
    expect(database(parts)).toEqual({ kind: 'postgres', url: 'postgres://svc@db.internal:5432/flags' });
  });

  it('encodes a password with URL-special characters so that the driver reads it back unchanged', () => {
    const password = 'p@ss:w/rd?#%[]é &+=';
    const config = database({ ...parts, DATABASE_PASSWORD: password });
    if (config.kind !== 'postgres') throw new Error('expected postgres');
    const url = new URL(config.url);
    expect(decodeURIComponent(url.password)).toBe(password);
    expect(url.hostname).toBe('db.internal');
    expect(url.pathname).toBe('/flags');
  });

  it('brackets an IPv6 host', () => {
    const config = database({ ...parts, DATABASE_HOST: '::1' });
    expect(config.kind === 'postgres' && config.url).toBe('postgres://svc@[::1]:5432/flags');
  });

  it('refuses a partial set, naming what is missing', () => {
    expect(() => database({ DATABASE_HOST: 'db.internal' })).toThrow(/DATABASE_HOST is set but DATABASE_NAME, DATABASE_USERNAME are not/);
    expect(() => database({ DATABASE_HOST: 'db.internal', DATABASE_NAME: 'flags' })).toThrow(/but DATABASE_USERNAME is not/);
    expect(() => database({ DATABASE_PASSWORD: 'x' })).toThrow(/DATABASE_HOST, DATABASE_NAME, DATABASE_USERNAME are not/);
  });

  it('refuses DATABASE_SSL or a pool size without a database instead of falling back to the embedded one', () => {
    expect(() => database({ DATABASE_SSL: 'true' })).toThrow(/DATABASE_SSL is set but no PostgreSQL database is/);
    expect(() => database({ DATABASE_POOL_MAX: '5' })).toThrow(/DATABASE_POOL_MAX is set but no PostgreSQL database is/);
  });

  it('refuses a URL and the DATABASE_HOST family together', () => {
    expect(() => database({ ...parts, DATABASE_URL: 'postgres://a@b/c' })).toThrow(/set either a URL or the DATABASE_HOST family/);
  });

  it('refuses a bad DATABASE_PORT', () => {
    expect(() => database({ ...parts, DATABASE_PORT: 'abc' })).toThrow('DATABASE_PORT must be a port number, got "abc"');
  });

  it('reads DATABASE_SSL as true, false or a JSON object of TLS options', () => {
    const url = 'postgres://a@b/c';
    expect(database({ DATABASE_URL: url, DATABASE_SSL: 'true' })).toEqual({ kind: 'postgres', url, ssl: true });
    expect(database({ DATABASE_URL: url, DATABASE_SSL: 'false' })).toEqual({ kind: 'postgres', url, ssl: false });
    expect(database({ ...parts, DATABASE_SSL: '{"rejectUnauthorized":false}' })).toMatchObject({ ssl: { rejectUnauthorized: false } });
    expect(() => database({ DATABASE_URL: url, DATABASE_SSL: 'yes' })).toThrow(/DATABASE_SSL must be true, false or a JSON object/);
    expect(() => database({ DATABASE_URL: url, DATABASE_SSL: '[1]' })).toThrow(/DATABASE_SSL must be/);
  });

  it('reads DATABASE_POOL_MAX as an alias of DATABASE_POOL_SIZE', () => {
    const url = 'postgres://a@b/c';
    expect(database({ DATABASE_URL: url, DATABASE_POOL_MAX: '7' })).toEqual({ kind: 'postgres', url, poolSize: 7 });
    expect(database({ DATABASE_URL: url, DATABASE_POOL_SIZE: '3', DATABASE_POOL_MAX: '7' })).toEqual({ kind: 'postgres', url, poolSize: 3 });
    expect(() => database({ DATABASE_URL: url, DATABASE_POOL_MAX: '0' })).toThrow('DATABASE_POOL_MAX must be a positive integer, got "0"');
  });

  it('reads the URL from DATABASE_URL_FILE, trimmed, in preference to DATABASE_URL', async () => {
    const file = path.join(scratch, 'database-url');
    await writeFile(file, '  postgres://svc:secret@db.internal:5432/flags\n\n');
    expect(database({ DATABASE_URL_FILE: file, DATABASE_URL: 'postgres://other@x/y' })).toEqual({ kind: 'postgres', url: 'postgres://svc:secret@db.internal:5432/flags' });
  });

  it('refuses a DATABASE_URL_FILE that is missing or empty, without showing its content', async () => {
    expect(() => database({ DATABASE_URL_FILE: path.join(scratch, 'nope') })).toThrow(/DATABASE_URL_FILE names .*nope, which cannot be read \(ENOENT\)/);
    const empty = path.join(scratch, 'empty');
    await writeFile(empty, ' \n');
    expect(() => database({ DATABASE_URL_FILE: empty })).toThrow(/which is empty/);
  });

  it('stops the service at start on a partial set, and never opens the embedded database', async () => {
    const dataDir = path.join(scratch, 'partial');
    const { code, stderr } = await runWithEnv({ DATABASE_HOST: 'db.internal', DATA_DIR: dataDir });
    expect(code).not.toBe(0);
    expect(stderr).toContain('DATABASE_HOST is set but DATABASE_NAME, DATABASE_USERNAME are not');
    expect(existsSync(dataDir)).toBe(false);
  });
});
