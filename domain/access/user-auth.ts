// Users as callers: login sessions (a cookie) and personal access tokens (`user:<hex>`), each turned into
// a Caller holding the permissions of the user's root role, groups and project roles.
import { randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { Db } from '../../db/connect.js';
import { ROOT_ROLE_PROJECT } from '../../db/default-permissions.js';
import * as t from '../../db/schema.js';
import type { Caller, Grant } from '../../shared/caller.js';
import { assertPasswordPolicy, generatePassword, hashPassword } from './passwords.js';
import { hashSecret } from './tokens.js';

export const SESSION_COOKIE = 'flag-session';
const SESSION_TTL_MS = 48 * 3_600_000;
export const PAT_PREFIX = 'user:';

type UserRow = typeof t.users.$inferSelect;

/** The permissions a user holds: root role and group root roles everywhere, project roles in their project. */
async function grantsOf(db: Db, user: UserRow): Promise<Grant[]> {
  const rp = t.rolePermissions;
  const rootGrant = { permission: rp.permission, environment: rp.environment, type: t.permissions.type };
  const [rootGrants, groupRootGrants, projectGrants, groupProjectGrants] = await Promise.all([
    db.select(rootGrant).from(rp).innerJoin(t.permissions, eq(t.permissions.name, rp.permission)).where(eq(rp.roleId, user.rootRoleId)),
    db
      .select(rootGrant)
      .from(t.groupUsers)
      .innerJoin(t.groups, eq(t.groups.id, t.groupUsers.groupId))
      .innerJoin(rp, eq(rp.roleId, t.groups.rootRoleId))
      .innerJoin(t.permissions, eq(t.permissions.name, rp.permission))
      .where(eq(t.groupUsers.userId, user.id)),
    db
      .select({ permission: rp.permission, environment: rp.environment, project: t.projectUserRoles.project })
      .from(t.projectUserRoles)
      .innerJoin(rp, eq(rp.roleId, t.projectUserRoles.roleId))
      .where(eq(t.projectUserRoles.userId, user.id)),
    db
      .select({ permission: rp.permission, environment: rp.environment, project: t.projectGroupRoles.project })
      .from(t.groupUsers)
      .innerJoin(t.projectGroupRoles, eq(t.projectGroupRoles.groupId, t.groupUsers.groupId))
      .innerJoin(rp, eq(rp.roleId, t.projectGroupRoles.roleId))
      .where(eq(t.groupUsers.userId, user.id)),
  ]);
  return [
    ...[...rootGrants, ...groupRootGrants].map(({ permission, environment, type }) => ({
      permission,
      environment,
      project: type === 'root' ? null : ROOT_ROLE_PROJECT,
    })),
    ...projectGrants,
    ...groupProjectGrants,
  ];
}

export async function callerOfUser(db: Db, user: UserRow): Promise<Caller> {
  return {
    name: user.email ?? user.username ?? `user ${user.id}`,
    userId: user.id,
    tokenKind: null,
    projects: ['*'],
    environment: '*',
    grants: await grantsOf(db, user),
  };
}

const sessionCookie = (value: string, expires: Date, secure: boolean) =>
  stringifySetCookie({ name: SESSION_COOKIE, value, httpOnly: true, sameSite: 'lax', path: '/', expires, secure });

/** Opens a session for the user (begun at an identity provider when `sso` says so); the answer's `Set-Cookie` value, `Secure` when `secure`. */
export async function startSession(db: Db, userId: number, secure: boolean, sso?: t.SessionSso): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await db.insert(t.sessions).values({ idHash: hashSecret(secret), userId, expiresAt, sso: sso ?? null });
  return sessionCookie(secret, expiresAt, secure);
}

export const clearedSessionCookie = (secure: boolean) => sessionCookie('', new Date(0), secure);

/** The session secret in a `Cookie` header, if any (handlers see headers untyped). */
export const sessionSecretOf = (cookieHeader: unknown) =>
  (typeof cookieHeader === 'string' ? parseCookie(cookieHeader)[SESSION_COOKIE] : undefined) || undefined;

/** Ends the session; answers how it began when an identity provider signed the user in. */
export async function endSession(db: Db, secret: string): Promise<t.SessionSso | undefined> {
  const [ended] = await db.delete(t.sessions).where(eq(t.sessions.idHash, hashSecret(secret))).returning({ sso: t.sessions.sso });
  return ended?.sso ?? undefined;
}

/** The user of a live session, if any. */
export async function userOfSession(db: Db, secret: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: t.users })
    .from(t.sessions)
    .innerJoin(t.users, eq(t.users.id, t.sessions.userId))
    .where(and(eq(t.sessions.idHash, hashSecret(secret)), gt(t.sessions.expiresAt, new Date())));
  return row?.user;
}

/** The user of a live personal access token, if any; marks the token seen. */
export async function userOfPersonalToken(db: Db, secret: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: t.users, id: t.personalAccessTokens.id })
    .from(t.personalAccessTokens)
    .innerJoin(t.users, eq(t.users.id, t.personalAccessTokens.userId))
    .where(and(eq(t.personalAccessTokens.secretHash, hashSecret(secret)), gt(t.personalAccessTokens.expiresAt, new Date())));
  if (row) await db.update(t.personalAccessTokens).set({ seenAt: new Date() }).where(eq(t.personalAccessTokens.id, row.id));
  return row?.user;
}

export const newPersonalTokenSecret = () => `${PAT_PREFIX}${randomBytes(28).toString('hex')}`;

/**
 * At the first start (no user at all), creates the admin user. Returns the password when it was generated,
 * to be shown once.
 */
export async function bootstrapAdminUser(db: Db, admin: { username: string; password?: string | undefined }, passwordHashCost: number): Promise<string | undefined> {
  const existing = await db.select({ id: t.users.id }).from(t.users).limit(1);
  if (existing.length > 0) return undefined;
  const password = admin.password ?? generatePassword();
  try {
    assertPasswordPolicy(password, 'UNLEASH_DEFAULT_ADMIN_PASSWORD');
  } catch (error) {
    throw new Error(error instanceof Error ? error.message : String(error));
  }
  const [role] = await db.select({ id: t.roles.id }).from(t.roles).where(eq(t.roles.name, 'Admin'));
  await db.insert(t.users).values({ username: admin.username, passwordHash: await hashPassword(password, passwordHashCost), rootRoleId: role!.id });
  return admin.password === undefined ? password : undefined;
}
