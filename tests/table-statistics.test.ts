// The planner's statistics of the flag tables are kept fresh by the service itself: the embedded database never
// runs autovacuum, and without statistics a search over thousands of flags plans as if the tables were empty.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { ok, until } from './support/fixtures.js';
import { importDocument } from './support/state.js';

async function featuresStatistics(app: TestApp) {
  const result = await app.db.execute(sql`select last_analyze as "lastAnalyze", n_mod_since_analyze as "modified" from pg_stat_user_tables where relname = 'features'`);
  // node-postgres answers { rows }, PGlite the rows themselves.
  const rows = (result as { rows?: unknown[] }).rows ?? (result as unknown[]);
  const [row] = rows as { lastAnalyze: Date | string | null; modified: number | string }[];
  return { lastAnalyze: row?.lastAnalyze ? new Date(row.lastAnalyze).getTime() : 0, modified: Number(row?.modified ?? 0) };
}

const flags = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({ name: `${prefix}-${i}`, project: 'default', environments: [{ name: 'development', enabled: i % 2 === 0, strategies: [] }] }));

describe('table statistics', () => {
  it('are gathered when the service starts', async () => {
    const app = await startTestApp({ ownDatabase: true });
    await until('features analysed', () => featuresStatistics(app), (s) => s.lastAnalyze > 0);
  });

  it('are gathered again after hundreds of flags were written', async () => {
    const app = await startTestApp({ ownDatabase: true });
    const before = await until('features analysed', () => featuresStatistics(app), (s) => s.lastAnalyze > 0);
    await ok(importDocument(app, { version: 2, features: flags(600, 'statistics.bulk') }), 202);
    const after = await until('features analysed again', () => featuresStatistics(app), (s) => s.lastAnalyze > before.lastAnalyze, 20_000);
    expect(after.modified).toBe(0);
  });

});
