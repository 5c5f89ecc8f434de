// What every identity provider's sign-in ends with: the person it vouched for found or created by the provider's
// rules, their SSO-mapped groups made to match what the provider says, and a session.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { systemCaller } from '../../shared/caller.js';
import { ROOT_ROLE_TYPES } from '../access/groups.js';
import { startSession } from '../access/user-auth.js';
import { insertUser, type UserRow } from '../access/user-records.js';
import type { RecordEvent } from '../events/event-log.js';
import type { HandlerContext } from '../handler-context.js';
import type { OidcSettings, SamlSettings } from './settings.js';

/** Who the identity provider says signed in. `groups` is undefined when it said nothing about groups. */
export interface SsoIdentity {
  email: string | undefined;
  name?: string | undefined;
  groups?: string[] | undefined;
}

/** The rules both providers' settings share. */
export type ProviderRules = Pick<OidcSettings & SamlSettings, 'autoCreate' | 'defaultRootRole' | 'defaultRootRoleId' | 'emailDomains' | 'enableGroupSyncing'>;

/** A sign-in the service refuses; the message is for the person signing in, in plain words. */
export class SignInRefused extends Error {}

/** Where a refused sign-in sends the browser: the sign-in page, saying why. */
export const refusedLocation = (message: string) => `/signin?error=${encodeURIComponent(message)}`;

/** `value` when it is a path of this service (one leading `/`, no scheme or host), else `/`. */
export function safeRedirectPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return /[\u0000-\u001f]/.test(value) ? '/' : value;
}

const domainsOf = (emailDomains: string | undefined) =>
  (emailDomains ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);

async function rootRoleIdFor(tx: Db, rules: ProviderRules): Promise<number> {
  const byId = rules.defaultRootRoleId;
  const condition = byId !== undefined ? eq(t.roles.id, byId) : eq(t.roles.name, rules.defaultRootRole ?? 'Viewer');
  const [role] = await tx.select({ id: t.roles.id, type: t.roles.type }).from(t.roles).where(condition);
  if (!role || !ROOT_ROLE_TYPES.includes(role.type)) throw new SignInRefused('The root role new users get here no longer exists; ask an administrator to fix the single sign-on settings.');
  return role.id;
}

async function userFor(tx: Db, record: RecordEvent, identity: SsoIdentity & { email: string }, rules: ProviderRules): Promise<UserRow> {
  const [existing] = await tx.select().from(t.users).where(sql`lower(${t.users.email}) = lower(${identity.email})`);
  if (existing) return existing;
  if (!rules.autoCreate) {
    throw new SignInRefused(`There is no account for ${identity.email} here, and single sign-on does not create accounts. Ask an administrator to add you.`);
  }
  const domains = domainsOf(rules.emailDomains);
  const domain = identity.email.split('@').pop()!.toLowerCase();
  if (domains.length > 0 && !domains.includes(domain)) {
    throw new SignInRefused(`Accounts are created here only for ${domains.map((d) => `@${d}`).join(', ')} addresses, not for ${identity.email}. Ask an administrator to add you.`);
  }
  return insertUser(tx, record, { email: identity.email, name: identity.name ?? null, rootRoleId: await rootRoleIdFor(tx, rules) });
}

/**
 * Makes the user a member of exactly the groups whose SSO mappings name one of `claimed`, among groups that have
 * mappings; groups without mappings are managed by hand and left alone.
 */
async function syncGroups(tx: Db, record: RecordEvent, userId: number, claimed: string[]): Promise<void> {
  const mapped = await tx.select({ id: t.groups.id, mappings: t.groups.mappingsSso }).from(t.groups).where(sql`jsonb_array_length(${t.groups.mappingsSso}) > 0`);
  const wanted = new Set(mapped.filter((group) => group.mappings.some((m) => claimed.includes(m))).map((group) => group.id));
  const mappedIds = mapped.map((group) => group.id);
  const current = mappedIds.length
    ? new Set((await tx.select({ id: t.groupUsers.groupId }).from(t.groupUsers).where(and(eq(t.groupUsers.userId, userId), inArray(t.groupUsers.groupId, mappedIds)))).map((r) => r.id))
    : new Set<number>();
  const added = [...wanted].filter((id) => !current.has(id));
  const removed = [...current].filter((id) => !wanted.has(id));
  if (added.length) await tx.insert(t.groupUsers).values(added.map((groupId) => ({ groupId, userId, createdBy: systemCaller.name })));
  if (removed.length) await tx.delete(t.groupUsers).where(and(eq(t.groupUsers.userId, userId), inArray(t.groupUsers.groupId, removed)));
  for (const groupId of added) await record({ type: 'group-user-added', data: { groupId, userId } });
  for (const groupId of removed) await record({ type: 'group-user-removed', preData: { groupId, userId } });
}

/**
 * Signs in the person the provider vouched for, by `rules`; answers the session's `Set-Cookie` value. Throws
 * SignInRefused when the rules keep them out. Accounts and group changes are recorded as the service's own events.
 */
export async function signInWithProvider(
  context: Pick<HandlerContext, 'db' | 'events' | 'secureCookies'>,
  identity: SsoIdentity,
  rules: ProviderRules,
  sso: t.SessionSso,
): Promise<string> {
  const email = identity.email?.trim();
  if (!email || !email.includes('@')) throw new SignInRefused('The identity provider did not say your email address, which this service signs people in by. Ask an administrator to check the provider.');
  const user = await context.events.change(systemCaller, async (tx, record) => {
    const row = await userFor(tx, record, { ...identity, email }, rules);
    if (rules.enableGroupSyncing && identity.groups !== undefined) await syncGroups(tx, record, row.id, identity.groups);
    return row;
  });
  await context.db.update(t.users).set({ seenAt: new Date() }).where(eq(t.users.id, user.id));
  return startSession(context.db, user.id, context.secureCookies, sso);
}
