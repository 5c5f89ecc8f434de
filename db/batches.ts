import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './types.js';

/** Rows one INSERT writes at most: well below PostgreSQL's 65,535 parameters for the widest table. */
export const INSERT_BATCH = 1000;

/** Inserts many rows, a batch per statement; rows that would conflict with existing ones are skipped. */
export async function insertInBatches<T extends PgTable>(tx: Db, table: T, rows: T['$inferInsert'][]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await tx.insert(table).values(rows.slice(start, start + INSERT_BATCH)).onConflictDoNothing();
  }
}
