import type { Db } from './types.js';

const built = new WeakMap<Db, Map<string, unknown>>();

/**
 * The query `build` makes, built once per database handle: building a drizzle query costs more than a
 * small indexed read. A transaction is a handle of its own, so inside one the query is built per use.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let queries = built.get(db);
  if (!queries) built.set(db, (queries = new Map()));
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}
