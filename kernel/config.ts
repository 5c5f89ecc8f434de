import { isIP } from 'node:net';
import type { DatabaseConfig } from '../db/connect.js';
import { databaseFromEnv } from './database-config.js';

export type AuthType = 'open-source' | 'none';

/** Where integrations may send, and how long their deliveries are retried. */
export interface IntegrationConfig {
  /** UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION: URLs may resolve to private, loopback or link-local addresses. */
  allowPrivateUrls: boolean;
  /** UNLEASH_ALLOW_LIST_INTEGRATION: host names (lower case) allowed whatever they resolve to. */
  allowedHosts: string[];
  /** How long a failing delivery is retried after its first attempt; then it is given up. Default 1 hour. */
  retryPeriodMs: number;
  /** The first retry's delay; each later one doubles it (with jitter), up to 5 minutes. Default 1 s. */
  retryBaseMs: number;
  /** UNLEASH_URL: the address of this service as people reach it, for links in chat messages and where identity providers send browsers back. */
  publicUrl: string;
  /** How long a worker's claim on deliveries lasts unless renewed (it renews while it works); a crashed worker's deliveries are taken over after this. */
  leaseMs: number;
  /** How often workers look for deliveries due (retries, other replicas' events). */
  pollMs: number;
}

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
  /** The longest a client may take to send a whole request (headers and body); then 408. Default 20 s. */
  requestTimeoutMs?: number;
  /** At SIGTERM, how long requests in flight may take to finish before their connections are closed. Default 10 s. */
  gracefulShutdownTimeoutMs?: number;
  /** The user created at the first start, when no user exists; a password is generated when none is given. */
  defaultAdmin?: { username: string; password?: string | undefined };
  integrations?: Partial<IntegrationConfig>;
  /** How often scheduled change requests that are due are looked for (tests make it short). Default 1 s. */
  changeRequestPollMs?: number;
  /** PROMETHEUS_API: a Prometheus whose request metrics usage metrics (`/api/admin/metrics/rps`) are read from. */
  prometheusApi?: string | undefined;
  /** SDK streams (/api/client/streaming) one instance holds; past them, new streams are asked to poll. Default 10,000. */
  clientStreamsLimit?: number;
  /** UNLEASH_FRONTEND_API_ORIGINS: the browser origins that may call the frontend API (CORS); `*` (the default) for any. */
  frontendApiOrigins?: string[];
  /** TRUST_PROXY: whose X-Forwarded-Proto and X-Forwarded-For are believed: no one (false, the default), any peer (true), or the proxies at these addresses and CIDR ranges. */
  trustProxy?: boolean | string[];
  /** SECURE_COOKIES: the session cookie is Secure whatever the protocol; otherwise only on requests that came over HTTPS. */
  secureCookies?: boolean;
  /** Where log lines go (tests capture them); standard output when absent. */
  logStream?: NodeJS.WritableStream;
  /** scrypt's cost N for new password hashes (PASSWORD_HASH_COST); default DEFAULT_PASSWORD_HASH_COST. */
  passwordHashCost?: number;
  /** Release plans and the impact metrics their safeguards watch; defaults in DEFAULT_RELEASE_CONFIG. */
  releases?: Partial<ReleaseConfig>;
}

export interface ReleaseConfig {
  /** RELEASE_PLAN_INTERVAL_MS: how often milestones due to hand over are looked for. */
  progressionPollMs: number;
  /** SAFEGUARD_INTERVAL_MS: how often the safeguards of running plans are evaluated. */
  safeguardIntervalMs: number;
  /** IMPACT_METRICS_RETENTION_DAYS, in ms: how long a minute of an impact metric is kept. */
  impactRetentionMs: number;
  /** IMPACT_METRICS_SERIES_LIMIT: label sets one metric may have; new ones past it are dropped (and logged). */
  impactSeriesLimit: number;
}

export const DEFAULT_RELEASE_CONFIG: ReleaseConfig = {
  progressionPollMs: 5000,
  safeguardIntervalMs: 15_000,
  impactRetentionMs: 7 * 86_400_000,
  impactSeriesLimit: 1000,
};

/** The release settings with their defaults filled in (tests give only what they change). */
export const releaseConfig = (config: AppConfig): ReleaseConfig => ({ ...DEFAULT_RELEASE_CONFIG, ...config.releases });

/** Every environment variable the service reads, with its default. The README's table mirrors this. */
export const environmentVariables = {
  PORT: 'Port to listen on (alias HTTP_PORT). Default 4242.',
  HOST: 'Address to listen on (alias HTTP_HOST). Default 0.0.0.0.',
  DATABASE_URL: 'PostgreSQL connection string; when unset the embedded database in DATA_DIR is used.',
  DATABASE_URL_FILE: 'A file holding the PostgreSQL connection string (trimmed); read instead of DATABASE_URL.',
  DATABASE_HOST: 'PostgreSQL host, instead of DATABASE_URL; needs DATABASE_NAME and DATABASE_USERNAME too.',
  DATABASE_PORT: 'PostgreSQL port with DATABASE_HOST. Default 5432.',
  DATABASE_NAME: 'PostgreSQL database name with DATABASE_HOST.',
  DATABASE_USERNAME: 'PostgreSQL user with DATABASE_HOST.',
  DATABASE_PASSWORD: 'PostgreSQL password with DATABASE_HOST (any characters). Default empty.',
  DATABASE_SSL: '`true`, `false` or a JSON object of TLS options (`{"rejectUnauthorized":false}`, `ca`, …) for PostgreSQL.',
  DATABASE_POOL_SIZE: 'Connections in the PostgreSQL pool (alias DATABASE_POOL_MAX). Default 10.',
  DATA_DIR: 'Folder of the embedded database. Default ./data.',
  AUTH_TYPE: '`open-source` (default: credentials required) or `none` (no credential; callers act as admin).',
  INIT_ADMIN_API_TOKENS: 'Comma-separated admin tokens (`*:*.<secret>`) created at start when missing.',
  INIT_CLIENT_API_TOKENS: 'Comma-separated client tokens (`<project>:<environment>.<secret>`) created at start when missing.',
  INIT_BACKEND_API_TOKENS: 'Alias of INIT_CLIENT_API_TOKENS; both are read.',
  INIT_FRONTEND_API_TOKENS: 'Comma-separated frontend tokens created at start when missing.',
  LOG_LEVEL: 'fatal, error, warn, info (default), debug or trace.',
  METRICS_FLUSH_INTERVAL_MS: 'How often SDK registrations and metrics, and the last use of API tokens (seenAt), are written to the database. Default 5000.',
  SIMPLE_LOGIN_LIMIT_PER_MINUTE: 'Login attempts one address may make per minute before getting 429. Default 10.',
  REQUEST_TIMEOUT_MS: 'The longest a client may take to send a whole request (headers and body) before it gets 408 and is disconnected. Default 20000.',
  GRACEFUL_SHUTDOWN_TIMEOUT: 'At SIGTERM or SIGINT, milliseconds requests in flight may take to finish; then their connections are closed and the process exits. Default 10000.',
  UNLEASH_DEFAULT_ADMIN_USERNAME: 'Username of the admin user created at the first start, when no user exists. Default admin.',
  UNLEASH_DEFAULT_ADMIN_PASSWORD: 'Its password (at least 10 characters, not a common one); generated and printed once when unset.',
  CLIENT_STREAMS_LIMIT: 'SDK streams (/api/client/streaming) one instance holds; an SDK connecting past them gets a `fetch-mode: polling` event and polls instead. Default 10000.',
  TRUST_PROXY: '`true` (every peer is a trusted proxy: only where nothing reaches the service but through one), or comma-separated addresses and CIDR ranges of the trusted proxies (`10.0.0.0/8,192.0.2.7`; `loopback`, `linklocal`, `uniquelocal`); no hop counts. A trusted proxy\'s X-Forwarded-Proto says whether the request came over HTTPS (the session cookie is then Secure), and its X-Forwarded-For is the caller\'s address (login attempts per address, SDK instances, the frontend API\'s remoteAddress). Anything else stops the start. Default: no proxy is trusted and these headers are ignored, whoever sends them.',
  SECURE_COOKIES: '`true`: the session cookie is always Secure (browsers send it back over HTTPS only), for a proxy that terminates HTTPS without sending X-Forwarded-Proto. Default false: Secure when the request came over HTTPS (see TRUST_PROXY). Unleash ties this to SECURE_HEADERS, which is not read here.',
  UNLEASH_FRONTEND_API_ORIGINS: 'Comma-separated browser origins (`https://app.example.com`) that may call the frontend API (/api/frontend); `*` for any. Default `*`.',
  PROMETHEUS_API: 'Base URL of a Prometheus that scrapes the service; usage metrics (/api/admin/metrics/rps) are read from it. Unset: from the service\'s own request counts.',
  UNLEASH_URL: 'The address people reach the service at: links in integration messages, and the address identity providers send people back to after single sign-on (set it whenever SSO is used). Default http://localhost:4242.',
  UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION: '`true`: integration URLs may resolve to private, loopback or link-local addresses. Default false.',
  UNLEASH_ALLOW_LIST_INTEGRATION: 'Comma-separated host names integrations may send to whatever they resolve to.',
  INTEGRATION_RETRY_PERIOD_MS: 'How long a failing integration delivery is retried after its first attempt before it is given up. Default 3600000 (1 hour).',
  INTEGRATION_LEASE_MS: 'How long a replica\'s claim on integration deliveries lasts unless renewed; after a crash, another replica takes its deliveries over after this. Default 10000.',
  INTEGRATION_RETRY_BASE_MS: 'The first retry delay of a failing delivery; each later one doubles it, with jitter, up to 5 minutes. Default 1000.',
  RELEASE_PLAN_INTERVAL_MS: 'How often release plan milestones due to hand over to the next are looked for. Default 5000.',
  SAFEGUARD_INTERVAL_MS: 'How often the safeguards of running release plans are evaluated. Default 15000.',
  IMPACT_METRICS_RETENTION_DAYS: 'How many days the minutes of impact metrics are kept. Default 7.',
  IMPACT_METRICS_SERIES_LIMIT: 'Label sets one impact metric may have; new ones past it are dropped and logged. Default 1000.',
  EDGE_UPSTREAM_URL: 'Starts an edge node instead: no database, serving SDKs from memory what this upstream (this service, another edge, or Unleash) answers. A database variable set with it stops the start.',
  EDGE_TOKENS: 'Comma-separated client and frontend tokens the edge serves from the start (/ready waits for them); other tokens are checked with the upstream at first use.',
  EDGE_FRONTEND_TOKENS: 'With EDGE_OFFLINE_FILE only: comma-separated frontend tokens (`<project>:<environment>.<secret>`); EDGE_TOKENS are then the client tokens.',
  EDGE_SYNC: '`auto` (default: a stream from the upstream when it offers one, polling otherwise), `streaming` or `polling`.',
  EDGE_POLL_INTERVAL_MS: 'How often the edge polls an upstream without streaming (If-None-Match). Default 10000.',
  EDGE_TOKEN_REVALIDATE_MS: 'How often the edge checks every token it serves with the upstream; a revoked one stops then. Default 30000.',
  EDGE_METRICS_INTERVAL_MS: 'How often the edge forwards what its SDKs reported to the upstream in one batch per environment. Default 15000.',
  EDGE_CACHE_DIR: 'A folder where the edge keeps its last good state; started while the upstream is away, it serves that.',
  EDGE_OFFLINE_FILE: 'A state export (GET /api/admin/state/export) the edge serves without ever calling an upstream.',
} as const;

export const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

export function port(value: string | undefined): number {
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

/** scrypt's cost N for new password hashes (PASSWORD_HASH_COST). */
export const DEFAULT_PASSWORD_HASH_COST = 16384;
export const PASSWORD_HASH_COST_RANGE = [1024, 131072] as const;

/** A power of two within PASSWORD_HASH_COST_RANGE. */
export function isPasswordHashCost(cost: number): boolean {
  const [least, most] = PASSWORD_HASH_COST_RANGE;
  return Number.isInteger(cost) && cost >= least && cost <= most && (cost & (cost - 1)) === 0;
}

function passwordHashCost(value: string | undefined): number {
  const cost = positiveInteger(value, 'PASSWORD_HASH_COST', DEFAULT_PASSWORD_HASH_COST);
  if (!isPasswordHashCost(cost)) throw new Error(`PASSWORD_HASH_COST must be a power of two from ${PASSWORD_HASH_COST_RANGE.join(' to ')}, got "${value}"`);
  return cost;
}

/** The cost of new password hashes, with its default filled in. */
export const passwordHashCostOf = (config: AppConfig): number => config.passwordHashCost ?? DEFAULT_PASSWORD_HASH_COST;

export function positiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

export function logLevel(value: string | undefined): string {
  if (value === undefined || value === '') return 'info';
  const level = value.trim().toLowerCase();
  if (!LOG_LEVELS.includes(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  return level;
}

/**
 * The origins browsers may call the frontend API from, as Unleash reads them: `*`, or origins written as browsers
 * send them (`scheme://host[:port]`, no path, no wildcard). Anything else stops the start.
 */
export function origins(value: string | undefined): string[] {
  const listed = list(value);
  if (listed.length === 0) return ['*'];
  for (const origin of listed) {
    if (origin === '*') continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (origin.includes('*') || parsed?.origin !== origin) {
      throw new Error(`UNLEASH_FRONTEND_API_ORIGINS must list * or origins such as https://app.example.com (no path or trailing slash), got "${origin}"`);
    }
  }
  return listed;
}

const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];

/** An IP address or CIDR range (`10.0.0.0/8`, `fd00::/8`), or one of proxy-addr's names for ranges. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_KEYWORDS.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

export function trustProxy(value: string | undefined): boolean | string[] {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '' || trimmed === 'false') return false;
  if (trimmed === 'true') return true;
  const listed = list(value);
  const wrong = listed.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    throw new Error(`TRUST_PROXY must be true, false, or the proxies' addresses and CIDR ranges (10.0.0.0/8,192.0.2.7); a hop count is not supported, got "${wrong}"`);
  }
  return listed;
}

/** Comfortably above any real client's upload of a 1 MB body, short enough that slow clients cannot pile up. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;
/** Streams one instance holds unless CLIENT_STREAMS_LIMIT says otherwise; past them, SDKs are told to poll. */
export const DEFAULT_CLIENT_STREAMS_LIMIT = 10_000;
/** Unleash's own default is 1 s; requests in flight here get longer to finish their transaction. */
export const DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS = 10_000;

export function flag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

export const DEFAULT_INTEGRATION_CONFIG: IntegrationConfig = {
  allowPrivateUrls: false,
  allowedHosts: [],
  retryPeriodMs: 3_600_000,
  retryBaseMs: 1000,
  publicUrl: 'http://localhost:4242',
  leaseMs: 10_000,
  pollMs: 1000,
};

function integrationsFromEnv(env: NodeJS.ProcessEnv): IntegrationConfig {
  const defaults = DEFAULT_INTEGRATION_CONFIG;
  return {
    allowPrivateUrls: flag(env.UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION, 'UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION'),
    allowedHosts: list(env.UNLEASH_ALLOW_LIST_INTEGRATION).map((host) => host.toLowerCase()),
    retryPeriodMs: positiveInteger(env.INTEGRATION_RETRY_PERIOD_MS, 'INTEGRATION_RETRY_PERIOD_MS', defaults.retryPeriodMs),
    retryBaseMs: positiveInteger(env.INTEGRATION_RETRY_BASE_MS, 'INTEGRATION_RETRY_BASE_MS', defaults.retryBaseMs),
    publicUrl: (env.UNLEASH_URL || defaults.publicUrl).replace(/\/+$/, ''),
    leaseMs: positiveInteger(env.INTEGRATION_LEASE_MS, 'INTEGRATION_LEASE_MS', defaults.leaseMs),
    pollMs: defaults.pollMs,
  };
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    port: port(env.PORT ?? env.HTTP_PORT),
    host: env.HOST ?? env.HTTP_HOST ?? '0.0.0.0',
    database: databaseFromEnv(env),
    authType: authType(env.AUTH_TYPE),
    initTokens: {
      admin: list(env.INIT_ADMIN_API_TOKENS),
      client: [...list(env.INIT_CLIENT_API_TOKENS), ...list(env.INIT_BACKEND_API_TOKENS)],
      frontend: list(env.INIT_FRONTEND_API_TOKENS),
    },
    logLevel: logLevel(env.LOG_LEVEL),
    metricsFlushMs: positiveInteger(env.METRICS_FLUSH_INTERVAL_MS, 'METRICS_FLUSH_INTERVAL_MS', 5000),
    loginLimitPerMinute: positiveInteger(env.SIMPLE_LOGIN_LIMIT_PER_MINUTE, 'SIMPLE_LOGIN_LIMIT_PER_MINUTE', 10),
    requestTimeoutMs: positiveInteger(env.REQUEST_TIMEOUT_MS, 'REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS),
    gracefulShutdownTimeoutMs: positiveInteger(env.GRACEFUL_SHUTDOWN_TIMEOUT, 'GRACEFUL_SHUTDOWN_TIMEOUT', DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS),
    defaultAdmin: { username: env.UNLEASH_DEFAULT_ADMIN_USERNAME || 'admin', password: env.UNLEASH_DEFAULT_ADMIN_PASSWORD || undefined },
    integrations: integrationsFromEnv(env),
    prometheusApi: env.PROMETHEUS_API ? env.PROMETHEUS_API.replace(/\/+$/, '') : undefined,
    clientStreamsLimit: positiveInteger(env.CLIENT_STREAMS_LIMIT, 'CLIENT_STREAMS_LIMIT', DEFAULT_CLIENT_STREAMS_LIMIT),
    frontendApiOrigins: origins(env.UNLEASH_FRONTEND_API_ORIGINS),
    trustProxy: trustProxy(env.TRUST_PROXY),
    secureCookies: flag(env.SECURE_COOKIES, 'SECURE_COOKIES'),
    passwordHashCost: passwordHashCost(env.PASSWORD_HASH_COST),
    releases: {
      progressionPollMs: positiveInteger(env.RELEASE_PLAN_INTERVAL_MS, 'RELEASE_PLAN_INTERVAL_MS', DEFAULT_RELEASE_CONFIG.progressionPollMs),
      safeguardIntervalMs: positiveInteger(env.SAFEGUARD_INTERVAL_MS, 'SAFEGUARD_INTERVAL_MS', DEFAULT_RELEASE_CONFIG.safeguardIntervalMs),
      impactRetentionMs: positiveInteger(env.IMPACT_METRICS_RETENTION_DAYS, 'IMPACT_METRICS_RETENTION_DAYS', 7) * 86_400_000,
      impactSeriesLimit: positiveInteger(env.IMPACT_METRICS_SERIES_LIMIT, 'IMPACT_METRICS_SERIES_LIMIT', DEFAULT_RELEASE_CONFIG.impactSeriesLimit),
    },
  };
}

/** The integration settings with their defaults filled in (tests give only what they change). */
export const integrationConfig = (config: AppConfig): IntegrationConfig => ({ ...DEFAULT_INTEGRATION_CONFIG, ...config.integrations });

/** UNLEASH_URL: the address people reach the service at. */
export const publicUrlOf = (config: AppConfig): string => integrationConfig(config).publicUrl;
