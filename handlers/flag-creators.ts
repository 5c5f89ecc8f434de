import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import * as t from '../db/schema.js';
import { requireProject } from '../domain/lookups.js';
import { displayName } from '../domain/access/user-records.js';

export const flagCreatorHandlers = {
  /** Users who created a flag of the project that is not archived; flags created by API tokens have no user row. */
  async getFlagCreators({ params }, { db }) {
    const project = (await requireProject(db, params.projectId)).id;
    const rows = await db
      .selectDistinct({ id: t.users.id, name: t.users.name, username: t.users.username, email: t.users.email })
      .from(t.features)
      .innerJoin(t.users, eq(t.users.id, t.features.createdByUserId))
      .where(and(eq(t.features.project, project), isNull(t.features.archivedAt)))
      .orderBy(asc(t.users.id));
    return { status: 200, body: rows.map((user) => ({ id: user.id, name: displayName(user) })) };
  },
} satisfies Partial<Handlers>;
