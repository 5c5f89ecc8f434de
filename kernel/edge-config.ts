// An edge node's settings: EDGE_UPSTREAM_URL (or EDGE_OFFLINE_FILE) starts the same program without a database.
import {
  DEFAULT_CLIENT_STREAMS_LIMIT,
  DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  list,
  logLevel,
  origins,
  port,
  positiveInteger,
  trustProxy,
  type AppConfig,
} from './config.js';

export type EdgeSync = 'auto' | 'streaming' | 'polling';

export interface EdgeSettings {
  /** Where flags and token checks come from; absent with an offline file. */
  upstreamUrl: string | undefined;
  /** Tokens served from the start. */
  tokens: string[];
  /** Offline only: the frontend tokens (EDGE_TOKENS are then client tokens). */
  frontendTokens: string[];
  sync: EdgeSync;
  pollMs: number;
  tokenRevalidateMs: number;
  metricsIntervalMs: number;
  cacheDir: string | undefined;
  offlineFile: string | undefined;
}

/** What an edge shares with the service's settings, plus its own. */
export type EdgeConfig = Pick<
  AppConfig,
  'port' | 'host' | 'logLevel' | 'requestTimeoutMs' | 'gracefulShutdownTimeoutMs' | 'clientStreamsLimit' | 'frontendApiOrigins' | 'trustProxy' | 'logStream'
> & { edge: EdgeSettings };

/** The variables that choose a database: none of them may be set on an edge. */
const DATABASE_VARIABLES = [
  'DATABASE_URL',
  'DATABASE_URL_FILE',
  'DATABASE_HOST',
  'DATABASE_PORT',
  'DATABASE_NAME',
  'DATABASE_USERNAME',
  'DATABASE_PASSWORD',
  'DATABASE_SSL',
  'DATABASE_POOL_SIZE',
  'DATABASE_POOL_MAX',
  'DATA_DIR',
];

const SYNC_MODES: EdgeSync[] = ['auto', 'streaming', 'polling'];

function upstreamUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`EDGE_UPSTREAM_URL must be an http or https URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`EDGE_UPSTREAM_URL must be an http or https URL, got "${value}"`);
  return url.href.replace(/\/+$/, '');
}

/** The edge's settings when EDGE_UPSTREAM_URL or EDGE_OFFLINE_FILE is set; undefined for the service itself. */
export function edgeConfigFromEnv(env: NodeJS.ProcessEnv = process.env): EdgeConfig | undefined {
  const upstream = env.EDGE_UPSTREAM_URL || undefined;
  const offlineFile = env.EDGE_OFFLINE_FILE || undefined;
  if (upstream === undefined && offlineFile === undefined) return undefined;
  const mode = upstream !== undefined ? 'EDGE_UPSTREAM_URL' : 'EDGE_OFFLINE_FILE';
  if (upstream !== undefined && offlineFile !== undefined) throw new Error('EDGE_UPSTREAM_URL and EDGE_OFFLINE_FILE are both set: an edge either follows an upstream or serves a file');
  const databaseSet = DATABASE_VARIABLES.filter((name) => env[name] !== undefined && env[name] !== '');
  if (databaseSet.length > 0) {
    throw new Error(`${mode} starts an edge node, which has no database, but ${databaseSet.join(', ')} ${databaseSet.length === 1 ? 'is' : 'are'} set: unset ${databaseSet.length === 1 ? 'it' : 'them'}, or unset ${mode} to start the service`);
  }
  const sync = (env.EDGE_SYNC || 'auto') as EdgeSync;
  if (!SYNC_MODES.includes(sync)) throw new Error(`EDGE_SYNC must be auto, streaming or polling, got "${env.EDGE_SYNC}"`);
  const tokens = list(env.EDGE_TOKENS);
  const frontendTokens = list(env.EDGE_FRONTEND_TOKENS);
  if (frontendTokens.length > 0 && offlineFile === undefined) throw new Error('EDGE_FRONTEND_TOKENS is read with EDGE_OFFLINE_FILE only: with an upstream, list every token in EDGE_TOKENS (the upstream says which kind each is)');
  if (offlineFile !== undefined && tokens.length + frontendTokens.length === 0) throw new Error('EDGE_OFFLINE_FILE needs the tokens it may serve: EDGE_TOKENS (client) and/or EDGE_FRONTEND_TOKENS');
  return {
    port: port(env.PORT ?? env.HTTP_PORT),
    host: env.HOST ?? env.HTTP_HOST ?? '0.0.0.0',
    logLevel: logLevel(env.LOG_LEVEL),
    requestTimeoutMs: positiveInteger(env.REQUEST_TIMEOUT_MS, 'REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS),
    gracefulShutdownTimeoutMs: positiveInteger(env.GRACEFUL_SHUTDOWN_TIMEOUT, 'GRACEFUL_SHUTDOWN_TIMEOUT', DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS),
    clientStreamsLimit: positiveInteger(env.CLIENT_STREAMS_LIMIT, 'CLIENT_STREAMS_LIMIT', DEFAULT_CLIENT_STREAMS_LIMIT),
    frontendApiOrigins: origins(env.UNLEASH_FRONTEND_API_ORIGINS),
    trustProxy: trustProxy(env.TRUST_PROXY),
    edge: {
      upstreamUrl: upstream === undefined ? undefined : upstreamUrl(upstream),
      tokens,
      frontendTokens,
      sync,
      pollMs: positiveInteger(env.EDGE_POLL_INTERVAL_MS, 'EDGE_POLL_INTERVAL_MS', 10_000),
      tokenRevalidateMs: positiveInteger(env.EDGE_TOKEN_REVALIDATE_MS, 'EDGE_TOKEN_REVALIDATE_MS', 30_000),
      metricsIntervalMs: positiveInteger(env.EDGE_METRICS_INTERVAL_MS, 'EDGE_METRICS_INTERVAL_MS', 15_000),
      cacheDir: env.EDGE_CACHE_DIR || undefined,
      offlineFile,
    },
  };
}
