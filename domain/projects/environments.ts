// Which environments a project has.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';

export async function attachEnvironments(tx: Db, project: string, environments: string[]) {
  if (environments.length === 0) return;
  await tx.insert(t.projectEnvironments).values(environments.map((environment) => ({ project, environment }))).onConflictDoNothing();
  const flags = await tx.select({ name: t.features.name }).from(t.features).where(eq(t.features.project, project));
  const rows = flags.flatMap((f) => environments.map((environment) => ({ featureName: f.name, environment })));
  if (rows.length > 0) await tx.insert(t.featureEnvironments).values(rows).onConflictDoNothing();
}
