// Which flags and projects a user has marked as favourites.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { isAnyOf } from '../../db/any-of.js';
import * as t from '../../db/schema.js';

export async function favoriteFlagsAmong(db: Db, names: string[], userId: number | undefined): Promise<Set<string>> {
  if (userId === undefined || names.length === 0) return new Set();
  const rows = await db
    .select({ name: t.favoriteFeatures.featureName })
    .from(t.favoriteFeatures)
    .where(and(eq(t.favoriteFeatures.userId, userId), isAnyOf(t.favoriteFeatures.featureName, names)));
  return new Set(rows.map((r) => r.name));
}

/** The projects the user marked as favourites (none for callers that are not users). */
export async function favoriteProjectsOf(db: Db, userId: number | undefined): Promise<Set<string>> {
  if (userId === undefined) return new Set();
  const rows = await db.select({ project: t.favoriteProjects.project }).from(t.favoriteProjects).where(eq(t.favoriteProjects.userId, userId));
  return new Set(rows.map((r) => r.project));
}
