// Sign-ins begun with an identity provider, kept in the database so that any replica can finish them, and taken once.
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';

type Provider = 'oidc' | 'saml';

/** How long a browser may spend at the identity provider. */
export const PENDING_TTL_MS = 10 * 60_000;

export async function savePending(db: Db, provider: Provider, id: string, data: t.SsoRequestData): Promise<void> {
  await db.delete(t.ssoRequests).where(lt(t.ssoRequests.expiresAt, new Date()));
  await db.insert(t.ssoRequests).values({ id, provider, data, expiresAt: new Date(Date.now() + PENDING_TTL_MS) });
}

/** The sign-in begun as `id`, removed so that it cannot be finished twice; undefined when unknown, used or expired. */
export async function takePending(db: Db, provider: Provider, id: string): Promise<t.SsoRequestData | undefined> {
  const [row] = await db
    .delete(t.ssoRequests)
    .where(and(eq(t.ssoRequests.id, id), eq(t.ssoRequests.provider, provider), gt(t.ssoRequests.expiresAt, new Date())))
    .returning({ data: t.ssoRequests.data });
  return row?.data;
}

/** Whether `id` is a sign-in begun and not yet finished (without taking it). */
export async function isPending(db: Db, provider: Provider, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: t.ssoRequests.id })
    .from(t.ssoRequests)
    .where(and(eq(t.ssoRequests.id, id), eq(t.ssoRequests.provider, provider), gt(t.ssoRequests.expiresAt, new Date())));
  return row !== undefined;
}
