import { asc, count, eq, sql } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { components } from '../generated/api.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { badRequest, conflict, nameExists, notFound } from '../kernel/errors.js';

type RoleRow = typeof t.roles.$inferSelect;
type RoleType = components['schemas']['Role']['type'];
type PermissionType = components['schemas']['Permission']['type'];
type UpsertRole = components['schemas']['UpsertRole'];
type CustomRoleType = UpsertRole['type'];

/** Roles of these types come with the installation (ids 1 to 6) and never change. */
const BUILT_IN_TYPES: readonly string[] = ['root', 'project'];

/** Which permission types each custom role type may hold. */
const ALLOWED_PERMISSION_TYPES: Record<CustomRoleType, readonly string[]> = {
  'root-custom': ['root'],
  custom: ['project', 'environment'],
};

/** Superuser access stays with the built-in Admin role. */
const ADMIN_PERMISSION = 'ADMIN';

/** Serialises role writes so that the case-insensitive name check cannot race another transaction. */
const ROLE_WRITE_LOCK = 4242_0101;

const roleSummary = (row: RoleRow) => ({
  id: row.id,
  type: row.type as RoleType,
  name: row.name,
  description: row.description,
});

/** The role with one entry per granted permission, ordered by permission id then environment. */
async function describeRole(db: Db, row: RoleRow) {
  const granted = await db
    .select({
      id: t.permissions.id,
      name: t.permissions.name,
      displayName: t.permissions.displayName,
      type: t.permissions.type,
      environment: t.rolePermissions.environment,
    })
    .from(t.rolePermissions)
    .innerJoin(t.permissions, eq(t.permissions.name, t.rolePermissions.permission))
    .where(eq(t.rolePermissions.roleId, row.id))
    .orderBy(asc(t.permissions.id), sql`${t.rolePermissions.environment} asc nulls first`);
  return {
    ...roleSummary(row),
    permissions: granted.map(({ environment, ...p }) => ({ ...p, type: p.type as PermissionType, ...(environment !== null && { environment }) })),
  };
}

async function requireRole(db: Db, id: number, lock = false) {
  const query = db.select().from(t.roles).where(eq(t.roles.id, id));
  // FOR UPDATE also waits for transactions that are adding rows referencing the role (they hold FOR KEY SHARE).
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound(`No role with id ${id} exists.`);
  return row;
}

function refuseBuiltIn(row: RoleRow) {
  if (BUILT_IN_TYPES.includes(row.type)) {
    throw conflict(`The role "${row.name}" is built in: built-in roles cannot be changed or deleted.`);
  }
}

/** Checks the body against the catalogue and returns the row values and the distinct grants. */
async function roleValues(db: Db, input: UpsertRole, id?: number) {
  const name = input.name.trim();
  if (!name) throw badRequest('name: must not be blank.');
  const allowed = ALLOWED_PERMISSION_TYPES[input.type];
  const catalogue = new Map((await db.select().from(t.permissions)).map((p) => [p.name, p]));
  const environments = new Set((await db.select({ name: t.environments.name }).from(t.environments)).map((e) => e.name));

  const grants = new Map<string, { permission: string; environment: string | null }>();
  input.permissions.forEach((requested, index) => {
    const field = `permissions[${index}]`;
    const permission = catalogue.get(requested.name);
    if (!permission) throw badRequest(`${field}.name: no permission named "${requested.name}" exists.`);
    if (permission.name === ADMIN_PERMISSION) {
      throw badRequest(`${field}.name: the permission ${ADMIN_PERMISSION} belongs to the built-in Admin role and cannot be granted to custom roles.`);
    }
    if (!allowed.includes(permission.type)) {
      throw badRequest(
        `${field}.name: "${permission.name}" is a ${permission.type} permission; a ${input.type} role may only hold ${allowed.join(' and ')} permissions.`,
      );
    }
    let environment: string | null = null;
    if (permission.type === 'environment') {
      if (requested.environment === undefined) {
        throw badRequest(`${field}.environment: "${permission.name}" is an environment permission and needs an environment.`);
      }
      if (!environments.has(requested.environment)) {
        throw badRequest(`${field}.environment: no environment named "${requested.environment}" exists.`);
      }
      environment = requested.environment;
    } else if (requested.environment !== undefined) {
      throw badRequest(`${field}.environment: "${permission.name}" is a ${permission.type} permission and takes no environment.`);
    }
    grants.set(JSON.stringify([permission.name, environment]), { permission: permission.name, environment });
  });

  await db.execute(sql`select pg_advisory_xact_lock(${ROLE_WRITE_LOCK})`);
  const [sameName] = await db
    .select({ id: t.roles.id, name: t.roles.name })
    .from(t.roles)
    .where(sql`lower(${t.roles.name}) = lower(${name})`);
  if (sameName && sameName.id !== id) throw nameExists(`A role named "${sameName.name}" already exists.`);

  return { row: { name, description: input.description ?? '', type: input.type }, grants: [...grants.values()] };
}

async function grant(db: Db, roleId: number, grants: { permission: string; environment: string | null }[]) {
  if (grants.length > 0) await db.insert(t.rolePermissions).values(grants.map((g) => ({ roleId, ...g })));
}

/** What holds the role, in words; empty when nothing does. */
async function usesOf(db: Db, roleId: number) {
  const counted = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  const [users, userMemberships, groupMemberships, groups, signupTokens] = await Promise.all([
    counted(db.select({ n: count() }).from(t.users).where(eq(t.users.rootRoleId, roleId))),
    counted(db.select({ n: count() }).from(t.projectUserRoles).where(eq(t.projectUserRoles.roleId, roleId))),
    counted(db.select({ n: count() }).from(t.projectGroupRoles).where(eq(t.projectGroupRoles.roleId, roleId))),
    counted(db.select({ n: count() }).from(t.groups).where(eq(t.groups.rootRoleId, roleId))),
    counted(db.select({ n: count() }).from(t.publicSignupTokens).where(eq(t.publicSignupTokens.roleId, roleId))),
  ]);
  return [
    users && `${users} user(s) hold it as their root role`,
    userMemberships && `${userMemberships} user project membership(s) use it`,
    groupMemberships && `${groupMemberships} group project membership(s) use it`,
    groups && `${groups} group(s) hold it as their root role`,
    signupTokens && `${signupTokens} public signup token(s) grant it`,
  ].filter((use): use is string => Boolean(use));
}

export const roleHandlers = {
  async getRoles(_request, { db }) {
    const rows = await db.select().from(t.roles).orderBy(asc(t.roles.id));
    return { status: 200, body: { version: 1, roles: rows.map(roleSummary) } };
  },

  async getRole({ params }, { db }) {
    return { status: 200, body: await describeRole(db, await requireRole(db, params.roleId)) };
  },

  async createRole({ body }, { change }) {
    const role = await change(async (tx, record) => {
      const values = await roleValues(tx, body);
      const [row] = await tx.insert(t.roles).values(values.row).returning();
      await grant(tx, row!.id, values.grants);
      const described = await describeRole(tx, row!);
      await record({ type: 'role-created', data: described });
      return described;
    });
    return { status: 201, body: role, headers: { location: `/api/admin/roles/${role.id}` } };
  },

  async updateRole({ params, body }, { change }) {
    const role = await change(async (tx, record) => {
      const before = await requireRole(tx, params.roleId, true);
      refuseBuiltIn(before);
      if (body.type !== before.type) {
        throw badRequest(`type: the role "${before.name}" is of type ${before.type}; a role's type cannot change (create a new role instead).`);
      }
      const preData = await describeRole(tx, before);
      const values = await roleValues(tx, body, before.id);
      const [after] = await tx.update(t.roles).set(values.row).where(eq(t.roles.id, before.id)).returning();
      await tx.delete(t.rolePermissions).where(eq(t.rolePermissions.roleId, before.id));
      await grant(tx, before.id, values.grants);
      const data = await describeRole(tx, after!);
      await record({ type: 'role-updated', data, preData });
      return data;
    });
    return { status: 200, body: role };
  },

  async deleteRole({ params }, { change }) {
    await change(async (tx, record) => {
      const before = await requireRole(tx, params.roleId, true);
      refuseBuiltIn(before);
      const uses = await usesOf(tx, before.id);
      if (uses.length > 0) {
        throw conflict(`The role "${before.name}" is in use: ${uses.join('; ')}. Assign them another role first.`);
      }
      const preData = await describeRole(tx, before);
      await tx.delete(t.roles).where(eq(t.roles.id, before.id));
      await record({ type: 'role-deleted', preData });
    });
    return { status: 200, body: undefined };
  },

  async getPermissions(_request, { db }) {
    const [rows, environments] = await Promise.all([
      db.select({ id: t.permissions.id, name: t.permissions.name, displayName: t.permissions.displayName, type: t.permissions.type })
        .from(t.permissions)
        .orderBy(asc(t.permissions.id)),
      db.select({ name: t.environments.name }).from(t.environments).orderBy(asc(t.environments.sortOrder), asc(t.environments.name)),
    ]);
    const permissions = rows.map((p) => ({ ...p, type: p.type as PermissionType }));
    const ofType = (type: PermissionType) => permissions.filter((p) => p.type === type);
    return {
      status: 200,
      body: {
        version: 2,
        permissions: {
          root: ofType('root'),
          project: ofType('project'),
          environments: environments.map(({ name }) => ({
            name,
            permissions: ofType('environment').map((p) => ({ ...p, environment: name })),
          })),
        },
      },
    };
  },
} satisfies Partial<Handlers>;
