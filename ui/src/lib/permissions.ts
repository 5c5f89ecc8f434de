// What the signed-in user may do, decided by the service's own check (shared/caller.ts) over the permissions
// GET /api/admin/user answers and the permission each operation declares in the contract (x-permission): a
// control is offered exactly when the service would accept the call.
import type { components } from '../../../generated/api.js';
import { operationTable, type OperationId } from '../../../generated/operations.js';
import { holdsAny, type Caller, type PermissionScope, type RequiredPermission } from '../../../shared/caller.js';

type CurrentUser = components['schemas']['CurrentUser'];

/** The caller the service sees for this user: every grant, limited to its project and environment when it is. */
export function callerOfCurrentUser(me: CurrentUser): Caller {
  return {
    name: me.user.email ?? me.user.username ?? `user ${me.user.id}`,
    userId: me.user.id,
    tokenKind: null,
    projects: ['*'],
    environment: '*',
    grants: me.permissions.map((p) => ({ permission: p.permission, project: p.project ?? null, environment: p.environment ?? null })),
  };
}

/** With AUTH_TYPE=none there is no user: the service treats every caller as an admin. */
export const unauthenticatedAdmin: Caller = {
  name: 'admin',
  userId: null,
  tokenKind: null,
  projects: ['*'],
  environment: '*',
  grants: [{ permission: 'ADMIN', project: null, environment: null }],
};

const permissionsOf = (operation: OperationId) => operationTable[operation].permissions as readonly RequiredPermission[];

/** Whether the service would let the caller call `operation` in `scope` (its project and environment). */
export function can(caller: Caller, operation: OperationId, scope: PermissionScope = {}): boolean {
  return holdsAny(caller, permissionsOf(operation), scope);
}

/** Whether the caller may call `operation` in at least one project or environment (to offer a "New …" button). */
export function canSomewhere(caller: Caller, operation: OperationId): boolean {
  if (can(caller, operation)) return true;
  return caller.grants.some((grant) => can(caller, operation, { project: grant.project ?? undefined, environment: grant.environment ?? undefined }));
}

/** The projects, of those given, where the caller may call `operation`. */
export const projectsWhere = (caller: Caller, operation: OperationId, projects: string[]) => projects.filter((project) => can(caller, operation, { project }));

/** Whether the caller holds one permission somewhere (for choices inside one operation, such as a token's kind). */
export const holdsSomewhere = (caller: Caller, permission: RequiredPermission) =>
  caller.grants.some((grant) => grant.permission === 'ADMIN' || grant.permission === permission);

/** Whether the caller holds one permission in a scope (for what a handler checks itself, such as approving). */
export const holdsIn = (caller: Caller, permission: RequiredPermission, scope: PermissionScope) => holdsAny(caller, [permission], scope);
