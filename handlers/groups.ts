// Groups of users: members hold the group's root role everywhere and its project roles in their projects.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { components } from '../generated/api.js';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import type { RecordEvent } from '../domain/events/event-log.js';
import { badRequest, nameExists } from '../kernel/errors.js';
import { ROOT_ROLE_TYPES, requireGroup, membersOf, type GroupMember, type GroupRow } from '../domain/access/groups.js';

type UpsertGroup = components['schemas']['UpsertGroup'];

const describeGroup = (row: GroupRow, users: GroupMember[]) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  mappingsSSO: row.mappingsSso,
  rootRole: row.rootRoleId,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  userCount: users.length,
  users,
});

async function describeGroups(db: Db, rows: GroupRow[]) {
  const members = await membersOf(db, rows.map((row) => row.id));
  return rows.map((row) => describeGroup(row, members.get(row.id)!));
}

/** What group events record: the group without its members (member changes have events of their own). */
const groupData = (row: GroupRow) => ({ id: row.id, name: row.name, description: row.description, mappingsSSO: row.mappingsSso, rootRole: row.rootRoleId });

/** Checks the body: a free name, a root role, existing users. Returns the row values and the member ids. */
async function groupValues(db: Db, body: UpsertGroup, id?: number) {
  const name = body.name.trim();
  const [clash] = await db.select({ id: t.groups.id, name: t.groups.name }).from(t.groups).where(sql`lower(${t.groups.name}) = lower(${name})`);
  if (clash && clash.id !== id) throw nameExists(`A group named "${clash.name}" already exists.`);
  if (body.rootRole != null) {
    const [role] = await db.select({ type: t.roles.type }).from(t.roles).where(eq(t.roles.id, body.rootRole));
    if (!role || !ROOT_ROLE_TYPES.includes(role.type)) throw badRequest(`rootRole: ${body.rootRole} is not the id of a root role.`);
  }
  const userIds = [...new Set((body.users ?? []).map((member) => member.user.id))];
  if (userIds.length > 0) {
    const found = new Set((await db.select({ id: t.users.id }).from(t.users).where(inArray(t.users.id, userIds))).map((u) => u.id));
    const missing = userIds.filter((userId) => !found.has(userId));
    if (missing.length > 0) throw badRequest(`users: no user with id ${missing.join(', ')} exists.`);
  }
  return {
    row: { name, description: body.description ?? null, mappingsSso: body.mappingsSSO ?? [], rootRoleId: body.rootRole ?? null },
    userIds,
  };
}

/** Makes the members exactly `userIds`, recording `group-user-added` / `group-user-removed` for each change. */
async function setMembers(tx: Db, record: RecordEvent, groupId: number, userIds: number[], createdBy: string) {
  const current = (await tx.select({ userId: t.groupUsers.userId }).from(t.groupUsers).where(eq(t.groupUsers.groupId, groupId))).map((m) => m.userId);
  const added = userIds.filter((id) => !current.includes(id));
  const removed = current.filter((id) => !userIds.includes(id));
  if (added.length > 0) await tx.insert(t.groupUsers).values(added.map((userId) => ({ groupId, userId, createdBy })));
  if (removed.length > 0) await tx.delete(t.groupUsers).where(and(eq(t.groupUsers.groupId, groupId), inArray(t.groupUsers.userId, removed)));
  for (const userId of added) await record({ type: 'group-user-added', data: { groupId, userId } });
  for (const userId of removed) await record({ type: 'group-user-removed', preData: { groupId, userId } });
}

export const groupHandlers = {
  async getGroups(_request, { db }) {
    const rows = await db.select().from(t.groups).orderBy(asc(t.groups.name));
    return { status: 200, body: { groups: await describeGroups(db, rows) } };
  },

  async getGroup({ params }, { db }) {
    const [group] = await describeGroups(db, [await requireGroup(db, params.groupId)]);
    return { status: 200, body: group! };
  },

  async createGroup({ body }, { caller, change }) {
    const group = await change(async (tx, record) => {
      const values = await groupValues(tx, body);
      const [row] = await tx.insert(t.groups).values({ ...values.row, createdBy: caller.name }).returning();
      await record({ type: 'group-created', data: groupData(row!) });
      await setMembers(tx, record, row!.id, values.userIds, caller.name);
      return (await describeGroups(tx, [row!]))[0]!;
    });
    return { status: 201, body: group, headers: { location: `/api/admin/groups/${group.id}` } };
  },

  async updateGroup({ params, body }, { caller, change }) {
    const group = await change(async (tx, record) => {
      const before = await requireGroup(tx, params.groupId);
      const values = await groupValues(tx, body, before.id);
      const [after] = await tx.update(t.groups).set(values.row).where(eq(t.groups.id, before.id)).returning();
      await record({ type: 'group-updated', data: groupData(after!), preData: groupData(before) });
      await setMembers(tx, record, before.id, values.userIds, caller.name);
      return (await describeGroups(tx, [after!]))[0]!;
    });
    return { status: 200, body: group };
  },

  async deleteGroup({ params }, { change }) {
    await change(async (tx, record) => {
      const before = await requireGroup(tx, params.groupId);
      await tx.delete(t.groups).where(eq(t.groups.id, before.id));
      await record({ type: 'group-deleted', preData: groupData(before) });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
