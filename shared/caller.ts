import type { components } from '../generated/api.js';

/** A permission held by a caller, possibly limited to one project and one environment (`null` = any). */
export interface Grant {
  permission: string;
  project: string | null;
  environment: string | null;
}

/** A permission a role can grant: the contract's closed list, so that a misspelt name fails to compile. */
export type PermissionName = components['schemas']['PermissionName'];
/**
 * What an operation may require: a permission, `NONE` (any admin-API caller), `CLIENT` (SDKs), `FRONTEND` (frontend
 * SDKs) or `SDK` (OpenFeature providers: client and frontend tokens alike).
 */
export type RequiredPermission = PermissionName | 'NONE' | 'CLIENT' | 'FRONTEND' | 'SDK';

/** The kind of an API token, as the contract's ApiTokenType names it. */
export type TokenKind = components['schemas']['ApiTokenType'];

/** Who is calling, as authentication found out. */
export interface Caller {
  /** Written as `createdBy` on events. */
  name: string;
  /** Written as `createdByUserId` on events. */
  userId: number | null;
  tokenKind: TokenKind | null;
  /** The projects a client or frontend token may read (`*` = all). */
  projects: string[];
  /** The environment a client or frontend token reads (`*` = all). */
  environment: string;
  grants: Grant[];
}

/** The service itself: writes no user asked for (batched metrics, public signup). */
export const systemCaller: Caller = { name: 'unleash_system_user', userId: -1337, tokenKind: null, projects: ['*'], environment: '*', grants: [] };

/** The id of the user calling (by session or personal access token); undefined for tokens and the service. */
export const userIdOf = (caller: Caller): number | undefined =>
  caller.tokenKind === null && caller.userId !== null && caller.userId > 0 ? caller.userId : undefined;

export interface PermissionScope {
  project?: string | undefined;
  environment?: string | undefined;
}

const ADMIN: PermissionName = 'ADMIN';
export const NONE = 'NONE' satisfies RequiredPermission;
/** The client API: client tokens, and callers who may do everything. */
export const CLIENT = 'CLIENT' satisfies RequiredPermission;
/** The frontend API: frontend tokens, and the anonymous caller of AUTH_TYPE none (no token, no user); not admins. */
export const FRONTEND = 'FRONTEND' satisfies RequiredPermission;
/** OpenFeature's remote evaluation: client and frontend tokens, and the anonymous caller of AUTH_TYPE none; not admins. */
export const SDK = 'SDK' satisfies RequiredPermission;

const isAnonymousAdmin = (caller: Caller) => caller.tokenKind === null && caller.userId === null && holds(caller, ADMIN);

/** A grant limited to one project or environment counts only where the operation names that one. */
const matches = (held: string | null, wanted: string | undefined) => held === null || held === '*' || held === wanted;

/** Whether the caller holds `permission` in `scope`. ADMIN satisfies everything. */
export function holds(caller: Caller, permission: PermissionName, scope: PermissionScope = {}): boolean {
  return caller.grants.some(
    (grant) =>
      grant.permission === ADMIN ||
      (grant.permission === permission && matches(grant.project, scope.project) && matches(grant.environment, scope.environment)),
  );
}

/** Whether the caller holds any one of `permissions` (`NONE` = any admin-API caller). */
export function holdsAny(caller: Caller, permissions: readonly RequiredPermission[], scope: PermissionScope = {}): boolean {
  if (permissions.includes(NONE)) return caller.tokenKind === null || caller.tokenKind === 'admin';
  if (permissions.includes(CLIENT)) return caller.tokenKind === 'client' || holds(caller, ADMIN);
  if (permissions.includes(FRONTEND)) return caller.tokenKind === 'frontend' || isAnonymousAdmin(caller);
  if (permissions.includes(SDK)) return caller.tokenKind === 'client' || caller.tokenKind === 'frontend' || isAnonymousAdmin(caller);
  return permissions.some((permission) => permission !== NONE && permission !== CLIENT && permission !== FRONTEND && permission !== SDK && holds(caller, permission, scope));
}

export function missingPermissionMessage(permissions: readonly RequiredPermission[]): string {
  if (permissions.includes(NONE)) return 'This credential cannot use the admin API: use an admin token.';
  if (permissions.includes(CLIENT)) return 'This endpoint is for SDKs: use a client (backend) token.';
  if (permissions.includes(FRONTEND)) return 'This endpoint is for frontend SDKs (browsers, mobile apps): use a frontend token.';
  if (permissions.includes(SDK)) return 'This endpoint is for SDKs and OpenFeature providers: use a client (backend) or frontend token.';
  const names = permissions.map((p) => `"${p}"`).join(', ');
  return permissions.length === 1
    ? `You need the ${names} permission to perform this operation.`
    : `You need one of the permissions ${names} to perform this operation.`;
}
