// Scheduled change requests: what they must still find when their time comes, and applying the ones due.
import { and, asc, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { HandlerContext } from '../handler-context.js';
import { AppError } from '../../kernel/errors.js';
import type { EventLog } from '../events/event-log.js';
import { callerOfUser } from '../access/user-auth.js';
import { changesOf, type ChangeRequestRow } from './view.js';
import { describeStrategy, segmentsOfStrategies } from '../flags/feature-view.js';

/** The strategies the request's updates and deletions change, as they are now, by change id. */
export async function strategySnapshots(db: Db, row: ChangeRequestRow): Promise<[number, unknown][]> {
  const changes = (await changesOf(db, row.id)).filter((c) => c.action === 'updateStrategy' || c.action === 'deleteStrategy');
  const ids = changes.map((c) => String((c.payload as { id?: unknown }).id));
  if (ids.length === 0) return [];
  const rows = await db.select().from(t.featureStrategies).where(inArray(t.featureStrategies.id, ids));
  const segments = await segmentsOfStrategies(db, ids);
  const byId = new Map(rows.map((r) => [r.id, describeStrategy(r, segments.get(r.id) ?? [])]));
  return changes.map((c) => [c.id, byId.get(String((c.payload as { id?: unknown }).id)) ?? null]);
}

/** Why a scheduled request must not be applied now, if it must not. */
async function suspensionReason(db: Db, row: ChangeRequestRow): Promise<string | undefined> {
  const [scheduler] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.id, row.scheduledByUserId ?? -1));
  if (!scheduler) return 'the user who scheduled it was deleted';
  const changes = await changesOf(db, row.id);
  const flags = [...new Set(changes.map((c) => c.feature))];
  const archived = await db
    .select({ name: t.features.name })
    .from(t.features)
    .where(and(inArray(t.features.name, flags), isNotNull(t.features.archivedAt)));
  if (archived.length > 0) return `the flag "${archived[0]!.name}" was archived`;
  const now = new Map(await strategySnapshots(db, row));
  for (const change of changes.filter((c) => c.strategySnapshot !== null)) {
    const current = now.get(change.id);
    if (current === null) return `the strategy of change ${change.id} was deleted`;
    if (!isDeepStrictEqual(current, change.strategySnapshot)) return `the strategy of change ${change.id} was changed since the request was scheduled`;
  }
  return undefined;
}

type Apply = (tx: Db, record: Parameters<Parameters<EventLog['change']>[1]>[1], context: Omit<HandlerContext, 'db' | 'change'>, row: ChangeRequestRow) => Promise<unknown>;

/**
 * Applies one scheduled request that is due, if any: the row is locked for the whole application, so however many
 * instances look, one applies it, and a user applying it meanwhile waits and then finds it applied. A request that
 * must not be applied is suspended; one that fails is marked failed. Answers whether one was handled.
 */
export async function applyNextDue(db: Db, events: EventLog, base: Omit<HandlerContext, 'db' | 'change' | 'caller'>, apply: Apply): Promise<boolean> {
  const [due] = await db
    .select({ id: t.changeRequests.id, scheduledByUserId: t.changeRequests.scheduledByUserId })
    .from(t.changeRequests)
    .where(and(eq(t.changeRequests.state, 'Scheduled'), eq(t.changeRequests.scheduleStatus, 'pending'), lte(t.changeRequests.scheduledAt, new Date())))
    .orderBy(asc(t.changeRequests.scheduledAt))
    .limit(1);
  if (!due) return false;
  const [user] = await db.select().from(t.users).where(eq(t.users.id, due.scheduledByUserId ?? -1));
  const caller = user ? await callerOfUser(db, user) : { name: 'unleash_system_user', userId: -1337, tokenKind: null, projects: ['*'], environment: '*', grants: [] };
  return events.change(caller, async (tx, record) => {
    const [row] = await tx
      .select()
      .from(t.changeRequests)
      .where(and(eq(t.changeRequests.id, due.id), eq(t.changeRequests.state, 'Scheduled'), eq(t.changeRequests.scheduleStatus, 'pending')))
      .for('update', { skipLocked: true });
    // Another instance is applying it.
    if (!row) return false;
    const scope = { project: row.project, environment: row.environment };
    const summary = { id: row.id, title: row.title, scheduledAt: row.scheduledAt?.toISOString() };
    const reason = await suspensionReason(tx, row);
    if (reason) {
      await tx.update(t.changeRequests).set({ scheduleStatus: 'suspended', scheduleReason: reason }).where(eq(t.changeRequests.id, row.id));
      await record({ type: 'change-request-schedule-suspended', ...scope, data: { ...summary, reason } });
      return true;
    }
    try {
      await tx.transaction((attempt) => apply(attempt as Db, record, { ...base, caller }, row));
      await record({ type: 'change-request-scheduled-application-success', ...scope, data: summary });
    } catch (error) {
      const message = error instanceof AppError ? error.message : 'the application failed; the error is logged';
      if (!(error instanceof AppError)) base.log.error({ err: error }, 'scheduled change request failed');
      await tx.update(t.changeRequests).set({ scheduleStatus: 'failed', scheduleReason: message }).where(eq(t.changeRequests.id, row.id));
      await record({ type: 'change-request-scheduled-application-failure', ...scope, data: { ...summary, reason: message } });
    }
    return true;
  });
}
