// Which database the service uses, from Unleash's environment variables.
import { readFileSync } from 'node:fs';
import type { DatabaseConfig } from '../db/connect.js';

type Env = NodeJS.ProcessEnv;

/** Unleash's variables that describe a PostgreSQL server piece by piece, instead of one DATABASE_URL. */
const PARTS = ['DATABASE_HOST', 'DATABASE_PORT', 'DATABASE_NAME', 'DATABASE_USERNAME', 'DATABASE_PASSWORD'] as const;
/** The parts without which no connection can be made (the port defaults to 5432, the password may be empty). */
const REQUIRED_PARTS = ['DATABASE_HOST', 'DATABASE_NAME', 'DATABASE_USERNAME'] as const;

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

function poolSize(env: Env): number | undefined {
  const [name, value] = given(env.DATABASE_POOL_SIZE) ? ['DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE] : ['DATABASE_POOL_MAX', env.DATABASE_POOL_MAX];
  if (!given(value)) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/** `true`, `false`, or a JSON object of TLS options (ca, cert, key, rejectUnauthorized, …), as Unleash reads it. */
function ssl(value: string | undefined): boolean | Record<string, unknown> | undefined {
  if (!given(value)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed === 'boolean' || (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))) {
    return parsed as boolean | Record<string, unknown>;
  }
  throw new Error('DATABASE_SSL must be true, false or a JSON object of TLS options (e.g. {"rejectUnauthorized":false})');
}

function urlFromFile(file: string): string {
  let url: string;
  try {
    url = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new Error(`DATABASE_URL_FILE names ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (url === '') throw new Error(`DATABASE_URL_FILE names ${file}, which is empty`);
  return url;
}

function urlFromParts(env: Env): string {
  const missing = REQUIRED_PARTS.filter((name) => !given(env[name]));
  if (missing.length > 0) {
    const set = PARTS.filter((name) => given(env[name]));
    throw new Error(
      `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not: ` +
        'set all of DATABASE_HOST, DATABASE_NAME and DATABASE_USERNAME (DATABASE_PORT and DATABASE_PASSWORD are optional), or DATABASE_URL',
    );
  }
  const portText = env.DATABASE_PORT;
  const port = given(portText) ? Number(portText) : 5432;
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`DATABASE_PORT must be a port number, got "${portText}"`);
  const host = env.DATABASE_HOST!.includes(':') && !env.DATABASE_HOST!.startsWith('[') ? `[${env.DATABASE_HOST}]` : env.DATABASE_HOST!;
  const password = given(env.DATABASE_PASSWORD) ? `:${encodeURIComponent(env.DATABASE_PASSWORD)}` : '';
  return `postgres://${encodeURIComponent(env.DATABASE_USERNAME!)}${password}@${host}:${port}/${encodeURIComponent(env.DATABASE_NAME!)}`;
}

/**
 * PostgreSQL from DATABASE_URL_FILE, DATABASE_URL or the DATABASE_HOST family; the embedded database in
 * DATA_DIR only when none of them is set. A partial or contradictory set is an error, never the embedded default.
 */
export function databaseFromEnv(env: Env): DatabaseConfig {
  const parts = PARTS.filter((name) => given(env[name]));
  const urlSources = (['DATABASE_URL_FILE', 'DATABASE_URL'] as const).filter((name) => given(env[name]));
  if (urlSources.length > 0 && parts.length > 0) {
    throw new Error(`${urlSources.join(' and ')} and ${parts.join(', ')} are all set: set either a URL or the DATABASE_HOST family, not both`);
  }
  const url = given(env.DATABASE_URL_FILE) ? urlFromFile(env.DATABASE_URL_FILE) : given(env.DATABASE_URL) ? env.DATABASE_URL : parts.length > 0 ? urlFromParts(env) : undefined;
  const pool = poolSize(env);
  const tls = ssl(env.DATABASE_SSL);
  if (url === undefined) {
    const modifiers = (['DATABASE_SSL', 'DATABASE_POOL_SIZE', 'DATABASE_POOL_MAX'] as const).filter((name) => given(env[name]));
    if (modifiers.length > 0) {
      throw new Error(`${modifiers.join(', ')} ${modifiers.length === 1 ? 'is' : 'are'} set but no PostgreSQL database is: set DATABASE_URL or DATABASE_HOST, DATABASE_NAME and DATABASE_USERNAME, or unset ${modifiers.join(', ')} to use the embedded database`);
    }
    return { kind: 'pglite', dataDir: env.DATA_DIR || './data' };
  }
  return { kind: 'postgres', url, ...(pool !== undefined && { poolSize: pool }), ...(tls !== undefined && { ssl: tls }) };
}
