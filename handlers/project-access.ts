// Who holds which project roles in a project: users directly, and groups for all their members.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { components } from '../generated/api.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { requireMayGrantRoles } from '../domain/change-requests/exemption.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { membersOf, requireGroup } from '../domain/access/groups.js';
import { requireProject } from '../domain/lookups.js';
import { present } from '../kernel/present.js';
import { describeUser, requireUser } from '../domain/access/user-records.js';

type RoleType = components['schemas']['Role']['type'];

const PROJECT_ROLE_TYPES: RoleType[] = ['project', 'custom'];

const ascending = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** 400 naming the first id that is not a project role. */
async function assertProjectRoles(db: Db, roleIds: number[]) {
  if (roleIds.length === 0) return;
  const roles = await db.select({ id: t.roles.id, type: t.roles.type }).from(t.roles).where(inArray(t.roles.id, roleIds));
  const projectRoles = new Set(roles.filter((r) => (PROJECT_ROLE_TYPES as string[]).includes(r.type)).map((r) => r.id));
  const wrong = roleIds.find((id) => !projectRoles.has(id));
  if (wrong !== undefined) throw badRequest(`roles: ${wrong} is not the id of a project role (Owner 4, Member 5, Reader 6 or a custom project role).`);
}

/** 400 naming the ids of `table` that do not exist. */
async function assertExisting(db: Db, table: typeof t.users | typeof t.groups, field: string, ids: number[]) {
  if (ids.length === 0) return;
  const found = new Set((await db.select({ id: table.id }).from(table).where(inArray(table.id, ids))).map((row) => row.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) throw badRequest(`${field}: no ${field === 'users' ? 'user' : 'group'} with id ${missing.join(', ')} exists.`);
}

const userRolesIn = async (db: Db, project: string, userId: number) =>
  ascending(
    (await db.select({ roleId: t.projectUserRoles.roleId }).from(t.projectUserRoles).where(and(eq(t.projectUserRoles.project, project), eq(t.projectUserRoles.userId, userId)))).map(
      (r) => r.roleId,
    ),
  );

const groupRolesIn = async (db: Db, project: string, groupId: number) =>
  ascending(
    (await db.select({ roleId: t.projectGroupRoles.roleId }).from(t.projectGroupRoles).where(and(eq(t.projectGroupRoles.project, project), eq(t.projectGroupRoles.groupId, groupId)))).map(
      (r) => r.roleId,
    ),
  );

/** Roles held per holder id, ascending, with the earliest time one was given. */
function collectRoles<R extends { holder: number; roleId: number; createdAt: Date }>(rows: R[]) {
  const byHolder = new Map<number, { roles: number[]; addedAt: Date }>();
  for (const row of rows) {
    const entry = byHolder.get(row.holder) ?? { roles: [], addedAt: row.createdAt };
    entry.roles.push(row.roleId);
    if (row.createdAt < entry.addedAt) entry.addedAt = row.createdAt;
    byHolder.set(row.holder, entry);
  }
  for (const entry of byHolder.values()) entry.roles = ascending(entry.roles);
  return byHolder;
}

export const projectAccessHandlers = {
  async getProjectAccess({ params }, { db }) {
    const project = (await requireProject(db, params.projectId)).id;
    const [roles, userRows, groupRows] = await Promise.all([
      db.select().from(t.roles).where(inArray(t.roles.type, PROJECT_ROLE_TYPES)).orderBy(asc(t.roles.id)),
      db
        .select({ holder: t.projectUserRoles.userId, roleId: t.projectUserRoles.roleId, createdAt: t.projectUserRoles.createdAt, user: t.users })
        .from(t.projectUserRoles)
        .innerJoin(t.users, eq(t.users.id, t.projectUserRoles.userId))
        .where(eq(t.projectUserRoles.project, project))
        .orderBy(asc(t.users.id)),
      db
        .select({ holder: t.projectGroupRoles.groupId, roleId: t.projectGroupRoles.roleId, createdAt: t.projectGroupRoles.createdAt, group: t.groups })
        .from(t.projectGroupRoles)
        .innerJoin(t.groups, eq(t.groups.id, t.projectGroupRoles.groupId))
        .where(eq(t.projectGroupRoles.project, project))
        .orderBy(asc(t.groups.id)),
    ]);
    const userRoles = collectRoles(userRows);
    const groupRoles = collectRoles(groupRows);
    const users = [...new Map(userRows.map((row) => [row.holder, row.user])).values()].map((user) => {
      const { roles: held, addedAt } = userRoles.get(user.id)!;
      const { id, imageUrl } = describeUser(user);
      return { id, ...present('name', user.name), ...present('email', user.email), ...present('username', user.username), imageUrl, addedAt: addedAt.toISOString(), roleId: held[0]!, roles: held };
    });
    const groupList = [...new Map(groupRows.map((row) => [row.holder, row.group])).values()];
    const members = await membersOf(db, groupList.map((group) => group.id));
    const groups = groupList.map((group) => {
      const { roles: held, addedAt } = groupRoles.get(group.id)!;
      return {
        id: group.id,
        name: group.name,
        ...present('description', group.description),
        addedAt: addedAt.toISOString(),
        createdAt: group.createdAt.toISOString(),
        roleId: held[0]!,
        roles: held,
        mappingsSSO: group.mappingsSso,
        ...present('rootRole', group.rootRoleId),
        ...present('createdBy', group.createdBy),
        users: members.get(group.id)!,
      };
    });
    return {
      status: 200,
      body: { roles: roles.map((r) => ({ id: r.id, type: r.type as RoleType, name: r.name, description: r.description })), users, groups },
    };
  },

  async addProjectAccess({ params, body }, { caller, change }) {
    const roles = ascending(body.roles);
    const users = ascending(body.users ?? []);
    const groups = ascending(body.groups ?? []);
    await change(async (tx, record) => {
      const project = (await requireProject(tx, params.projectId)).id;
      await assertProjectRoles(tx, roles);
      await requireMayGrantRoles(tx, caller, project, roles);
      await assertExisting(tx, t.users, 'users', users);
      await assertExisting(tx, t.groups, 'groups', groups);
      const userRows = users.flatMap((userId) => roles.map((roleId) => ({ userId, project, roleId })));
      const groupRows = groups.flatMap((groupId) => roles.map((roleId) => ({ groupId, project, roleId, createdBy: caller.name })));
      const addedUsers = userRows.length ? await tx.insert(t.projectUserRoles).values(userRows).onConflictDoNothing().returning() : [];
      const addedGroups = groupRows.length ? await tx.insert(t.projectGroupRoles).values(groupRows).onConflictDoNothing().returning() : [];
      if (addedUsers.length + addedGroups.length > 0) await record({ type: 'project-access-added', project, data: { roles, users, groups } });
    });
    return { status: 200, body: undefined };
  },

  async setProjectUserRoles({ params, body }, { caller, change }) {
    const roles = ascending(body.roles);
    await change(async (tx, record) => {
      const project = (await requireProject(tx, params.projectId)).id;
      const user = await requireUser(tx, params.userId);
      await assertProjectRoles(tx, roles);
      const before = await userRolesIn(tx, project, user.id);
      const dropped = before.filter((id) => !roles.includes(id));
      if (dropped.length > 0) {
        await tx
          .delete(t.projectUserRoles)
          .where(and(eq(t.projectUserRoles.project, project), eq(t.projectUserRoles.userId, user.id), inArray(t.projectUserRoles.roleId, dropped)));
      }
      const added = roles.filter((id) => !before.includes(id));
      await requireMayGrantRoles(tx, caller, project, added);
      if (added.length > 0) await tx.insert(t.projectUserRoles).values(added.map((roleId) => ({ userId: user.id, project, roleId })));
      await record({ type: 'project-access-user-roles-updated', project, data: { roles, userId: user.id }, preData: { roles: before, userId: user.id } });
    });
    return { status: 200, body: undefined };
  },

  async removeProjectUserRoles({ params }, { change }) {
    await change(async (tx, record) => {
      const project = (await requireProject(tx, params.projectId)).id;
      const user = await requireUser(tx, params.userId);
      const before = await userRolesIn(tx, project, user.id);
      if (before.length === 0) throw notFound(`The user ${user.id} holds no role in the project "${project}".`);
      await tx.delete(t.projectUserRoles).where(and(eq(t.projectUserRoles.project, project), eq(t.projectUserRoles.userId, user.id)));
      await record({ type: 'project-access-user-roles-deleted', project, preData: { roles: before, userId: user.id } });
    });
    return { status: 200, body: undefined };
  },

  async setProjectGroupRoles({ params, body }, { caller, change }) {
    const roles = ascending(body.roles);
    await change(async (tx, record) => {
      const project = (await requireProject(tx, params.projectId)).id;
      const group = await requireGroup(tx, params.groupId);
      await assertProjectRoles(tx, roles);
      const before = await groupRolesIn(tx, project, group.id);
      const dropped = before.filter((id) => !roles.includes(id));
      if (dropped.length > 0) {
        await tx
          .delete(t.projectGroupRoles)
          .where(and(eq(t.projectGroupRoles.project, project), eq(t.projectGroupRoles.groupId, group.id), inArray(t.projectGroupRoles.roleId, dropped)));
      }
      const added = roles.filter((id) => !before.includes(id));
      await requireMayGrantRoles(tx, caller, project, added);
      if (added.length > 0) await tx.insert(t.projectGroupRoles).values(added.map((roleId) => ({ groupId: group.id, project, roleId, createdBy: caller.name })));
      await record({ type: 'project-access-group-roles-updated', project, data: { roles, groupId: group.id }, preData: { roles: before, groupId: group.id } });
    });
    return { status: 200, body: undefined };
  },

  async removeProjectGroupRoles({ params }, { change }) {
    await change(async (tx, record) => {
      const project = (await requireProject(tx, params.projectId)).id;
      const group = await requireGroup(tx, params.groupId);
      const before = await groupRolesIn(tx, project, group.id);
      if (before.length === 0) throw notFound(`The group ${group.id} holds no role in the project "${project}".`);
      await tx.delete(t.projectGroupRoles).where(and(eq(t.projectGroupRoles.project, project), eq(t.projectGroupRoles.groupId, group.id)));
      await record({ type: 'project-access-group-roles-deleted', project, preData: { roles: before, groupId: group.id } });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
