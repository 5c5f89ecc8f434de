// What each change of a change request does: its payload's schema, the permission proposing it needs, and how it is
// applied — through the direct operation's own handler, inside the request's transaction, with its usual events.
import type { components } from '../../generated/api.js';
import type { Handlers } from '../handler-context.js';
import type { Db } from '../../db/connect.js';
import type { PermissionName } from '../../shared/caller.js';
import type { HandlerContext } from '../handler-context.js';
import { AppError, badRequest, conflict } from '../../kernel/errors.js';
import type { RecordEvent } from '../events/event-log.js';
import { assertMatchesSchema } from '../../kernel/schema-check.js';

type Action = components['schemas']['ChangeRequestAction'];
type Payload = Record<string, unknown> | unknown[];

interface Where {
  projectId: string;
  environment: string;
  featureName: string;
}

interface ActionRule {
  permission: PermissionName;
  /** Checks the payload as the direct operation's body would be checked; throws 400 naming the place. */
  check(payload: Payload, label: string): void;
  apply(handlers: Handlers, where: Where, payload: Payload, context: HandlerContext): Promise<unknown>;
}

const request = <P, B = undefined>(params: P, body?: B) => ({ params, body, query: undefined, headers: {} }) as never;

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

const withoutId = (payload: Payload) => {
  const { id: _, ...rest } = payload as Record<string, unknown>;
  return rest;
};

function exactly(payload: Payload, label: string, field: string, type: 'boolean' | 'string') {
  const value = objectPayload(payload, label);
  const extra = Object.keys(value).find((key) => key !== field);
  if (extra) throw badRequest(`${label} has the unknown field "${extra}".`);
  if (typeof value[field] !== type) throw badRequest(`${label}.${field} must be a ${type}.`);
}

export const actionRules: Record<Action, ActionRule> = {
  updateEnabled: {
    permission: 'UPDATE_FEATURE_ENVIRONMENT',
    check: (payload, label) => exactly(payload, label, 'enabled', 'boolean'),
    apply: (h, where, payload, context) =>
      (payload as { enabled: boolean }).enabled ? h.enableFeatureEnvironment(request(where), context) : h.disableFeatureEnvironment(request(where), context),
  },
  addStrategy: {
    permission: 'CREATE_FEATURE_STRATEGY',
    check: (payload, label) => assertMatchesSchema('CreateFeatureStrategy', payload, label),
    apply: (h, where, payload, context) => h.addFeatureStrategy(request(where, payload), context),
  },
  updateStrategy: {
    permission: 'UPDATE_FEATURE_STRATEGY',
    check: (payload, label) => {
      strategyId(payload, label);
      assertMatchesSchema('CreateFeatureStrategy', withoutId(payload), label);
    },
    apply: (h, where, payload, context) => h.updateFeatureStrategy(request({ ...where, strategyId: strategyId(payload, 'payload') }, withoutId(payload)), context),
  },
  deleteStrategy: {
    permission: 'DELETE_FEATURE_STRATEGY',
    check: (payload, label) => exactly(payload, label, 'id', 'string'),
    apply: (h, where, payload, context) => h.deleteFeatureStrategy(request({ ...where, strategyId: strategyId(payload, 'payload') }), context),
  },
  reorderStrategy: {
    permission: 'UPDATE_FEATURE_STRATEGY',
    check: (payload, label) => assertMatchesSchema('StrategySortOrder', payload, label),
    apply: (h, where, payload, context) => h.setStrategySortOrder(request(where, payload), context),
  },
  patchVariant: {
    permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    check: (payload, label) => {
      const value = objectPayload(payload, label);
      const extra = Object.keys(value).find((key) => key !== 'variants');
      if (extra) throw badRequest(`${label} has the unknown field "${extra}".`);
      assertMatchesSchema('Variants', value.variants, `${label}.variants`);
    },
    apply: (h, where, payload, context) => h.setEnvironmentVariants(request(where, (payload as { variants: unknown }).variants), context),
  },
  addDependency: {
    permission: 'UPDATE_FEATURE_DEPENDENCY',
    check: (payload, label) => assertMatchesSchema('CreateDependency', payload, label),
    apply: (h, { projectId, featureName }, payload, context) => h.addDependency(request({ projectId, featureName }, payload), context),
  },
  deleteDependency: {
    permission: 'UPDATE_FEATURE_DEPENDENCY',
    check: (payload, label) => exactly(payload, label, 'feature', 'string'),
    apply: (h, { projectId, featureName }, payload, context) =>
      h.deleteDependency(request({ projectId, featureName, parent: (payload as { feature: string }).feature }), context),
  },
  archiveFeature: {
    permission: 'DELETE_FEATURE',
    check: (payload, label) => {
      if (Array.isArray(payload) || Object.keys(payload).length > 0) throw badRequest(`${label} must be an empty object.`);
    },
    apply: (h, { projectId, featureName }, _payload, context) => h.archiveFeature(request({ projectId, featureName }), context),
  },
};

/** A context whose `change` runs inside the given transaction: the operations' writes become part of it. */
export function withinTransaction(context: Omit<HandlerContext, 'db' | 'change'>, tx: Db, record: RecordEvent): HandlerContext {
  return {
    caller: context.caller,
    log: context.log,
    config: context.config,
    events: context.events,
    clientFeatures: context.clientFeatures,
    clientMetrics: context.clientMetrics,
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
