import { existsSync } from 'node:fs';
import path from 'node:path';
import * as schema from './schema.js';
import { applyDefaults } from './defaults.js';
import { lockDataDir } from './data-dir-lock.js';
import { projectRoot } from './project-root.js';
import { openPostgresPool, preparePostgres, type PostgresConfig } from './postgres-pool.js';
import type { Db } from './types.js';
import { countWrites, type WriteCount } from './write-count.js';

export type { Db, DbOrTx } from './types.js';

export type DatabaseConfig =
  | { kind: 'pglite'; dataDir?: string; snapshot?: Blob }
  | ({ kind: 'postgres' } & PostgresConfig);

export interface Database {
  db: Db;
  kind: DatabaseConfig['kind'];
  /** The writes this process has made visible, for answers kept until the data changes. */
  writes: WriteCount;
  /** PostgreSQL only: runs `onNotify` for every NOTIFY on `channel` (reconnecting by itself). */
  listen?(channel: string, onNotify: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(projectRoot, 'db', 'migrations');

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
      writes: countWrites(db, client, ['query', 'exec']),
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

async function openPostgres(config: PostgresConfig): Promise<Database> {
  await preparePostgres(config, migrationsFolder);
  const { db, pool, listen, close } = openPostgresPool(config);
  return { db, kind: 'postgres', writes: countWrites(db, pool, ['query']), listen, close };
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
