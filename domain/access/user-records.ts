// Users as the contract shows them, and the one way a user is created (by an admin or through signup).
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { RecordEvent } from '../events/event-log.js';
import { nameExists, notFound } from '../../kernel/errors.js';
import { assertPasswordPolicy, hashPassword } from './passwords.js';

export type UserRow = typeof t.users.$inferSelect;

/** Unleash's default avatar: a gravatar of the email, username or id. */
const gravatar = (row: Pick<UserRow, 'id' | 'email' | 'username'>) =>
  `https://gravatar.com/avatar/${createHash('sha256')
    .update(String(row.email ?? row.username ?? row.id).trim().toLowerCase())
    .digest('hex')}?s=42&d=retro&r=g`;

/** The user's image: the one set, else the gravatar. */
export const userImageUrl = (row: Pick<UserRow, 'id' | 'email' | 'username' | 'imageUrl'>) => row.imageUrl ?? gravatar(row);

/** A user in the contract's shape: never the password hash. */
export const describeUser = (row: UserRow) => ({
  id: row.id,
  name: row.name,
  ...(row.email !== null && { email: row.email }),
  username: row.username,
  imageUrl: userImageUrl(row),
  rootRole: row.rootRoleId,
  loginAttempts: row.loginAttempts,
  emailSent: false,
  seenAt: row.seenAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  accountType: 'User' as const,
});

/** What identifies a user to other users (a search for people), without the account's details. */
export function userIdentity(row: UserRow) {
  const { id, name, username, imageUrl } = describeUser(row);
  return { id, name, username, imageUrl, ...(row.email !== null && { email: row.email }) };
}

/** What `user-*` events record of a user. */
export const userEventData = (row: UserRow) => ({ id: row.id, name: row.name, username: row.username, email: row.email, rootRole: row.rootRoleId });

/** The name events and creator lists show for a user: name, else username, else email. */
export const displayName = (row: Pick<UserRow, 'name' | 'username' | 'email'>) => row.name || row.username || row.email || 'unknown';

export async function requireUser(db: Db, id: number): Promise<UserRow> {
  const [row] = await db.select().from(t.users).where(eq(t.users.id, id));
  if (!row) throw notFound(`No user with id ${id} exists.`);
  return row;
}

/** 409 NameExistsError when another user has this email or username (compared case-insensitively). */
export async function assertIdentityFree(db: Db, identity: { email?: string | null; username?: string | null }, exceptId?: number) {
  for (const [field, value] of [['email', identity.email], ['username', identity.username]] as const) {
    if (!value) continue;
    const column = field === 'email' ? t.users.email : t.users.username;
    const [clash] = await db.select({ id: t.users.id }).from(t.users).where(sql`lower(${column}) = lower(${value})`);
    if (clash && clash.id !== exceptId) throw nameExists(`A user with the ${field} "${value}" already exists.`);
  }
}

/** No password, or one with the cost its hash is made at (PASSWORD_HASH_COST). */
type NewPassword = { password?: null } | { password: string; passwordHashCost: number };

export const newPassword = (password: string | null | undefined, passwordHashCost: number): NewPassword =>
  password == null ? {} : { password, passwordHashCost };

/** A user to create. */
export type NewUser = { name?: string | null; email?: string | null; username?: string | null; rootRoleId: number } & NewPassword;

/** Creates a user after checking identity and password rules; records `user-created`. */
export async function insertUser(tx: Db, record: RecordEvent, user: NewUser): Promise<UserRow> {
  await assertIdentityFree(tx, user);
  if (user.password != null) assertPasswordPolicy(user.password);
  const [row] = await tx
    .insert(t.users)
    .values({
      name: user.name ?? null,
      email: user.email ?? null,
      username: user.username ?? null,
      passwordHash: user.password != null ? await hashPassword(user.password, user.passwordHashCost) : null,
      rootRoleId: user.rootRoleId,
    })
    .returning();
  await record({ type: 'user-created', data: userEventData(row!) });
  return row!;
}
