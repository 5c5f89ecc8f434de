// User groups: looking one up, and their members.
import { asc, eq, inArray } from 'drizzle-orm';
import type { components } from '../../generated/api.js';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { notFound } from '../../kernel/errors.js';
import { describeUser } from './user-records.js';

export type GroupRow = typeof t.groups.$inferSelect;
export type GroupMember = components['schemas']['GroupMember'];

export const ROOT_ROLE_TYPES = ['root', 'root-custom'];

export async function requireGroup(db: Db, id: number): Promise<GroupRow> {
  const [row] = await db.select().from(t.groups).where(eq(t.groups.id, id));
  if (!row) throw notFound(`No group with id ${id} exists.`);
  return row;
}

/** The members of each group, in the order they joined, in the contract's shape. */
export async function membersOf(db: Db, groupIds: number[]) {
  const byGroup = new Map(groupIds.map((id) => [id, [] as GroupMember[]]));
  if (groupIds.length === 0) return byGroup;
  const rows = await db
    .select({ groupId: t.groupUsers.groupId, joinedAt: t.groupUsers.createdAt, createdBy: t.groupUsers.createdBy, user: t.users })
    .from(t.groupUsers)
    .innerJoin(t.users, eq(t.users.id, t.groupUsers.userId))
    .where(inArray(t.groupUsers.groupId, groupIds))
    .orderBy(asc(t.groupUsers.createdAt), asc(t.users.id));
  for (const row of rows) byGroup.get(row.groupId)!.push({ joinedAt: row.joinedAt.toISOString(), createdBy: row.createdBy, user: describeUser(row.user) });
  return byGroup;
}
