import type { FastifyInstance, FastifyRequest } from 'fastify';
import { operationTable, type OperationId } from '../generated/operations.js';
import { holdsAny, missingPermissionMessage, type Caller } from './caller.js';
import type { AuthType } from './config.js';
import { forbidden, unauthorized } from './errors.js';
import type { TokenCache } from './token-cache.js';
import { anonymousAdmin, callerOfToken, credentialFrom } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export function operationOf(request: FastifyRequest): (typeof operationTable)[OperationId] | undefined {
  const id = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  return id && id in operationTable ? operationTable[id as OperationId] : undefined;
}

const stringField = (source: unknown, key: string): string | undefined => {
  const value = (source as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Authentication in onRequest (401 before anything else is looked at) and the operation's
 * `x-permission` in preValidation, before the content type and the body are checked (403).
 */
export function registerAuth(app: FastifyInstance, tokens: TokenCache, authType: AuthType): void {
  app.decorateRequest('caller', null);

  app.addHook('onRequest', async (request) => {
    const operation = operationOf(request);
    if (!operation || operation.public) return;
    const credential = credentialFrom(request.headers.authorization);
    const token = credential ? await tokens.find(credential) : undefined;
    if (token) request.caller = callerOfToken(token);
    else if (authType === 'none') request.caller = anonymousAdmin;
    else if (credential) throw unauthorized('The credential in the Authorization header is not valid: it is unknown, revoked or expired.');
    else throw unauthorized('This operation needs a credential: send an API token in the Authorization header.');
  });

  app.addHook('preValidation', async (request) => {
    const operation = operationOf(request);
    if (!operation || operation.public || !request.caller) return;
    const scope = {
      project: stringField(request.params, 'projectId') ?? stringField(request.body, 'project'),
      environment: stringField(request.params, 'environment') ?? stringField(request.body, 'environment'),
    };
    if (!holdsAny(request.caller, operation.permissions, scope)) throw forbidden(missingPermissionMessage(operation.permissions));
  });
}
