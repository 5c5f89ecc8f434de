// Change requests: configuration per project environment, drafts of proposed changes, review, and application.
import { and, asc, count, eq } from 'drizzle-orm';
import { isDeepStrictEqual } from 'node:util';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { authorize } from '../domain/access/auth.js';
import { holds } from '../shared/caller.js';
import { requireMayLoosen } from '../domain/change-requests/exemption.js';
import type { HandlerContext } from '../domain/handler-context.js';
import { badRequest, conflict, forbidden, notFound } from '../kernel/errors.js';
import type { RecordEvent } from '../domain/events/event-log.js';
import { applyChangeRequest, eventOf, moveTo, summary } from '../domain/change-requests/apply.js';
import { actionRules } from '../domain/change-requests/actions.js';
import { strategySnapshots } from '../domain/change-requests/schedule.js';
import {
changesOf,
describeChangeRequest,
listChangeRequests,
requireChangeRequest,
requireState,
requireUser,
actorId,
type ChangeRequestRow,
} from '../domain/change-requests/view.js';
import { requireActiveFeature } from '../domain/flags/feature-view.js';
import { requireProject, requireProjectEnvironment } from '../domain/lookups.js';

type ChangeInput = { feature: string; action: keyof typeof actionRules; payload: Record<string, unknown> | unknown[] };

async function settingsOf(db: Db, project: string, environment: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(t.changeRequestSettings)
    .where(and(eq(t.changeRequestSettings.project, project), eq(t.changeRequestSettings.environment, environment)));
  const [row] = await (options.forUpdate ? query.for('update') : query);
  return row;
}

/** Checks one proposed change: a flag of the project, a payload the direct operation would take, its permission. */
async function checkChange(db: Db, context: HandlerContext, row: { project: string; environment: string }, change: ChangeInput, label: string) {
  await requireActiveFeature(db, row.project, change.feature).catch(() => {
    throw badRequest(`${label}.feature: no active flag named "${change.feature}" exists in the project "${row.project}".`);
  });
  const rule = actionRules[change.action];
  rule.check(change.payload, `${label}.payload`);
  authorize(context.caller, [rule.permission], { project: row.project, environment: row.environment });
}

const isAuthor = (context: HandlerContext, row: ChangeRequestRow) => actorId(context.caller) === row.createdByUserId;

function requireAuthor(context: HandlerContext, row: ChangeRequestRow, doing: string) {
  if (!isAuthor(context, row)) throw forbidden(`Only the author of the change request ${row.id} may ${doing}.`);
}

const mayApprove = (context: HandlerContext, row: ChangeRequestRow) =>
  holds(context.caller, 'APPROVE_CHANGE_REQUEST', { project: row.project, environment: row.environment });

async function review(tx: Db, record: RecordEvent, context: HandlerContext, row: ChangeRequestRow, kind: 'approval' | 'rejection', comment: string | undefined) {
  requireState(row, ['In review'], kind === 'approval' ? 'be approved' : 'be rejected');
  const userId = requireUser(context.caller, `${kind === 'approval' ? 'approve' : 'reject'} change requests`);
  if (userId === row.createdByUserId) throw forbidden(`The author of the change request ${row.id} cannot ${kind === 'approval' ? 'approve' : 'reject'} it.`);
  authorize(context.caller, ['APPROVE_CHANGE_REQUEST'], { project: row.project, environment: row.environment });
  const added = await tx.insert(t.changeRequestReviews).values({ changeRequestId: row.id, userId, kind, comment: comment ?? null }).onConflictDoNothing().returning();
  if (kind === 'rejection') return moveTo(tx, record, row, 'Rejected', 'change-request-rejected');
  // The same approver again: already counted, nothing to record.
  if (added.length === 0) return row;
  await record({ type: 'change-request-approval-added', ...eventOf(row), data: { ...summary(row), approvedBy: userId } });
  const [approvals] = await tx
    .select({ n: count() })
    .from(t.changeRequestReviews)
    .where(and(eq(t.changeRequestReviews.changeRequestId, row.id), eq(t.changeRequestReviews.kind, 'approval')));
  return (approvals?.n ?? 0) >= row.minApprovals ? moveTo(tx, record, row, 'Approved', 'change-request-approved') : row;
}

async function transition(tx: Db, record: RecordEvent, context: HandlerContext, row: ChangeRequestRow, body: { state: ChangeRequestRow['state']; comment?: string; scheduledAt?: string }) {
  const scope = { project: row.project, environment: row.environment };
  switch (body.state) {
    case 'In review':
      requireState(row, ['Draft'], 'be sent to review');
      requireAuthor(context, row, 'send it to review');
      if ((await changesOf(tx, row.id)).length === 0) throw conflict(`The change request ${row.id} has no changes to review.`);
      return moveTo(tx, record, row, 'In review', 'change-request-sent-to-review');
    case 'Approved':
      return review(tx, record, context, row, 'approval', body.comment);
    case 'Rejected':
      return review(tx, record, context, row, 'rejection', body.comment);
    case 'Cancelled':
      requireState(row, ['Draft', 'In review', 'Approved', 'Scheduled'], 'be cancelled');
      if (!isAuthor(context, row) && !mayApprove(context, row)) throw forbidden(`Only the author or an approver may cancel the change request ${row.id}.`);
      return moveTo(tx, record, row, 'Cancelled', row.state === 'Draft' ? 'change-request-discarded' : 'change-request-cancelled');
    case 'Applied':
      requireState(row, ['Approved', 'Scheduled'], 'be applied');
      authorize(context.caller, ['APPLY_CHANGE_REQUEST'], scope);
      return applyChangeRequest(tx, record, context, row);
    case 'Scheduled': {
      requireState(row, ['Approved', 'Scheduled'], 'be scheduled');
      authorize(context.caller, ['APPLY_CHANGE_REQUEST'], scope);
      const scheduledBy = requireUser(context.caller, 'schedule change requests');
      const at = body.scheduledAt ? new Date(body.scheduledAt) : undefined;
      if (!at || at.getTime() <= Date.now()) throw badRequest('scheduledAt: give a time in the future to schedule the change request for.');
      for (const [changeId, snapshot] of await strategySnapshots(tx, row)) {
        await tx.update(t.changeRequestChanges).set({ strategySnapshot: snapshot }).where(eq(t.changeRequestChanges.id, changeId));
      }
      return moveTo(tx, record, row, 'Scheduled', 'change-request-scheduled', { scheduledAt: at, scheduledByUserId: scheduledBy, scheduleStatus: 'pending', scheduleReason: null });
    }
    default:
      throw conflict(`The change request ${row.id} is "${row.state}": it cannot move to "${body.state}".`);
  }
}

/** A change the author may still edit or discard: its request is a draft or in review (and locked until `tx` ends). */
async function editableChange(tx: Db, context: HandlerContext, params: { projectId: string; changeRequestId: number; changeId: number }) {
  const row = await requireChangeRequest(tx, params.projectId, params.changeRequestId, { forUpdate: true });
  const [change] = await tx
    .select()
    .from(t.changeRequestChanges)
    .where(and(eq(t.changeRequestChanges.id, params.changeId), eq(t.changeRequestChanges.changeRequestId, row.id)));
  if (!change) throw notFound(`The change request ${row.id} has no change with id ${params.changeId}.`);
  requireState(row, ['Draft', 'In review'], 'have its changes edited');
  requireAuthor(context, row, 'edit its changes');
  return { row, change };
}

/** Editing a request in review withdraws the approvals given to what it was. */
async function withdrawApprovals(tx: Db, row: ChangeRequestRow) {
  await tx.delete(t.changeRequestReviews).where(and(eq(t.changeRequestReviews.changeRequestId, row.id), eq(t.changeRequestReviews.kind, 'approval')));
}

export const changeRequestHandlers = {
  async getChangeRequestConfig({ params }, { db }) {
    await requireProject(db, params.projectId);
    const rows = await db
      .select({ environment: t.environments.name, type: t.environments.type, enabled: t.changeRequestSettings.enabled, requiredApprovals: t.changeRequestSettings.requiredApprovals })
      .from(t.projectEnvironments)
      .innerJoin(t.environments, eq(t.environments.name, t.projectEnvironments.environment))
      .leftJoin(t.changeRequestSettings, and(eq(t.changeRequestSettings.project, t.projectEnvironments.project), eq(t.changeRequestSettings.environment, t.environments.name)))
      .where(eq(t.projectEnvironments.project, params.projectId))
      .orderBy(asc(t.environments.sortOrder), asc(t.environments.name));
    const body = rows.map((r) => ({ environment: r.environment, type: r.type, changeRequestEnabled: r.enabled ?? false, requiredApprovals: r.requiredApprovals ?? 1 }));
    return { status: 200, body };
  },

  async updateChangeRequestConfig({ params, body }, { caller, change }) {
    await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      await requireProjectEnvironment(tx, params.projectId, params.environment);
      const before = await settingsOf(tx, params.projectId, params.environment);
      const after = { changeRequestsEnabled: body.changeRequestsEnabled, requiredApprovals: body.requiredApprovals ?? before?.requiredApprovals ?? 1 };
      requireMayLoosen(caller, { project: params.projectId, environment: params.environment }, before, { enabled: after.changeRequestsEnabled, requiredApprovals: after.requiredApprovals });
      await tx
        .insert(t.changeRequestSettings)
        .values({ project: params.projectId, environment: params.environment, enabled: after.changeRequestsEnabled, requiredApprovals: after.requiredApprovals })
        .onConflictDoUpdate({ target: [t.changeRequestSettings.project, t.changeRequestSettings.environment], set: { enabled: after.changeRequestsEnabled, requiredApprovals: after.requiredApprovals } });
      const preData = before ? { changeRequestsEnabled: before.enabled, requiredApprovals: before.requiredApprovals } : null;
      if (!isDeepStrictEqual(preData, after)) {
        await record({ type: 'change-request-configuration-updated', project: params.projectId, environment: params.environment, data: after, preData });
      }
    });
    return { status: 204, body: undefined };
  },

  async addChangeRequestChanges({ params, body }, context) {
    const userId = actorId(context.caller);
    const changes = (Array.isArray(body) ? body : [body]) as ChangeInput[];
    const row = await context.change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      await requireProjectEnvironment(tx, params.projectId, params.environment);
      // Locked: proposals in the environment wait for each other, so an author's two at once make one draft.
      const settings = await settingsOf(tx, params.projectId, params.environment, { forUpdate: true });
      if (!settings?.enabled) throw conflict(`The environment "${params.environment}" of the project "${params.projectId}" does not require change requests: change the flags directly.`);
      for (const [i, change] of changes.entries()) await checkChange(tx, context, { project: params.projectId, environment: params.environment }, change, Array.isArray(body) ? `body[${i}]` : 'body');
      let [draft] = await tx
        .select()
        .from(t.changeRequests)
        .where(and(eq(t.changeRequests.project, params.projectId), eq(t.changeRequests.environment, params.environment), eq(t.changeRequests.state, 'Draft'), eq(t.changeRequests.createdByUserId, userId)))
        // A draft being sent to review meanwhile is waited for, and then no longer found.
        .for('update');
      if (!draft) {
        [draft] = await tx
          .insert(t.changeRequests)
          .values({ project: params.projectId, environment: params.environment, state: 'Draft', minApprovals: settings.requiredApprovals, createdByUserId: userId })
          .returning();
        await record({ type: 'change-request-created', ...eventOf(draft!), data: summary(draft!) });
      }
      for (const change of changes) {
        const [added] = await tx.insert(t.changeRequestChanges).values({ changeRequestId: draft!.id, ...change, createdByUserId: userId }).returning();
        await record({ type: 'change-added', ...eventOf(draft!), featureName: change.feature, data: { changeRequestId: draft!.id, id: added!.id, action: change.action, payload: change.payload } });
      }
      return draft!;
    });
    return { status: 200, body: await describeChangeRequest(context.db, row) };
  },

  async getChangeRequests({ params, query }, { db }) {
    await requireProject(db, params.projectId);
    return { status: 200, body: await listChangeRequests(db, params.projectId, query?.state) };
  },

  async getChangeRequest({ params }, { db }) {
    return { status: 200, body: await describeChangeRequest(db, await requireChangeRequest(db, params.projectId, params.changeRequestId)) };
  },

  async updateChangeRequestState({ params, body }, context) {
    const row = await context.change(async (tx, record) =>
      transition(tx, record, context, await requireChangeRequest(tx, params.projectId, params.changeRequestId, { forUpdate: true }), body),
    );
    return { status: 200, body: await describeChangeRequest(context.db, row) };
  },

  async updateChangeRequestTitle({ params, body }, context) {
    await context.change(async (tx) => {
      const row = await requireChangeRequest(tx, params.projectId, params.changeRequestId, { forUpdate: true });
      requireState(row, ['Draft', 'In review'], 'be renamed');
      requireAuthor(context, row, 'rename it');
      await tx.update(t.changeRequests).set({ title: body.title }).where(eq(t.changeRequests.id, row.id));
    });
    return { status: 204, body: undefined };
  },

  async updateChangeRequestChange({ params, body }, context) {
    const row = await context.change(async (tx, record) => {
      const { row, change } = await editableChange(tx, context, params);
      const edited = body as ChangeInput;
      await checkChange(tx, context, row, edited, 'body');
      await tx.update(t.changeRequestChanges).set({ feature: edited.feature, action: edited.action, payload: edited.payload }).where(eq(t.changeRequestChanges.id, change.id));
      await withdrawApprovals(tx, row);
      await record({ type: 'change-edited', ...eventOf(row), featureName: edited.feature, data: { changeRequestId: row.id, id: change.id, action: edited.action, payload: edited.payload }, preData: { changeRequestId: row.id, id: change.id, action: change.action, payload: change.payload } });
      return row;
    });
    return { status: 200, body: await describeChangeRequest(context.db, row) };
  },

  async discardChangeRequestChange({ params }, context) {
    await context.change(async (tx, record) => {
      const { row, change } = await editableChange(tx, context, params);
      await tx.delete(t.changeRequestChanges).where(eq(t.changeRequestChanges.id, change.id));
      await withdrawApprovals(tx, row);
      await record({ type: 'change-discarded', ...eventOf(row), featureName: change.feature, preData: { changeRequestId: row.id, id: change.id, action: change.action, payload: change.payload } });
    });
    return { status: 204, body: undefined };
  },

  async addChangeRequestComment({ params, body }, { db, caller }) {
    const row = await requireChangeRequest(db, params.projectId, params.changeRequestId);
    const userId = actorId(caller);
    await db.insert(t.changeRequestComments).values({ changeRequestId: row.id, userId, text: body.text });
    return { status: 204, body: undefined };
  },
} satisfies Partial<Handlers>;
