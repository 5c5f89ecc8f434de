import { and, asc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { components } from '../generated/api.js';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { badRequest, notFound, unauthorized } from '../kernel/errors.js';
import { passwordHashCostOf, type AppConfig } from '../kernel/config.js';
import { assertPasswordPolicy, hashPassword, verifyPassword } from '../domain/access/passwords.js';
import { passwordSignInDisabled } from '../domain/sso/settings.js';
import { signOutLocation } from '../domain/sso/sign-out.js';
import { hashSecret } from '../domain/access/tokens.js';
import { clearedSessionCookie, endSession, newPersonalTokenSecret, sessionSecretOf, startSession } from '../domain/access/user-auth.js';
import { likePattern } from '../domain/flags/search-filters.js';
import { assertIdentityFree, describeUser, insertUser, newPassword, requireUser, userEventData, userIdentity, type UserRow } from '../domain/access/user-records.js';

type RootRoleRef = components['schemas']['RootRoleRef'];

const rootRoleTypes = ['root', 'root-custom'];

/** A search for people answers no more users than this. */
const USERS_FOUND_AT_MOST = 100;

/** The root role named by id or name; 400 when it is not a root role. */
async function rootRoleId(db: Db, ref: RootRoleRef): Promise<number> {
  const [role] = await db
    .select()
    .from(t.roles)
    .where(typeof ref === 'number' ? eq(t.roles.id, ref) : sql`lower(${t.roles.name}) = lower(${ref})`);
  if (!role || !rootRoleTypes.includes(role.type)) throw badRequest(`rootRole: ${JSON.stringify(ref)} is not a root role; use Admin, Editor, Viewer or a custom root role.`);
  return role.id;
}

/** Sets the password and ends the user's sessions, except the one that asked (a user changing their own). */
async function setPassword(db: Db, config: AppConfig, user: UserRow, password: string, keptSession?: string) {
  assertPasswordPolicy(password);
  await db.update(t.users).set({ passwordHash: await hashPassword(password, passwordHashCostOf(config)) }).where(eq(t.users.id, user.id));
  const others = keptSession ? ne(t.sessions.idHash, hashSecret(keptSession)) : undefined;
  await db.delete(t.sessions).where(and(eq(t.sessions.userId, user.id), others));
}

const LOGIN_FAILED = 'The username or email and password you gave do not match an account.';
const PASSWORD_SIGN_IN_OFF = 'Password sign-in is turned off here: sign in with your identity provider. (Root Admins may still use their password.)';

/** Whether the user's root role is the built-in Admin: the break-glass way in while password sign-in is off. */
async function isRootAdmin(db: Db, user: UserRow): Promise<boolean> {
  const [role] = await db.select({ name: t.roles.name }).from(t.roles).where(eq(t.roles.id, user.rootRoleId));
  return role?.name === 'Admin';
}

const describePersonalToken = (row: typeof t.personalAccessTokens.$inferSelect) => ({
  id: row.id,
  description: row.description,
  expiresAt: row.expiresAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
  seenAt: row.seenAt?.toISOString() ?? null,
});

/** The calling user; 400 for callers that are not users (API tokens). */
async function callingUser(db: Db, userId: number | null, tokenKind: string | null) {
  if (tokenKind !== null || userId === null || userId < 0) throw badRequest('This operation is for users: log in, or use a personal access token.');
  return requireUser(db, userId);
}

export const userHandlers = {
  async login({ body }, { db, config, change, secureCookies }) {
    const identity = body.username.trim();
    const [user] = await db
      .select()
      .from(t.users)
      .where(identity.includes('@') ? sql`lower(${t.users.email}) = lower(${identity})` : sql`lower(${t.users.username}) = lower(${identity})`);
    if (!(await verifyPassword(body.password, user?.passwordHash, passwordHashCostOf(config))) || !user) {
      if (user) await db.update(t.users).set({ loginAttempts: sql`${t.users.loginAttempts} + 1` }).where(eq(t.users.id, user.id));
      throw unauthorized(LOGIN_FAILED);
    }
    if ((await passwordSignInDisabled(db)) && !(await isRootAdmin(db, user))) throw unauthorized(PASSWORD_SIGN_IN_OFF);
    const cookie = await change(async (tx) => {
      await tx.update(t.users).set({ loginAttempts: 0, seenAt: new Date() }).where(eq(t.users.id, user.id));
      return startSession(tx, user.id, secureCookies);
    });
    return { status: 200, body: describeUser(await requireUser(db, user.id)), headers: { 'set-cookie': cookie } };
  },

  async logout({ headers }, { db, secureCookies }) {
    const secret = sessionSecretOf(headers.cookie);
    if (secret) await endSession(db, secret);
    return { status: 200, body: undefined, headers: { 'set-cookie': clearedSessionCookie(secureCookies) } };
  },

  async logoutAndRedirect({ headers }, { db, config, secureCookies }) {
    const secret = sessionSecretOf(headers.cookie);
    const sso = secret ? await endSession(db, secret) : undefined;
    return { status: 302, body: undefined, headers: { location: await signOutLocation(db, config, sso), 'set-cookie': clearedSessionCookie(secureCookies) } };
  },

  async getCurrentUser(_request, { db, caller }) {
    const user = await callingUser(db, caller.userId, caller.tokenKind);
    const permissions = caller.grants.map((g) => ({
      permission: g.permission,
      ...(g.project !== null && { project: g.project }),
      ...(g.environment !== null && { environment: g.environment }),
    }));
    return { status: 200, body: { user: describeUser(user), permissions } };
  },

  async changeOwnPassword({ body, headers }, { db, config, caller }) {
    const user = await callingUser(db, caller.userId, caller.tokenKind);
    if (body.confirmPassword !== undefined && body.confirmPassword !== body.password) throw badRequest('confirmPassword: differs from password.');
    if (body.oldPassword !== undefined && !(await verifyPassword(body.oldPassword, user.passwordHash, passwordHashCostOf(config)))) {
      throw badRequest('oldPassword: is not your current password.');
    }
    await setPassword(db, config, user, body.password, sessionSecretOf(headers.cookie));
    return { status: 200, body: undefined };
  },

  async getPersonalAccessTokens(_request, { db, caller }) {
    const user = await callingUser(db, caller.userId, caller.tokenKind);
    const rows = await db.select().from(t.personalAccessTokens).where(eq(t.personalAccessTokens.userId, user.id)).orderBy(asc(t.personalAccessTokens.id));
    return { status: 200, body: { pats: rows.map(describePersonalToken) } };
  },

  async createPersonalAccessToken({ body }, { db, caller, change }) {
    const user = await callingUser(db, caller.userId, caller.tokenKind);
    const expiresAt = new Date(body.expiresAt);
    if (expiresAt.getTime() <= Date.now()) throw badRequest('expiresAt: must be in the future.');
    const secret = newPersonalTokenSecret();
    const row = await change(async (tx, record) => {
      const [inserted] = await tx
        .insert(t.personalAccessTokens)
        .values({ secretHash: hashSecret(secret), userId: user.id, description: body.description, expiresAt })
        .returning();
      await record({ type: 'pat-created', data: { id: inserted!.id, description: inserted!.description, expiresAt: body.expiresAt, userId: user.id } });
      return inserted!;
    });
    return { status: 201, body: { ...describePersonalToken(row), secret } };
  },

  async deletePersonalAccessToken({ params }, { db, caller, change }) {
    const user = await callingUser(db, caller.userId, caller.tokenKind);
    await change(async (tx, record) => {
      const [deleted] = await tx
        .delete(t.personalAccessTokens)
        .where(and(eq(t.personalAccessTokens.id, params.tokenId), eq(t.personalAccessTokens.userId, user.id)))
        .returning();
      if (!deleted) throw notFound(`You have no personal access token with id ${params.tokenId}.`);
      await record({ type: 'pat-deleted', preData: { id: deleted.id, description: deleted.description, userId: user.id } });
    });
    return { status: 200, body: undefined };
  },

  async getUsers(_request, { db }) {
    const [users, rootRoles] = await Promise.all([
      db.select().from(t.users).orderBy(asc(t.users.id)),
      db.select().from(t.roles).where(inArray(t.roles.type, rootRoleTypes)).orderBy(asc(t.roles.id)),
    ]);
    return {
      status: 200,
      body: {
        users: users.map(describeUser),
        rootRoles: rootRoles.map((r) => ({ id: r.id, type: r.type as 'root', name: r.name, description: r.description })),
      },
    };
  },

  async createUser({ body }, { change, config }) {
    if (!body.email && !body.username) throw badRequest('body: a user needs an email or a username.');
    const user = await change(async (tx, record) =>
      insertUser(tx, record, {
        name: body.name,
        email: body.email,
        username: body.username,
        ...newPassword(body.password, passwordHashCostOf(config)),
        rootRoleId: await rootRoleId(tx, body.rootRole),
      }),
    );
    return { status: 201, body: describeUser(user), headers: { location: `/api/admin/user-admin/${user.id}` } };
  },

  async searchUsers({ query }, { db }) {
    const pattern = likePattern(query.q);
    const u = t.users;
    const rows = await db
      .select()
      .from(u)
      .where(or(ilike(u.name, pattern), ilike(u.username, pattern), ilike(u.email, pattern)))
      .orderBy(sql`lower(coalesce(${u.name}, ${u.username}, ${u.email}))`, asc(u.id))
      .limit(USERS_FOUND_AT_MOST);
    return { status: 200, body: rows.map(userIdentity) };
  },

  async getUser({ params }, { db }) {
    return { status: 200, body: describeUser(await requireUser(db, params.id)) };
  },

  async updateUser({ params, body }, { change }) {
    const user = await change(async (tx, record) => {
      const before = await requireUser(tx, params.id);
      if (body.email !== undefined) await assertIdentityFree(tx, { email: body.email }, before.id);
      const changes = {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.email !== undefined && { email: body.email }),
        ...(body.rootRole !== undefined && { rootRoleId: await rootRoleId(tx, body.rootRole) }),
      };
      if (Object.keys(changes).length === 0) return before;
      const [after] = await tx.update(t.users).set(changes).where(eq(t.users.id, before.id)).returning();
      await record({ type: 'user-updated', data: userEventData(after!), preData: userEventData(before) });
      return after!;
    });
    return { status: 200, body: describeUser(user) };
  },

  async deleteUser({ params }, { change }) {
    await change(async (tx, record) => {
      const user = await requireUser(tx, params.id);
      await tx.delete(t.users).where(eq(t.users.id, user.id));
      await record({ type: 'user-deleted', preData: userEventData(user) });
    });
    return { status: 200, body: undefined };
  },

  async changeUserPassword({ params, body }, { db, config }) {
    await setPassword(db, config, await requireUser(db, params.id), body.password);
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
