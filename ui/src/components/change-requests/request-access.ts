// What the signed-in user may do with one change request, as the service decides it (handlers/change-requests.ts):
// the author edits while it is a draft or in review, approvers (never the author) review, appliers apply or
// schedule, the author or an approver cancels. And the one way the request's parts change: through the API, after
// which every change-request answer and the flags are read again.
import type { components } from '../../../../generated/api.js';
import { holdsIn } from '../../lib/permissions.js';
import { useChange } from '../../queries';
import { useSession } from '../../session';

export type ChangeRequest = components['schemas']['ChangeRequest'];
export type ChangeRequestState = components['schemas']['ChangeRequestState'];
export type ChangeRequestChange = ChangeRequest['features'][number]['changes'][number];

export interface RequestRights {
  /** The signed-in user wrote it. */
  mine: boolean;
  /** Rename it, edit or discard its changes (its author, while it is a draft or in review). */
  edit: boolean;
  /** Send it to review (its author, a draft with changes). */
  submit: boolean;
  /** Approve or reject it (a user holding APPROVE_CHANGE_REQUEST there, not its author, while in review). */
  review: boolean;
  /** Apply it now (APPLY_CHANGE_REQUEST there, once approved or scheduled). */
  apply: boolean;
  /** Schedule it, or move its schedule (a user holding APPLY_CHANGE_REQUEST, once approved or scheduled). */
  schedule: boolean;
  /** Cancel it (its author or an approver, until it is applied or closed). */
  cancel: boolean;
  /** Comment on it. */
  comment: boolean;
}

export function useRequestRights(request: ChangeRequest): RequestRights {
  const session = useSession();
  const scope = { project: request.project, environment: request.environment };
  const user = session.user !== undefined;
  const mine = user && session.user?.id === request.createdBy.id;
  const approver = holdsIn(session.caller, 'APPROVE_CHANGE_REQUEST', scope);
  const applier = holdsIn(session.caller, 'APPLY_CHANGE_REQUEST', scope);
  const approved = request.state === 'Approved' || request.state === 'Scheduled';
  const changes = request.features.some((feature) => feature.changes.length > 0);
  return {
    mine,
    edit: mine && (request.state === 'Draft' || request.state === 'In review'),
    submit: mine && request.state === 'Draft' && changes,
    review: user && !mine && request.state === 'In review' && approver,
    apply: approved && applier,
    schedule: user && approved && applier,
    cancel: (mine || approver) && ['Draft', 'In review', 'Approved', 'Scheduled'].includes(request.state),
    comment: session.can('addChangeRequestComment', scope),
  };
}

/** The path parameters of the request's own operations. */
export const requestPath = (request: ChangeRequest) => ({ projectId: request.project, changeRequestId: request.id });

/** A change to a request; afterwards the requests and the flags (which applying changes) are read again. */
export const useRequestChange = <V, R>(change: (variables: V) => Promise<R>) => useChange(change, ['change-requests'], ['flag'], ['flags']);
