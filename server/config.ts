import type { DatabaseConfig } from '../db/connect.js';

export type AuthType = 'open-source' | 'none';

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  authType: AuthType;
  initTokens: { admin: string[]; client: string[]; frontend: string[] };
  logLevel: string;
  /** How often what SDKs report is written to the database. */
  metricsFlushMs: number;
  /** Login attempts one address may make per minute; more get 429. */
  loginLimitPerMinute: number;
  /** The user created at the first start, when no user exists; a password is generated when none is given. */
  defaultAdmin?: { username: string; password?: string | undefined };
  /** Where log lines go (tests capture them); standard output when absent. */
  logStream?: NodeJS.WritableStream;
}

/** Every environment variable the service reads, with its default. The README's table mirrors this. */
export const environmentVariables = {
  PORT: 'Port to listen on (alias HTTP_PORT). Default 4242.',
  HOST: 'Address to listen on (alias HTTP_HOST). Default 0.0.0.0.',
  DATABASE_URL: 'PostgreSQL connection string; when unset the embedded database in DATA_DIR is used.',
  DATABASE_POOL_SIZE: 'Connections in the PostgreSQL pool. Default 10.',
  DATA_DIR: 'Folder of the embedded database. Default ./data.',
  AUTH_TYPE: '`open-source` (default: credentials required) or `none` (no credential; callers act as admin).',
  INIT_ADMIN_API_TOKENS: 'Comma-separated admin tokens (`*:*.<secret>`) created at start when missing.',
  INIT_CLIENT_API_TOKENS: 'Comma-separated client tokens (`<project>:<environment>.<secret>`) created at start when missing.',
  INIT_BACKEND_API_TOKENS: 'Alias of INIT_CLIENT_API_TOKENS; both are read.',
  INIT_FRONTEND_API_TOKENS: 'Comma-separated frontend tokens created at start when missing.',
  LOG_LEVEL: 'fatal, error, warn, info (default), debug or trace.',
  METRICS_FLUSH_INTERVAL_MS: 'How often SDK registrations and metrics are written to the database. Default 5000.',
  SIMPLE_LOGIN_LIMIT_PER_MINUTE: 'Login attempts one address may make per minute before getting 429. Default 10.',
  UNLEASH_DEFAULT_ADMIN_USERNAME: 'Username of the admin user created at the first start, when no user exists. Default admin.',
  UNLEASH_DEFAULT_ADMIN_PASSWORD: 'Its password (at least 10 characters, not a common one); generated and printed once when unset.',
} as const;

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

function port(value: string | undefined): number {
  if (value === undefined || value === '') return 4242;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`PORT must be a port number, got "${value}"`);
  return n;
}

function authType(value: string | undefined): AuthType {
  if (value === undefined || value === '' || value === 'open-source') return 'open-source';
  if (value === 'none') return 'none';
  throw new Error(`AUTH_TYPE must be open-source or none, got "${value}"`);
}

function positiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const poolSize = env.DATABASE_POOL_SIZE ? positiveInteger(env.DATABASE_POOL_SIZE, 'DATABASE_POOL_SIZE', 10) : undefined;
  return {
    port: port(env.PORT ?? env.HTTP_PORT),
    host: env.HOST ?? env.HTTP_HOST ?? '0.0.0.0',
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize }
      : { kind: 'pglite', dataDir: env.DATA_DIR ?? './data' },
    authType: authType(env.AUTH_TYPE),
    initTokens: {
      admin: list(env.INIT_ADMIN_API_TOKENS),
      client: [...list(env.INIT_CLIENT_API_TOKENS), ...list(env.INIT_BACKEND_API_TOKENS)],
      frontend: list(env.INIT_FRONTEND_API_TOKENS),
    },
    logLevel: env.LOG_LEVEL ?? 'info',
    metricsFlushMs: positiveInteger(env.METRICS_FLUSH_INTERVAL_MS, 'METRICS_FLUSH_INTERVAL_MS', 5000),
    loginLimitPerMinute: positiveInteger(env.SIMPLE_LOGIN_LIMIT_PER_MINUTE, 'SIMPLE_LOGIN_LIMIT_PER_MINUTE', 10),
    defaultAdmin: { username: env.UNLEASH_DEFAULT_ADMIN_USERNAME || 'admin', password: env.UNLEASH_DEFAULT_ADMIN_PASSWORD || undefined },
  };
}
