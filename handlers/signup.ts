// Public signup: admins hand out invite links (tokens); whoever holds a usable one creates an account as a Viewer.
import { randomBytes } from 'node:crypto';
import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { passwordHashCostOf } from '../kernel/config.js';
import { assertPasswordPolicy } from '../domain/access/passwords.js';
import { describeUser, insertUser } from '../domain/access/user-records.js';

/**
 * Where the UI's signup page lives. No setting names the service's public address yet, so invite links
 * point at Unleash's default; this is the one place to change when such a setting exists.
 */
const PUBLIC_BASE_URL = 'http://localhost:4242';

/** The root role every user who signs up with a token gets. */
const SIGNUP_ROLE = 'Viewer';

type TokenRow = typeof t.publicSignupTokens.$inferSelect;
type RoleRow = { id: number; name: string; type: string; description: string };
type TokenUser = ReturnType<typeof describeUser>;

const inviteUrl = (secret: string) => `${PUBLIC_BASE_URL}/new-user?invite=${encodeURIComponent(secret)}`;

/** Usable while enabled and before the exact instant it expires. */
const isUsable = (row: Pick<TokenRow, 'enabled' | 'expiresAt'>, now = Date.now()) => row.enabled && now < row.expiresAt.getTime();

const roleColumns = { id: t.roles.id, name: t.roles.name, type: t.roles.type, description: t.roles.description };

/** A token as the contract shows it, without its users: `enabled` is false once it expired, whatever was stored. */
function describeToken(row: TokenRow, role: RoleRow) {
  return {
    secret: row.secret,
    url: inviteUrl(row.secret),
    name: row.name,
    enabled: isUsable(row),
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    role: { id: role.id, name: role.name, type: role.type as 'root', description: role.description },
  };
}

async function viewerRole(db: Db): Promise<RoleRow> {
  const [role] = await db.select(roleColumns).from(t.roles).where(eq(t.roles.name, SIGNUP_ROLE));
  if (!role) throw new Error(`The root role "${SIGNUP_ROLE}" is missing from the database.`);
  return role;
}

/** The users who joined with each of `secrets`, in the order they joined. */
async function usersOf(db: Db, secrets: string[]): Promise<Map<string, TokenUser[]>> {
  const bySecret = new Map<string, TokenUser[]>(secrets.map((secret) => [secret, []]));
  if (secrets.length === 0) return bySecret;
  const rows = await db
    .select({ secret: t.publicSignupTokenUsers.secret, user: t.users })
    .from(t.publicSignupTokenUsers)
    .innerJoin(t.users, eq(t.users.id, t.publicSignupTokenUsers.userId))
    .where(inArray(t.publicSignupTokenUsers.secret, secrets))
    .orderBy(asc(t.publicSignupTokenUsers.createdAt), asc(t.users.id));
  for (const { secret, user } of rows) bySecret.get(secret)!.push(describeUser(user));
  return bySecret;
}

/** Tokens with their role, newest first (all of them, or the one with `secret`). */
async function selectTokens(db: Db, secret?: string) {
  const query = db.select({ token: t.publicSignupTokens, role: roleColumns }).from(t.publicSignupTokens).innerJoin(t.roles, eq(t.roles.id, t.publicSignupTokens.roleId));
  return (secret === undefined ? query : query.where(eq(t.publicSignupTokens.secret, secret))).orderBy(
    desc(t.publicSignupTokens.createdAt),
    asc(t.publicSignupTokens.name),
  );
}

async function findToken(db: Db, secret: string) {
  const [found] = await selectTokens(db, secret);
  if (!found) throw notFound('No public signup token matches that secret.');
  const users = (await usersOf(db, [secret])).get(secret)!;
  return { ...describeToken(found.token, found.role), users };
}

/** 400 saying why a token cannot be used now: unknown, disabled or expired. */
async function requireUsableToken(db: Db, secret: string, lock = false): Promise<TokenRow> {
  const query = db.select().from(t.publicSignupTokens).where(eq(t.publicSignupTokens.secret, secret));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw badRequest('The signup token is not valid: no such token exists.');
  if (!row.enabled) throw badRequest('The signup token is not valid: it has been disabled.');
  if (!isUsable(row)) throw badRequest(`The signup token is not valid: it expired at ${row.expiresAt.toISOString()}.`);
  return row;
}

export const signupHandlers = {
  async getSignupTokens(_request, { db }) {
    const rows = await selectTokens(db);
    const users = await usersOf(db, rows.map((row) => row.token.secret));
    const tokens = rows.map(({ token, role }) => ({ ...describeToken(token, role), users: users.get(token.secret)! }));
    return { status: 200, body: { tokens } };
  },

  async getSignupToken({ params }, { db }) {
    return { status: 200, body: await findToken(db, params.token) };
  },

  async createSignupToken({ body }, { caller, change }) {
    const expiresAt = new Date(body.expiresAt);
    if (expiresAt.getTime() <= Date.now()) throw badRequest('expiresAt: the expiry must be in the future.');
    const secret = randomBytes(16).toString('hex');
    const token = await change(async (tx, record) => {
      const role = await viewerRole(tx);
      const [row] = await tx
        .insert(t.publicSignupTokens)
        .values({ secret, name: body.name, expiresAt, enabled: true, roleId: role.id, createdBy: caller.name })
        .returning();
      const described = describeToken(row!, role);
      await record({ type: 'public-signup-token-created', data: described });
      return described;
    });
    return {
      status: 201,
      body: { ...token, users: [] },
      headers: { location: `/api/admin/invite-link/tokens/${encodeURIComponent(secret)}` },
    };
  },

  async updateSignupToken({ params, body }, { change }) {
    const changes = {
      ...(body.expiresAt !== undefined && { expiresAt: new Date(body.expiresAt) }),
      ...(body.enabled !== undefined && { enabled: body.enabled }),
    };
    const token = await change(async (tx, record) => {
      const [row] = await tx.update(t.publicSignupTokens).set(changes).where(eq(t.publicSignupTokens.secret, params.token)).returning();
      if (!row) throw notFound('No public signup token matches that secret.');
      await record({ type: 'public-signup-token-updated', data: { secret: row.secret, enabled: row.enabled, expiresAt: row.expiresAt.toISOString() } });
      return findToken(tx, row.secret);
    });
    return { status: 200, body: token };
  },

  async validateSignupToken({ params }, { db }) {
    await requireUsableToken(db, params.token);
    return { status: 200, body: undefined };
  },

  async signUp({ params, body }, { change, config }) {
    // `change` records as the request's caller, and public routes have none: the service records instead.
    const user = await change(async (tx, record) => {
      const token = await requireUsableToken(tx, params.token, true);
      assertPasswordPolicy(body.password);
      const created = await insertUser(tx, record, {
        name: body.name,
        email: body.email,
        username: body.username ?? null,
        password: body.password,
        passwordHashCost: passwordHashCostOf(config),
        rootRoleId: token.roleId,
      });
      await tx.insert(t.publicSignupTokenUsers).values({ secret: token.secret, userId: created.id });
      await record({ type: 'public-signup-token-user-added', data: { secret: token.secret, userId: created.id } });
      return created;
    });
    return { status: 200, body: describeUser(user) };
  },
} satisfies Partial<Handlers>;
