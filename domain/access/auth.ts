import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { operationTable, type OperationId } from '../../generated/operations.js';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { holdsAny, missingPermissionMessage, SDK, systemCaller, type Caller, type PermissionScope, type RequiredPermission } from '../../shared/caller.js';
import type { AuthType } from '../../kernel/config.js';
import { forbidden, unauthorized } from '../../kernel/errors.js';
import { anonymousAdmin, callerOfToken, credentialFrom, type TokenLookup, type TokenScope } from './tokens.js';
import { callerOfUser, PAT_PREFIX, sessionSecretOf, userOfPersonalToken, userOfSession } from './user-auth.js';

export type Operation = (typeof operationTable)[OperationId];

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    /** The contract's operation this request was routed to; set first thing in onRequest. */
    operation: Operation | null;
  }
}

function operationOf(request: FastifyRequest): Operation | null {
  const id = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  return id && id in operationTable ? operationTable[id as OperationId] : null;
}

const stringField = (source: unknown, key: string): string | undefined => {
  const value = (source as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Authentication in onRequest (401 before anything else is looked at) and the operation's
 * `x-permission` in preValidation, before the content type and the body are checked (403).
 * Without a database (an edge node), only API tokens authenticate.
 */
export function registerAuth(app: FastifyInstance, tokens: TokenLookup, authType: AuthType, db: Db | undefined): void {
  app.addHook('onRequest', async (request) => {
    const operation = operationOf(request);
    request.operation = operation;
    if (!operation) return;
    request.caller = operation.public ? systemCaller : await authenticateAdmin(request, tokens, authType, db);
  });

  app.addHook('preValidation', async (request) => {
    const operation = request.operation;
    if (!operation || operation.public || !request.caller) return;
    const scope: PermissionScope = {
      project: stringField(request.params, 'projectId') ?? stringField(request.body, 'project'),
      environment: stringField(request.params, 'environment') ?? stringField(request.body, 'environment'),
    };
    if (holdsAny(request.caller, operation.permissions, scope)) return;
    // Paths that name a flag but not its project (tags, archive) are in the flag's project.
    const featureName = stringField(request.params, 'featureName');
    if (scope.project === undefined && featureName !== undefined && db) scope.project = await projectOfFeature(db, featureName);
    authorize(request.caller, operation.permissions, scope);
  });
}

async function projectOfFeature(db: Db, name: string): Promise<string | undefined> {
  if (name.includes('\0')) return undefined;
  const [row] = await db.select({ project: t.features.project }).from(t.features).where(eq(t.features.name, name));
  return row?.project;
}

/** On the admin API a user may call too: with a personal access token, or with a session cookie and no token. */
async function authenticateAdmin(request: FastifyRequest, tokens: TokenLookup, authType: AuthType, db: Db | undefined): Promise<Caller> {
  const authorization = authorizationOf(request);
  if (!db) return authenticate(authorization, tokens, authType);
  const credential = credentialFrom(authorization);
  if (credential?.startsWith(PAT_PREFIX)) {
    const user = await userOfPersonalToken(db, credential);
    if (!user) throw unauthorized('The personal access token in the Authorization header is not valid: it is unknown, deleted or expired.');
    return callerOfUser(db, user);
  }
  const session = credential ? undefined : sessionSecretOf(request.headers.cookie);
  if (session) {
    const user = await userOfSession(db, session);
    if (user) return callerOfUser(db, user);
    if (authType !== 'none') throw unauthorized('Your session has ended (logged out, expired, or the user was deleted); log in again.');
  }
  return authenticate(authorization, tokens, authType);
}

/** The credential's header: Authorization, or on OpenFeature's operations also X-API-Key, which its providers send. */
function authorizationOf(request: FastifyRequest): string | undefined {
  const { authorization } = request.headers;
  const permissions: readonly RequiredPermission[] = request.operation?.permissions ?? [];
  if (authorization !== undefined || !permissions.includes(SDK)) return authorization;
  const apiKey = request.headers['x-api-key'];
  return Array.isArray(apiKey) ? apiKey[0] : apiKey;
}

const callers = new WeakMap<TokenScope, Caller>();

function callerOf(token: TokenScope): Caller {
  let caller = callers.get(token);
  if (!caller) callers.set(token, (caller = callerOfToken(token)));
  return caller;
}

/**
 * Who sent the credential; 401 when there is none or it is not valid (unless AUTH_TYPE is none).
 * A credential seen before is answered at once, without a promise.
 */
export function authenticate(authorization: string | undefined, tokens: TokenLookup, authType: AuthType): Caller | Promise<Caller> {
  const credential = credentialFrom(authorization);
  const known = credential ? tokens.peek(credential) : undefined;
  return known ? callerOf(known) : authenticateSlowly(credential, tokens, authType);
}

async function authenticateSlowly(credential: string | undefined, tokens: TokenLookup, authType: AuthType): Promise<Caller> {
  const token = credential ? await tokens.find(credential) : undefined;
  if (token) return callerOf(token);
  if (authType === 'none') return anonymousAdmin;
  if (credential) throw unauthorized('The credential in the Authorization header is not valid: it is unknown, revoked or expired.');
  throw unauthorized('This operation needs a credential: send an API token in the Authorization header.');
}

/** 403 unless the caller holds one of the permissions (any one suffices) in the scope. */
export function authorize(caller: Caller, permissions: readonly RequiredPermission[], scope: PermissionScope = {}): void {
  if (!holdsAny(caller, permissions, scope)) throw forbidden(missingPermissionMessage(permissions));
}
