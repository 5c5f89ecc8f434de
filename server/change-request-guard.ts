// Direct writes to flags in an environment that requires change requests are refused (409), unless the caller
// may skip change requests there. Which operations are guarded, and how, the contract says (x-change-request).
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { holds } from './caller.js';
import { conflict } from './errors.js';

/** The environments of the project where change requests are required. */
export async function changeRequestEnvironments(db: Db, project: string): Promise<Set<string>> {
  const rows = await db
    .select({ environment: t.changeRequestSettings.environment })
    .from(t.changeRequestSettings)
    .where(and(eq(t.changeRequestSettings.project, project), eq(t.changeRequestSettings.enabled, true)));
  return new Set(rows.map((row) => row.environment));
}

/** The environments among `candidates` where one of the flags is on. */
async function environmentsWhereOn(db: Db, flags: string[], candidates: Set<string>): Promise<string[]> {
  if (flags.length === 0) return [];
  const rows = await db
    .select({ environment: t.featureEnvironments.environment })
    .from(t.featureEnvironments)
    .where(and(inArray(t.featureEnvironments.featureName, flags), eq(t.featureEnvironments.enabled, true)));
  return [...new Set(rows.map((row) => row.environment))].filter((environment) => candidates.has(environment));
}

interface GuardedRequest {
  params?: { projectId?: string; environment?: string; featureName?: string };
  body?: { features?: unknown };
}

export function registerChangeRequestGuard(app: FastifyInstance, db: Db): void {
  app.addHook('preHandler', async (request) => {
    const kind = (request.operation as { changeRequest?: 'environment' | 'project' | 'enabled-flag' } | null)?.changeRequest;
    const project = (request as GuardedRequest).params?.projectId;
    if (!kind || !project || !request.caller) return;
    const required = await changeRequestEnvironments(db, project);
    if (required.size === 0) return;
    const { params, body } = request as GuardedRequest;
    const flags = params?.featureName ? [params.featureName] : Array.isArray(body?.features) ? (body.features as string[]) : [];
    const guarded =
      kind === 'environment' ? [params?.environment ?? ''].filter((e) => required.has(e)) : kind === 'project' ? [...required] : await environmentsWhereOn(db, flags, required);
    const blocked = guarded.find((environment) => !holds(request.caller!, 'SKIP_CHANGE_REQUEST', { project, environment }));
    if (blocked !== undefined) {
      throw conflict(
        `The environment "${blocked}" of the project "${project}" requires change requests: propose this change with ` +
          `POST /api/admin/projects/${project}/environments/${blocked}/change-requests, or ask for the SKIP_CHANGE_REQUEST permission there.`,
      );
    }
  });
}
