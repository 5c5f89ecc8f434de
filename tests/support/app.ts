import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import postgres from 'postgres';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { inject } from 'vitest';
// The client's source: `flag-service/client` resolves to the built copy in dist/ outside TypeScript's own checks.
import { createClient, type ServiceClient } from '../../client/index.js';
import { buildApp } from '../../app/app.js';
import type { AppConfig, AuthType } from '../../kernel/config.js';
import type { DatabaseConfig, Db } from '../../db/connect.js';
import { databaseUrl } from './postgres.js';
import { afterFile } from './file-end.js';
import { TEST_PASSWORD_HASH_COST } from './password-cost.js';

export const databaseKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

let postgresDatabase: Promise<string> | undefined;

/** A new PostgreSQL database, a copy of the migrated template, dropped when the file ends. */
async function newPostgresDatabase(): Promise<string> {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const name = `flag_test_${inject('postgresRun')}_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${inject('postgresTemplate')}`);
  afterFile(async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return databaseUrl(serverUrl, name);
}

/** Forgets the previous file's database: test files share this module when they share a worker (tests/support/per-file.ts). */
export function forgetFileDatabase(): void {
  postgresDatabase = undefined;
}

/** This test file's PostgreSQL database: every app the file starts shares it, unless it asks for its own. */
export function filePostgresDatabase(): Promise<string> {
  postgresDatabase ??= newPostgresDatabase();
  return postgresDatabase;
}

async function databaseConfig(ownDatabase: boolean): Promise<DatabaseConfig> {
  if (databaseKind === 'postgres') return { kind: 'postgres', url: await (ownDatabase ? newPostgresDatabase() : filePostgresDatabase()), poolSize: 4 };
  const snapshot = new Blob([await readFile(inject('pgliteSnapshot'))]);
  return { kind: 'pglite', snapshot };
}

export interface TestApp {
  url: string;
  /** The admin token the app was started with. */
  adminToken: string;
  /** A typed client acting with the admin token. */
  admin: ServiceClient;
  clientWith(token?: string): ServiceClient;
  /** Every log line the app wrote. */
  logs: string[];
  createdAdminToken: string | undefined;
  /** The generated password of the `admin` user the first start created. */
  createdAdminPassword: string | undefined;
  /** For setting up rows that no operation writes yet; behaviour is always checked through HTTP. */
  db: Db;
  close(): Promise<void>;
}

export interface TestAppOptions {
  authType?: AuthType;
  initTokens?: Partial<AppConfig['initTokens']>;
  /** Start without the test admin token, as a first start would. */
  withoutAdminToken?: boolean;
  metricsFlushMs?: number;
  /** Login attempts per minute and address; high by default so that only the rate-limit test meets the limit. */
  loginLimitPerMinute?: number;
  /** The user created when none exists (UNLEASH_DEFAULT_ADMIN_USERNAME and _PASSWORD). */
  defaultAdmin?: AppConfig['defaultAdmin'];
  /** REQUEST_TIMEOUT_MS: how long a client may take to send a whole request. */
  requestTimeoutMs?: number;
  /** Integration settings; tests' receivers listen on 127.0.0.1, so private URLs are allowed unless this says otherwise. */
  integrations?: AppConfig['integrations'];
  /** PROMETHEUS_API: the Prometheus that usage metrics are read from. */
  prometheusApi?: string;
  /** A database of its own (on PostgreSQL; on PGlite every app has its own anyway), instead of the file's shared one. */
  ownDatabase?: boolean;
  /** How often due scheduled change requests are looked for; 200 ms in tests. */
  changeRequestPollMs?: number;
  /** CLIENT_STREAMS_LIMIT: SDK streams the instance holds before asking new ones to poll. */
  clientStreamsLimit?: number;
  /** UNLEASH_FRONTEND_API_ORIGINS: the browser origins that may call the frontend API; any by default. */
  frontendApiOrigins?: string[];
  /** TRUST_PROXY: the proxies whose X-Forwarded-* headers are believed; none by default. */
  trustProxy?: AppConfig['trustProxy'];
  /** SECURE_COOKIES: the session cookie is Secure whatever the protocol. */
  secureCookies?: boolean;
  /** Release plan and impact metric settings; progression and safeguards are looked at every 200 ms unless this says otherwise. */
  releases?: AppConfig['releases'];
  /** PASSWORD_HASH_COST; TEST_PASSWORD_HASH_COST unless this says otherwise. */
  passwordHashCost?: number;
  /** UNLEASH_URL is the address the app listens at (known only once it listens): identity providers send browsers back there. */
  publicUrlIsOwnAddress?: boolean;
}

/** Listens on a free port of 127.0.0.1; closed once, by `close` or after the file. */
export async function listenUntilFileEnds(app: FastifyInstance): Promise<{ url: string; close: () => Promise<void> }> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.close();
  };
  afterFile(close);
  return { url, close };
}

/** A log stream whose lines are kept, for tests that read what was logged. */
export function capturedLogs(): { logs: string[]; logStream: Writable } {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { logs, logStream };
}

/** Builds and starts the service on this file's database, on a free port. Closed after the file. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const adminToken = `*:*.test${randomBytes(24).toString('hex')}`;
  const { logs, logStream } = capturedLogs();
  const config: AppConfig = {
    port: 0,
    host: '127.0.0.1',
    database: await databaseConfig(options.ownDatabase ?? false),
    authType: options.authType ?? 'open-source',
    initTokens: {
      admin: options.withoutAdminToken ? [] : [adminToken, ...(options.initTokens?.admin ?? [])],
      client: options.initTokens?.client ?? [],
      frontend: options.initTokens?.frontend ?? [],
    },
    logLevel: 'info',
    metricsFlushMs: options.metricsFlushMs ?? 200,
    loginLimitPerMinute: options.loginLimitPerMinute ?? 10_000,
    passwordHashCost: options.passwordHashCost ?? TEST_PASSWORD_HASH_COST,
    ...(options.defaultAdmin && { defaultAdmin: options.defaultAdmin }),
    ...(options.requestTimeoutMs && { requestTimeoutMs: options.requestTimeoutMs }),
    ...(options.prometheusApi && { prometheusApi: options.prometheusApi }),
    ...(options.clientStreamsLimit && { clientStreamsLimit: options.clientStreamsLimit }),
    ...(options.frontendApiOrigins && { frontendApiOrigins: options.frontendApiOrigins }),
    ...(options.trustProxy && { trustProxy: options.trustProxy }),
    ...(options.secureCookies && { secureCookies: options.secureCookies }),
    changeRequestPollMs: options.changeRequestPollMs ?? 200,
    releases: { progressionPollMs: 200, safeguardIntervalMs: 200, ...options.releases },
    integrations: { allowPrivateUrls: true, retryBaseMs: 50, pollMs: 200, ...options.integrations },
    logStream,
  };
  const { app, createdAdminToken, createdAdminPassword, db } = await buildApp(config);
  const { url: address, close } = await listenUntilFileEnds(app);
  // The app reads its config object at request time.
  if (options.publicUrlIsOwnAddress) config.integrations = { ...config.integrations, publicUrl: address };
  return {
    url: address,
    adminToken,
    admin: createClient(address, { token: adminToken }),
    clientWith: (token) => createClient(address, token ? { token } : {}),
    logs,
    createdAdminToken,
    createdAdminPassword,
    db,
    close,
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** A plain HTTP call, for what the typed client cannot send (wrong content types, unknown fields, no body). */
export async function call(
  app: TestApp,
  method: string,
  path: string,
  options: { token?: string | null; body?: string | object; contentType?: string | null; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const token = options.token === undefined ? app.adminToken : options.token;
  const headers: Record<string, string> = { ...options.headers };
  if (token) headers.authorization = token;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
    if (contentType) headers['content-type'] = contentType;
  }
  const response = await request(`${app.url}${path}`, { method: method as 'GET', headers, body });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

/** Asserts the contract's error shape and returns it. */
export function expectError(response: RawResponse | { response: Response; error?: unknown }, status: number, name: string) {
  const actualStatus = 'status' in response ? response.status : response.response.status;
  const body = ('json' in response ? response.json : response.error) as { id: string; name: string; message: string };
  if (actualStatus !== status || body?.name !== name) {
    throw new Error(`expected ${status} ${name}, got ${actualStatus} ${JSON.stringify(body)}`);
  }
  if (!/^[0-9a-f-]{36}$/.test(body.id) || typeof body.message !== 'string' || body.message.length === 0) {
    throw new Error(`not an Error object: ${JSON.stringify(body)}`);
  }
  return body;
}
