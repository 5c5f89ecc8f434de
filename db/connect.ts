import path from 'node:path';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema.js';
import { applyDefaults } from './defaults.js';
import { lockDataDir } from './data-dir-lock.js';
import { projectRoot } from './project-root.js';
import type { Db } from './types.js';

export type { Db, DbOrTx } from './types.js';

export type DatabaseConfig =
  | { kind: 'pglite'; dataDir?: string; snapshot?: Blob }
  | { kind: 'postgres'; url: string; poolSize?: number; /** DATABASE_SSL: true, false or TLS options. */ ssl?: boolean | Record<string, unknown> };

export interface Database {
  db: Db;
  kind: DatabaseConfig['kind'];
  /** PostgreSQL only: runs `onNotify` for every NOTIFY on `channel` (reconnecting by itself). */
  listen?(channel: string, onNotify: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(projectRoot, 'db', 'migrations');
// Serialises migrations and default rows when several replicas start on one PostgreSQL.
const migrationLockKey = 4242_0001;

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.kind === 'pglite' ? openPglite(config) : openPostgres(config);
}

/** Loaded only when the embedded database is used: a PostgreSQL deployment never pays for it. */
async function pgliteModules() {
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  return { PGlite, drizzlePglite, migratePglite };
}

async function openPglite(config: { dataDir?: string; snapshot?: Blob }): Promise<Database> {
  const { PGlite, drizzlePglite, migratePglite } = await pgliteModules();
  const release = config.dataDir ? await lockDataDir(config.dataDir) : () => {};
  try {
    const client = config.snapshot
      ? new PGlite({ loadDataDir: config.snapshot })
      : new PGlite(config.dataDir ? path.resolve(config.dataDir) : undefined);
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    await applyDefaults(db);
    return {
      db,
      kind: 'pglite',
      async close() {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

async function openPostgres(config: { url: string; poolSize?: number; ssl?: boolean | Record<string, unknown> }): Promise<Database> {
  const ssl = config.ssl === undefined ? {} : { ssl: config.ssl as postgres.Options<{}>['ssl'] };
  const setup = postgres(config.url, { max: 1, onnotice: () => {}, ...ssl });
  try {
    await setup`select pg_advisory_lock(${migrationLockKey})`;
    const setupDb = drizzlePostgres(setup, { schema });
    await migratePostgres(setupDb, { migrationsFolder });
    await applyDefaults(setupDb as unknown as Db);
    await setup`select pg_advisory_unlock(${migrationLockKey})`;
  } finally {
    await setup.end();
  }
  const client = postgres(config.url, { max: config.poolSize ?? 10, onnotice: () => {}, ...ssl });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async listen(channel, onNotify) {
      await client.listen(channel, onNotify);
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}

/** A migrated embedded database with its default rows, as a tarball a PGlite can start from. */
export async function createPgliteSnapshot(): Promise<Blob> {
  const { PGlite, drizzlePglite, migratePglite } = await pgliteModules();
  const client = new PGlite();
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  await applyDefaults(db);
  const snapshot = await client.dumpDataDir('none');
  await client.close();
  return snapshot;
}
