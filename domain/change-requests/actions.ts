// What each change of a change request does: the direct operation it runs, and how its payload becomes that
// operation's path and body. Proposing needs the operation's permission and the body must match the operation's schema,
// both read from the generated operation table; applying runs the operation's own handler inside the request's
// transaction, with its usual events.
import type { components } from '../../generated/api.js';
import { operationTable, type OperationId } from '../../generated/operations.js';
import type { Handlers } from '../handler-context.js';
import type { Db } from '../../db/connect.js';
import type { RequiredPermission } from '../../shared/caller.js';
import type { HandlerContext } from '../handler-context.js';
import { AppError, badRequest, conflict } from '../../kernel/errors.js';
import type { RecordEvent } from '../events/event-log.js';
import { assertMatchesSchema } from '../../kernel/schema-check.js';

type Action = components['schemas']['ChangeRequestAction'];
type Payload = Record<string, unknown> | unknown[];
type DirectOperation = OperationId & keyof Handlers;

interface Where {
  projectId: string;
  environment: string;
  featureName: string;
}

/** A change as a call of its direct operation: the path parameters its payload gives (beyond where it applies) and the body. */
interface DirectCall {
  operation: DirectOperation;
  params?: Record<string, string>;
  body?: unknown;
  /** Where the body is within the payload, for messages (`.variants`); the payload itself when absent. */
  bodyAt?: string;
}

interface ActionShape {
  /** The direct operations the action may run: one, or for updateEnabled the two its payload chooses between. */
  operations: readonly DirectOperation[];
  /** Checks what of the payload is not the body (throws 400 naming the place) and makes the call. */
  call(payload: Payload, label: string): DirectCall;
}

export interface ActionRule {
  /** What proposing the change needs: the permission of its direct operations. */
  permission: RequiredPermission;
  /** Checks the payload as the direct operation would check its path and body; throws 400 naming the place. */
  check(payload: Payload, label: string): void;
  apply(handlers: Handlers, where: Where, payload: Payload, context: HandlerContext): Promise<unknown>;
}

const objectPayload = (payload: Payload, label: string) => {
  if (Array.isArray(payload)) throw badRequest(`${label} must be an object.`);
  return payload;
};

/** `{id, …}`: a strategy id and, for updates, the rest as a strategy body. */
function strategyId(payload: Payload, label: string): string {
  const id = objectPayload(payload, label).id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 100) throw badRequest(`${label}.id must be the id of a strategy of the flag.`);
  return id;
}

/** `{planId, milestoneId}`: a milestone of a release plan of the flag there. */
function planMilestone(payload: Payload, label: string): { planId: string; milestoneId: string } {
  const value = objectPayload(payload, label);
  const extra = Object.keys(value).find((key) => key !== 'planId' && key !== 'milestoneId');
  if (extra) throw badRequest(`${label} has the unknown field "${extra}".`);
  const ids = { planId: value.planId, milestoneId: value.milestoneId };
  for (const [name, id] of Object.entries(ids)) {
    if (typeof id !== 'string' || id.length === 0 || id.length > 100) throw badRequest(`${label}.${name} must be the id of a release plan's ${name === 'planId' ? 'plan' : 'milestone'}.`);
  }
  return ids as { planId: string; milestoneId: string };
}

const withoutId = (payload: Payload) => {
  const { id: _, ...rest } = payload as Record<string, unknown>;
  return rest;
};

/** The payload has `field` of the type, and nothing else; answers it. */
function exactly<T extends boolean | string>(payload: Payload, label: string, field: string, type: 'boolean' | 'string'): T {
  const value = objectPayload(payload, label);
  const extra = Object.keys(value).find((key) => key !== field);
  if (extra) throw badRequest(`${label} has the unknown field "${extra}".`);
  if (typeof value[field] !== type) throw badRequest(`${label}.${field} must be a ${type}.`);
  return value[field] as T;
}

/** An action that runs one operation; `split` makes its path parameters and body of the payload (by default the body is the payload). */
const runs = (operation: DirectOperation, split: (payload: Payload, label: string) => Omit<DirectCall, 'operation'> = (payload) => ({ body: payload })): ActionShape => ({
  operations: [operation],
  call: (payload, label) => ({ operation, ...split(payload, label) }),
});

const actions: Record<Action, ActionShape> = {
  updateEnabled: {
    operations: ['enableFeatureEnvironment', 'disableFeatureEnvironment'],
    call: (payload, label) => ({ operation: exactly<boolean>(payload, label, 'enabled', 'boolean') ? 'enableFeatureEnvironment' : 'disableFeatureEnvironment' }),
  },
  addStrategy: runs('addFeatureStrategy'),
  updateStrategy: runs('updateFeatureStrategy', (payload, label) => ({ params: { strategyId: strategyId(payload, label) }, body: withoutId(payload) })),
  deleteStrategy: runs('deleteFeatureStrategy', (payload, label) => {
    exactly(payload, label, 'id', 'string');
    return { params: { strategyId: strategyId(payload, label) } };
  }),
  reorderStrategy: runs('setStrategySortOrder'),
  patchVariant: runs('setEnvironmentVariants', (payload, label) => {
    const value = objectPayload(payload, label);
    const extra = Object.keys(value).find((key) => key !== 'variants');
    if (extra) throw badRequest(`${label} has the unknown field "${extra}".`);
    return { body: value.variants, bodyAt: '.variants' };
  }),
  addDependency: runs('addDependency'),
  deleteDependency: runs('deleteDependency', (payload, label) => ({ params: { parent: exactly<string>(payload, label, 'feature', 'string') } })),
  archiveFeature: runs('archiveFeature', (payload, label) => {
    if (Array.isArray(payload) || Object.keys(payload).length > 0) throw badRequest(`${label} must be an empty object.`);
    return {};
  }),
  startMilestone: runs('startReleasePlanMilestone', (payload, label) => ({ params: planMilestone(payload, label) })),
};

/** The direct operation each action names (updateEnabled: both it may run), for tests and readers. */
export const actionOperations = Object.fromEntries(Object.entries(actions).map(([action, shape]) => [action, shape.operations])) as Record<Action, readonly DirectOperation[]>;

/** The call a change makes, its payload checked; the body against the schema the operation's contract names. */
function directCall(action: Action, payload: Payload, label: string): DirectCall {
  const call = actions[action].call(payload, label);
  const { bodySchema } = operationTable[call.operation];
  if (bodySchema) assertMatchesSchema(bodySchema, call.body, `${label}${call.bodyAt ?? ''}`);
  return call;
}

/** The one permission the operations need; an action whose operations need other or more is a mistake found at start. */
function permissionOf(action: Action, operations: readonly DirectOperation[]): RequiredPermission {
  const needed = [...new Set(operations.flatMap((id) => operationTable[id].permissions as readonly RequiredPermission[]))];
  if (needed.length !== 1) throw new Error(`The change-request action ${action} runs operations needing ${needed.join(', ')}: it must need one permission.`);
  return needed[0]!;
}

/** The operation's path parameters, taken from where the change applies and what its payload gives. */
function pathParams(operation: DirectOperation, values: Record<string, string>): Record<string, string> {
  const names = [...operationTable[operation].path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  return Object.fromEntries(names.map((name) => [name, values[name]!]));
}

type AnyHandler = (request: never, context: HandlerContext) => Promise<unknown>;

export const actionRules = Object.fromEntries(
  (Object.keys(actions) as Action[]).map((action): [Action, ActionRule] => [
    action,
    {
      permission: permissionOf(action, actions[action].operations),
      check: (payload, label) => void directCall(action, payload, label),
      apply: (handlers, where, payload, context) => {
        const { operation, params, body } = directCall(action, payload, 'payload');
        const request = { params: pathParams(operation, { ...where, ...params }), body, query: undefined, headers: {} };
        return (handlers[operation] as AnyHandler)(request as never, context);
      },
    },
  ]),
) as Record<Action, ActionRule>;

/** A context whose `change` runs inside the given transaction: the operations' writes become part of it. */
export function withinTransaction(context: Omit<HandlerContext, 'db' | 'change'>, tx: Db, record: RecordEvent): HandlerContext {
  return {
    caller: context.caller,
    log: context.log,
    config: context.config,
    events: context.events,
    clientFeatures: context.clientFeatures,
    clientMetrics: context.clientMetrics,
    requestCounts: context.requestCounts,
    // Reads inside the transaction see its uncommitted writes: none may be kept for others.
    recentReads: { read: (_key, read) => read() },
    operations: context.operations,
    clientIp: context.clientIp,
    secureCookies: context.secureCookies,
    db: tx,
    change: (work) => work(tx, record),
  };
}

export interface AppliedChange {
  id: number;
  feature: string;
  action: Action;
  payload: Payload;
}

/**
 * Applies the changes in order; a change that no longer applies (its strategy deleted, its flag archived) is a 409
 * naming it, and since the caller's transaction then rolls back, nothing is applied.
 */
export async function applyChangeList(handlers: Handlers, where: Omit<Where, 'featureName'>, changes: AppliedChange[], context: HandlerContext) {
  for (const change of changes) {
    try {
      await actionRules[change.action].apply(handlers, { ...where, featureName: change.feature }, change.payload, context);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        throw conflict(`Change ${change.id} (${change.action} of "${change.feature}") no longer applies, so nothing was applied: ${error.message}`);
      }
      throw error;
    }
  }
}
