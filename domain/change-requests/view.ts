// Change requests as the API shows them, and the lookups their operations share.
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { components } from '../../generated/api.js';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { type Caller, userIdOf } from '../../shared/caller.js';
import { conflict, forbidden, notFound } from '../../kernel/errors.js';

type Schemas = components['schemas'];
export type ChangeRequestRow = typeof t.changeRequests.$inferSelect;
export type ChangeRow = typeof t.changeRequestChanges.$inferSelect;
export type ChangeRequestState = Schemas['ChangeRequestState'];

/**
 * The request of this id in this project; 404 for one that does not exist or belongs to another project. `forUpdate`
 * (in a transaction) locks it until the transaction ends: whoever else moves or edits it meanwhile waits, then finds it
 * as this transaction left it.
 */
export async function requireChangeRequest(db: Db, project: string, id: number, options: { forUpdate?: boolean } = {}): Promise<ChangeRequestRow> {
  const query = db.select().from(t.changeRequests).where(and(eq(t.changeRequests.id, id), eq(t.changeRequests.project, project)));
  const [row] = await (options.forUpdate ? query.for('update') : query);
  if (!row) throw notFound(`No change request with id ${id} exists in the project "${project}".`);
  return row;
}

export async function changesOf(db: Db, id: number): Promise<ChangeRow[]> {
  return db.select().from(t.changeRequestChanges).where(eq(t.changeRequestChanges.changeRequestId, id)).orderBy(asc(t.changeRequestChanges.id));
}

/** The id recorded for admin API tokens, as events record them (Unleash's -42). */
const ADMIN_TOKEN_ID = -42;

/** The calling user's id, for what only people do: reviewing and scheduling (the four-eyes rule is about people). */
export function requireUser(caller: Caller, doing: string): number {
  const userId = userIdOf(caller);
  if (userId === undefined) throw forbidden(`Only a signed-in user may ${doing}; API tokens cannot.`);
  return userId;
}

/** Who proposes or comments: a user, or an admin API token (which may do anything, as automation does). */
export function actorId(caller: Caller): number {
  return userIdOf(caller) ?? ADMIN_TOKEN_ID;
}

/** 409 unless the request is in one of `states`. */
export function requireState(row: ChangeRequestRow, states: ChangeRequestState[], doing: string) {
  if (!states.includes(row.state)) throw conflict(`The change request ${row.id} is "${row.state}": it cannot ${doing} (only when ${states.map((s) => `"${s}"`).join(' or ')}).`);
}

async function usersByIds(db: Db, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = unique.length ? await db.select({ id: t.users.id, name: t.users.name, username: t.users.username, email: t.users.email, imageUrl: t.users.imageUrl }).from(t.users).where(inArray(t.users.id, unique)) : [];
  const byId = new Map(rows.map((u) => [u.id, u]));
  return (id: number): Schemas['ChangeRequestUser'] => {
    const user = byId.get(id);
    const fallback = id === ADMIN_TOKEN_ID ? 'an admin API token' : `deleted user ${id}`;
    return { id, username: user?.name ?? user?.username ?? user?.email ?? fallback, ...(user?.imageUrl && { imageUrl: user.imageUrl }) };
  };
}

export async function describeChangeRequests(db: Db, rows: ChangeRequestRow[]): Promise<Schemas['ChangeRequest'][]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [changes, reviews, comments] = await Promise.all([
    db.select().from(t.changeRequestChanges).where(inArray(t.changeRequestChanges.changeRequestId, ids)).orderBy(asc(t.changeRequestChanges.id)),
    db.select().from(t.changeRequestReviews).where(inArray(t.changeRequestReviews.changeRequestId, ids)).orderBy(asc(t.changeRequestReviews.createdAt)),
    db.select().from(t.changeRequestComments).where(inArray(t.changeRequestComments.changeRequestId, ids)).orderBy(asc(t.changeRequestComments.id)),
  ]);
  const userOf = await usersByIds(db, [...rows.map((r) => r.createdByUserId), ...changes.map((c) => c.createdByUserId), ...reviews.map((r) => r.userId), ...comments.map((c) => c.userId)]);
  const review = (r: (typeof reviews)[number]) => ({ createdBy: userOf(r.userId), createdAt: r.createdAt.toISOString(), ...(r.comment && { comment: r.comment }) });
  return rows.map((row) => {
    const features = new Map<string, Schemas['ChangeRequestChange'][]>();
    for (const change of changes.filter((c) => c.changeRequestId === row.id)) {
      const list = features.get(change.feature) ?? [];
      list.push({ id: change.id, action: change.action, payload: change.payload, createdAt: change.createdAt.toISOString(), createdBy: userOf(change.createdByUserId) });
      features.set(change.feature, list);
    }
    const ofRow = reviews.filter((r) => r.changeRequestId === row.id);
    return {
      id: row.id,
      title: row.title ?? `Change request #${row.id}`,
      project: row.project,
      environment: row.environment,
      state: row.state,
      minApprovals: row.minApprovals,
      createdBy: userOf(row.createdByUserId),
      createdAt: row.createdAt.toISOString(),
      features: [...features].map(([name, list]) => ({ name, changes: list })),
      approvals: ofRow.filter((r) => r.kind === 'approval').map(review),
      rejections: ofRow.filter((r) => r.kind === 'rejection').map(review),
      comments: comments.filter((c) => c.changeRequestId === row.id).map((c) => ({ id: c.id, text: c.text, createdBy: userOf(c.userId), createdAt: c.createdAt.toISOString() })),
      ...(row.scheduledAt && {
        schedule: { scheduledAt: row.scheduledAt.toISOString(), status: row.scheduleStatus ?? 'pending', ...(row.scheduleReason && { reason: row.scheduleReason }) },
      }),
    };
  });
}

export async function describeChangeRequest(db: Db, row: ChangeRequestRow): Promise<Schemas['ChangeRequest']> {
  return (await describeChangeRequests(db, [row]))[0]!;
}

export async function listChangeRequests(db: Db, project: string, state: ChangeRequestState | undefined) {
  const where = state ? and(eq(t.changeRequests.project, project), eq(t.changeRequests.state, state)) : eq(t.changeRequests.project, project);
  return describeChangeRequests(db, await db.select().from(t.changeRequests).where(where).orderBy(desc(t.changeRequests.id)));
}
