import { existsSync } from 'node:fs';
import path from 'node:path';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema.js';
import { withAcquireTimeout } from './acquire-deadline.js';
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

/**
 * PGlite's start options. Its postgres defaults to shared_buffers = 128MB, and the pool is resident from the
 * start (the process's RSS follows the setting one to one): ~130 MB and ~1 s of every start for a database of a
 * few MB that the operating system's page cache holds anyway (PGlite reads its files through Node's fs). 16MB
 * holds the service's working set; the client API is answered from memory. Durability stays PGlite's own (no
 * `relaxedDurability`: a commit is in the files before it returns), so a kill -9 loses no committed write.
 */
function pgliteOptions(PGlite: { defaultStartParams: string[] }) {
  return { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] };
}

async function openPglite(config: { dataDir?: string; snapshot?: Blob }): Promise<Database> {
  const { PGlite, drizzlePglite, migratePglite } = await pgliteModules();
  const release = config.dataDir ? await lockDataDir(config.dataDir) : () => {};
  try {
    const options = pgliteOptions(PGlite);
    const dataDir = config.dataDir ? path.resolve(config.dataDir) : undefined;
    if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) {
      // A new database: the PGlite that creates it keeps initdb's WebAssembly memory (~400 MB) for as long as it
      // lives, so it only creates the database, and a fresh instance serves it.
      const creator = new PGlite(dataDir, options);
      await creator.waitReady;
      await creator.close();
    }
    const client = config.snapshot ? new PGlite({ ...options, loadDataDir: config.snapshot }) : new PGlite(dataDir, options);
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

/**
 * How the serving pool meets an outage. postgres.js's defaults wait up to 30 s for a connection and, after
 * failures, delay every reconnection by a backoff shared by the pool that grows to 20 s (3^failures / 100 s),
 * so requests hung for seconds and the first one after PostgreSQL came back waited that delay out. Here a
 * connection attempt gives up after 2 s, reconnection waits at most 0.5 s (never 0: the LISTEN connection
 * retries by itself and must not spin), and idle connections close after a minute so that none left over from
 * before an outage is handed out. Failures become 503 in server/errors.ts.
 * Also `fetch_types: false`: by default each new connection first reads the array types, and a connection cut
 * during that read rejects a promise postgres.js never handles, which ends the process. The pool starts from
 * the setup connection's parsed options instead, whose array types were read once at start.
 */
const outageBounds = {
  connect_timeout: 2,
  backoff: (failures: number) => Math.min(0.05 * 2 ** failures, 0.5),
  idle_timeout: 60,
  fetch_types: false,
} satisfies postgres.Options<{}>;

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
  // Parsed options (with `shared`) are taken as they are: the array types the setup connection read come along.
  const client = postgres({ ...setup.options, max: config.poolSize ?? 10, ...outageBounds } as unknown as postgres.Options<{}>);
  const db = drizzlePostgres(withAcquireTimeout(client), { schema }) as unknown as Db;
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
  const client = new PGlite(pgliteOptions(PGlite));
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  await applyDefaults(db);
  const snapshot = await client.dumpDataDir('none');
  await client.close();
  return snapshot;
}
