// Direct writes that change what SDKs get in an environment that requires change requests are refused (409), unless the
// caller may skip change requests there. Which operations are guarded, and by which rule, the contract says
// (x-change-request; scripts/generate.ts lists the rules).
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { ChangeRequestKind } from '../../generated/operations.js';
import { holds, type Caller } from '../../shared/caller.js';
import { conflict } from '../../kernel/errors.js';

/** The environments of the project where change requests are required. */
export async function changeRequestEnvironments(db: Db, project: string): Promise<Set<string>> {
  const rows = await db
    .select({ environment: t.changeRequestSettings.environment })
    .from(t.changeRequestSettings)
    .where(and(eq(t.changeRequestSettings.project, project), eq(t.changeRequestSettings.enabled, true)));
  return new Set(rows.map((row) => row.environment));
}

/** An environment of a project that requires change requests. */
interface Place {
  project: string;
  environment: string;
}

interface GuardedRequest {
  params?: { projectId?: string; environment?: string; featureName?: string; segmentId?: number };
  body?: { features?: unknown; newProjectId?: unknown };
}

/** The places, among the environments (all when not given), where the project requires change requests. */
async function requiredPlaces(db: Db, project: string | undefined, environments?: string[]): Promise<Place[]> {
  if (project === undefined) return [];
  const required = await changeRequestEnvironments(db, project);
  return [...required].filter((environment) => !environments || environments.includes(environment)).map((environment) => ({ project, environment }));
}

/**
 * The places where one of the flags, or an active flag depending on one, is on: what SDKs evaluate there reads them
 * (a child is on only while its parent is as it requires, and a missing parent fails it). Archived flags are served nowhere.
 */
async function placesWhereOn(db: Db, project: string | undefined, flags: string[]): Promise<Place[]> {
  const required = await requiredPlaces(db, project, undefined);
  if (flags.length === 0 || required.length === 0) return [];
  const children = db.select({ name: t.featureDependencies.child }).from(t.featureDependencies).where(inArray(t.featureDependencies.parent, flags));
  const rows = await db
    .selectDistinct({ environment: t.featureEnvironments.environment })
    .from(t.featureEnvironments)
    .innerJoin(t.features, eq(t.features.name, t.featureEnvironments.featureName))
    .where(
      and(
        or(inArray(t.featureEnvironments.featureName, flags), inArray(t.featureEnvironments.featureName, children)),
        eq(t.featureEnvironments.enabled, true),
        isNull(t.features.archivedAt),
      ),
    );
  const on = new Set(rows.map((row) => row.environment));
  return required.filter((place) => on.has(place.environment));
}

/** The flags a request names: the path's flag, or the body's list. */
const flagsOf = ({ params, body }: GuardedRequest): string[] =>
  params?.featureName ? [params.featureName] : Array.isArray(body?.features) ? (body.features as string[]) : [];

/** The path's project, or else the project of the path's flag (archived or not). */
async function projectOf(db: Db, { params }: GuardedRequest): Promise<string | undefined> {
  if (params?.projectId !== undefined || params?.featureName === undefined) return params?.projectId;
  const [flag] = await db.select({ project: t.features.project }).from(t.features).where(eq(t.features.name, params.featureName));
  return flag?.project;
}

/** Every place where an active flag's strategy uses the segment. */
async function placesUsingSegment(db: Db, segmentId: number | undefined): Promise<Place[]> {
  if (segmentId === undefined) return [];
  return db
    .selectDistinct({ project: t.features.project, environment: t.featureStrategies.environment })
    .from(t.featureStrategySegments)
    .innerJoin(t.featureStrategies, eq(t.featureStrategies.id, t.featureStrategySegments.strategyId))
    .innerJoin(t.features, and(eq(t.features.name, t.featureStrategies.featureName), isNull(t.features.archivedAt)))
    .innerJoin(
      t.changeRequestSettings,
      and(
        eq(t.changeRequestSettings.project, t.features.project),
        eq(t.changeRequestSettings.environment, t.featureStrategies.environment),
        eq(t.changeRequestSettings.enabled, true),
      ),
    )
    .where(eq(t.featureStrategySegments.segmentId, segmentId));
}

const PENDING = ['Draft', 'In review', 'Approved', 'Scheduled'] as const;

/** A flag that pending change requests are about stays in its project: they would otherwise apply elsewhere. */
async function refuseMoveWhilePending(db: Db, flag: string) {
  const [pending] = await db
    .select({ id: t.changeRequests.id, project: t.changeRequests.project, state: t.changeRequests.state })
    .from(t.changeRequestChanges)
    .innerJoin(t.changeRequests, eq(t.changeRequests.id, t.changeRequestChanges.changeRequestId))
    .where(and(eq(t.changeRequestChanges.feature, flag), inArray(t.changeRequests.state, [...PENDING])))
    .orderBy(t.changeRequests.id)
    .limit(1);
  if (pending) {
    throw conflict(
      `The flag "${flag}" is in the change request ${pending.id} of the project "${pending.project}", which is "${pending.state}": ` +
        'apply, reject or cancel it (or discard its changes to the flag) before moving the flag.',
    );
  }
}

/**
 * The places the flag leaves and joins. A caller who may not move flags into the target is left to the handler's
 * 403, which comes first.
 */
async function placesOfMove(db: Db, request: GuardedRequest, caller: Caller): Promise<Place[]> {
  const [from, to, flag] = [request.params?.projectId, request.body?.newProjectId, request.params?.featureName];
  if (typeof to !== 'string' || to === from || flag === undefined || !holds(caller, 'MOVE_FEATURE_TOGGLE', { project: to })) return [];
  await refuseMoveWhilePending(db, flag);
  return [...(await requiredPlaces(db, from)), ...(await requiredPlaces(db, to))];
}

interface Rule {
  /** The places the write changes what SDKs get in, where change requests are required. */
  places(db: Db, request: GuardedRequest, caller: Caller): Promise<Place[]>;
  /** Whether the write can be proposed in a change request instead. */
  proposable: boolean;
}

const rules: Record<ChangeRequestKind, Rule> = {
  environment: { proposable: true, places: (db, { params }) => requiredPlaces(db, params?.projectId, [params?.environment ?? '']) },
  project: { proposable: true, places: (db, { params }) => requiredPlaces(db, params?.projectId) },
  'enabled-flag': { proposable: true, places: async (db, request) => placesWhereOn(db, await projectOf(db, request), flagsOf(request)) },
  'archived-flag': { proposable: false, places: async (db, request) => placesWhereOn(db, await projectOf(db, request), flagsOf(request)) },
  'project-environment': { proposable: false, places: (db, { params }) => requiredPlaces(db, params?.projectId, [params?.environment ?? '']) },
  segment: { proposable: false, places: (db, { params }) => placesUsingSegment(db, params?.segmentId) },
  'flag-move': { proposable: false, places: placesOfMove },
};

/** Whether a write the rule guards can be proposed in a change request instead (change-request actions run only such writes). */
export const mayBeProposed = (kind: ChangeRequestKind): boolean => rules[kind].proposable;

function required({ project, environment }: Place, proposable: boolean) {
  const next = proposable
    ? `propose this change with POST /api/admin/projects/${project}/environments/${environment}/change-requests, or ask for the SKIP_CHANGE_REQUEST permission there.`
    : 'this change cannot be proposed in a change request: ask someone who holds the SKIP_CHANGE_REQUEST permission there to make it.';
  return conflict(`The environment "${environment}" of the project "${project}" requires change requests: ${next}`);
}

export function registerChangeRequestGuard(app: FastifyInstance, db: Db): void {
  app.addHook('preHandler', async (request) => {
    const kind = request.operation?.changeRequest;
    const caller = request.caller;
    if (!kind || !caller) return;
    const rule = rules[kind];
    const blocked = (await rule.places(db, request as GuardedRequest, caller)).find((place) => !holds(caller, 'SKIP_CHANGE_REQUEST', place));
    if (blocked) throw required(blocked, rule.proposable);
  });
}
