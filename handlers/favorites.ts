// A user's favourite flags and projects: search ranks favourite flags first when asked, and the answers that show a
// flag or a project say whether the caller marked it.
import { and, eq } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import * as t from '../db/schema.js';
import { userIdOf, type Caller } from '../shared/caller.js';
import { badRequest } from '../kernel/errors.js';
import { requireActiveFeature } from '../domain/flags/feature-view.js';
import { requireProject } from '../domain/lookups.js';

function favoringUser(caller: Caller): number {
  const userId = userIdOf(caller);
  if (userId === undefined) throw badRequest('Favourites belong to users: log in, or use a personal access token.');
  return userId;
}

/** Which of the flags the user marked as favourites (none for callers that are not users). */
export const favoriteHandlers = {
  async favoriteFeature({ params }, { caller, change }) {
    const userId = favoringUser(caller);
    await change(async (tx, record) => {
      const feature = await requireActiveFeature(tx, (await requireProject(tx, params.projectId)).id, params.featureName);
      const added = await tx.insert(t.favoriteFeatures).values({ userId, featureName: feature.name }).onConflictDoNothing().returning();
      if (added.length > 0) await record({ type: 'feature-favorited', project: feature.project, featureName: feature.name, data: { feature: feature.name } });
    });
    return { status: 200, body: undefined };
  },

  async unfavoriteFeature({ params }, { caller, change }) {
    const userId = favoringUser(caller);
    await change(async (tx, record) => {
      const feature = await requireActiveFeature(tx, (await requireProject(tx, params.projectId)).id, params.featureName);
      const removed = await tx
        .delete(t.favoriteFeatures)
        .where(and(eq(t.favoriteFeatures.userId, userId), eq(t.favoriteFeatures.featureName, feature.name)))
        .returning();
      if (removed.length > 0) await record({ type: 'feature-unfavorited', project: feature.project, featureName: feature.name, data: { feature: feature.name } });
    });
    return { status: 200, body: undefined };
  },

  async favoriteProject({ params }, { caller, change }) {
    const userId = favoringUser(caller);
    await change(async (tx, record) => {
      const project = (await requireProject(tx, params.projectId)).id;
      const added = await tx.insert(t.favoriteProjects).values({ userId, project }).onConflictDoNothing().returning();
      if (added.length > 0) await record({ type: 'project-favorited', project, data: { project } });
    });
    return { status: 200, body: undefined };
  },

  async unfavoriteProject({ params }, { caller, change }) {
    const userId = favoringUser(caller);
    await change(async (tx, record) => {
      const project = (await requireProject(tx, params.projectId)).id;
      const removed = await tx
        .delete(t.favoriteProjects)
        .where(and(eq(t.favoriteProjects.userId, userId), eq(t.favoriteProjects.project, project)))
        .returning();
      if (removed.length > 0) await record({ type: 'project-unfavorited', project, data: { project } });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
