// A flag's lifecycle stages: entering and leaving them as the flag changes, and where each flag stands.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { isAnyOf } from '../../db/any-of.js';
import { prepared } from '../../db/prepared.js';
import * as t from '../../db/schema.js';
import type { LifecycleStageName } from '../../db/schema.js';

type StageRow = typeof t.featureLifecycles.$inferSelect;

const stageRank: Record<LifecycleStageName, number> = { initial: 0, 'pre-live': 1, live: 2, completed: 3, archived: 4 };

export const byRank = (a: StageRow, b: StageRow) => stageRank[a.stage] - stageRank[b.stage];

async function stagesOf(db: Db, featureName: string) {
  return db.select().from(t.featureLifecycles).where(eq(t.featureLifecycles.featureName, featureName));
}

/** Moves the flag into `stage` unless it is already there or further on (archiving always applies). */
export async function enterStage(tx: Db, featureName: string, stage: LifecycleStageName, at = new Date()): Promise<void> {
  const stages = await stagesOf(tx, featureName);
  const furthest = Math.max(-1, ...stages.map((s) => stageRank[s.stage]));
  if (stage !== 'archived' && furthest >= stageRank[stage]) return;
  await tx.insert(t.featureLifecycles).values({ featureName, stage, createdAt: at }).onConflictDoNothing();
}

export async function leaveStage(tx: Db, featureName: string, stage: LifecycleStageName): Promise<StageRow | undefined> {
  const [left] = await tx
    .delete(t.featureLifecycles)
    .where(and(eq(t.featureLifecycles.featureName, featureName), eq(t.featureLifecycles.stage, stage)))
    .returning();
  return left;
}

/** Enabling a flag takes it live in a production environment, pre-live in any other. */
export async function enterEnabledStage(tx: Db, featureName: string, environment: string): Promise<void> {
  const [env] = await tx.select({ type: t.environments.type }).from(t.environments).where(eq(t.environments.name, environment));
  await enterStage(tx, featureName, env?.type === 'production' ? 'live' : 'pre-live');
}

/** The stage each flag is in now, with its completion status. */
export async function currentStages(db: Db, featureNames: string[]) {
  const stagesOfFlags = prepared(db, 'stagesOf', (db) =>
    db.select().from(t.featureLifecycles).where(isAnyOf(t.featureLifecycles.featureName, sql.placeholder('names'))).prepare('stagesOf'),
  );
  const rows = featureNames.length ? await stagesOfFlags.execute({ names: featureNames }) : [];
  const current = new Map<string, StageRow>();
  for (const row of rows) {
    const held = current.get(row.featureName);
    if (!held || byRank(row, held) > 0) current.set(row.featureName, row);
  }
  return new Map(
    [...current].map(([name, row]) => [
      name,
      {
        stage: row.stage,
        enteredStageAt: row.createdAt.toISOString(),
        ...(row.status !== null && { status: row.status }),
        ...(row.statusValue !== null && { statusValue: row.statusValue }),
      },
    ]),
  );
}
