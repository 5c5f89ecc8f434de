// Applying a change request: its changes through the direct operations, in one transaction, then its new state.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { EventType, RecordEvent } from '../events/event-log.js';
import type { HandlerContext } from '../handler-context.js';
import { applyChangeList, withinTransaction } from './actions.js';
import { changesOf, type ChangeRequestRow } from './view.js';

export const eventOf = (row: ChangeRequestRow) => ({ project: row.project, environment: row.environment });
export const summary = (row: ChangeRequestRow) => ({ id: row.id, title: row.title, state: row.state });

/** Moves the request to `state` and records `type`. */
export async function moveTo(tx: Db, record: RecordEvent, row: ChangeRequestRow, state: ChangeRequestRow['state'], type: EventType, extra: Partial<ChangeRequestRow> = {}) {
  const [after] = await tx.update(t.changeRequests).set({ state, ...extra }).where(eq(t.changeRequests.id, row.id)).returning();
  await record({ type, ...eventOf(row), data: summary(after!), preData: summary(row) });
  return after!;
}

/** Applies every change of the request in the caller's transaction, then marks it applied. */
export async function applyChangeRequest(tx: Db, record: RecordEvent, context: Omit<HandlerContext, 'db' | 'change'>, row: ChangeRequestRow) {
  const changes = await changesOf(tx, row.id);
  await applyChangeList(context.operations, { projectId: row.project, environment: row.environment }, changes, withinTransaction(context, tx, record));
  return moveTo(tx, record, row, 'Applied', 'change-request-applied');
}
