import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { GuardedPool } from './guarded-pool.js';
import * as schema from './schema.js';
import { applyDefaults } from './defaults.js';
import type { Db } from './types.js';

export interface PostgresConfig {
  url: string;
  poolSize?: number;
  /** DATABASE_SSL: true, false or TLS options. */
  ssl?: boolean | Record<string, unknown>;
}

/**
 * How the serving pool meets an outage: a request waits at most this long for a connection (an idle one, or a
 * new one being opened) before failing as unavailable (503), instead of queueing behind a database that is gone.
 */
export const ACQUIRE_TIMEOUT_MS = 1500;
/** Idle connections close after a minute, so that few are left over from before an outage. */
const IDLE_TIMEOUT_MS = 60_000;
/** How long the LISTEN connection waits between attempts while the database is away. */
const RELISTEN_DELAY_MS = 500;

function clientConfig(config: PostgresConfig): pg.ClientConfig {
  return {
    connectionString: config.url,
    connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS,
    keepAlive: true,
    ...(config.ssl !== undefined && { ssl: config.ssl as pg.ClientConfig['ssl'] }),
  };
}

// Serialises migrations and default rows when several replicas start on one PostgreSQL.
const migrationLockKey = 4242_0001;

/** Migrations and default rows, on one connection holding the migration lock. */
export async function preparePostgres(config: PostgresConfig, migrationsFolder: string): Promise<void> {
  const setup = new pg.Client({ ...clientConfig(config), connectionTimeoutMillis: 10_000 });
  setup.on('error', () => {});
  await setup.connect();
  try {
    await setup.query('select pg_advisory_lock($1)', [migrationLockKey]);
    const setupDb = drizzle(setup, { schema }) as unknown as Db;
    await migrate(setupDb as never, { migrationsFolder });
    await applyDefaults(setupDb);
    await setup.query('select pg_advisory_unlock($1)', [migrationLockKey]);
  } finally {
    await setup.end();
  }
}

/**
 * The serving pool (node-postgres). A connection lost mid-transaction fails that transaction and is dropped
 * from the pool; the next request opens a new one. (postgres.js, used before, ended the process with an
 * uncaught TypeError when a transaction's connection was cut, and left its pool wedged if that was caught.)
 */
export function openPostgresPool(config: PostgresConfig) {
  const pool = new GuardedPool({ ...clientConfig(config), max: config.poolSize ?? 10, idleTimeoutMillis: IDLE_TIMEOUT_MS });
  // A connection PostgreSQL closes is dropped by the pool (when idle) or fails the query or transaction that holds
  // it (when checked out); without a listener the 'error' event of a checked-out one would end the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzle(pool, { schema }) as unknown as Db;
  const listeners = new Set<pg.Client>();
  let closed = false;

  /** One connection LISTENing on `channel`, opened again (after a pause) whenever it is lost. */
  async function listen(channel: string, onNotify: (payload: string) => void): Promise<void> {
    if (!/^\w+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    const open = (): Promise<void> => {
      const client = new pg.Client(clientConfig(config));
      let lost = false;
      const retry = () => {
        if (lost) return;
        lost = true;
        listeners.delete(client);
        client.end().catch(() => {});
        if (!closed) setTimeout(() => void open().catch(() => {}), RELISTEN_DELAY_MS).unref();
      };
      client.on('error', retry);
      client.on('end', retry);
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      listeners.add(client);
      return client.connect().then(
        () => client.query(`listen ${channel}`).then(() => {}),
      ).catch((error: unknown) => {
        retry();
        throw error;
      });
    };
    await open();
  }

  async function close(): Promise<void> {
    closed = true;
    await Promise.all([...listeners].map((client) => client.end().catch(() => {})));
    await pool.end();
  }

  return { db, pool, listen, close };
}
