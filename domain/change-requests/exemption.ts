// Who must pass four-eyes cannot exempt themselves from it: loosening an environment's change-request rule, or giving
// a role that skips change requests, takes the right to skip them there.
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { holds, type Caller } from '../../shared/caller.js';
import { forbidden } from '../../kernel/errors.js';

const SKIP = 'SKIP_CHANGE_REQUEST';

/** 403 unless the caller may skip change requests in the project's environment, for what `doing` describes. */
function requireSkip(caller: Caller, project: string, environment: string | null, doing: string) {
  if (holds(caller, SKIP, { project, environment: environment ?? undefined })) return;
  const where = environment === null ? 'every environment' : `the environment "${environment}"`;
  throw forbidden(`${doing} needs the ${SKIP} permission in ${where} of the project "${project}": who must pass change requests there may not exempt themselves.`);
}

/** Turning change requests off, or asking fewer approvals than now, is loosening the rule. */
export function requireMayLoosen(
  caller: Caller,
  place: { project: string; environment: string },
  before: { enabled: boolean; requiredApprovals: number } | undefined,
  after: { enabled: boolean; requiredApprovals: number },
) {
  if (!before?.enabled) return;
  if (!after.enabled) requireSkip(caller, place.project, place.environment, 'Turning change requests off');
  else if (after.requiredApprovals < before.requiredApprovals) requireSkip(caller, place.project, place.environment, 'Lowering the approvals change requests need');
}

/** 403 when one of the roles lets its holders skip change requests where the caller may not. */
export async function requireMayGrantRoles(db: Db, caller: Caller, project: string, roleIds: number[]) {
  if (roleIds.length === 0) return;
  const skipping = await db
    .select({ role: t.roles.name, environment: t.rolePermissions.environment })
    .from(t.rolePermissions)
    .innerJoin(t.roles, eq(t.roles.id, t.rolePermissions.roleId))
    .where(and(inArray(t.rolePermissions.roleId, roleIds), eq(t.rolePermissions.permission, SKIP)));
  for (const { role, environment } of skipping) requireSkip(caller, project, environment, `Giving the role "${role}", which skips change requests,`);
}
