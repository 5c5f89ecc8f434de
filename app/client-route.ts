import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { operationTable } from '../generated/operations.js';
import type { Handlers } from '../domain/handler-context.js';
import { clientQuery, heldEtag } from '../domain/client-features/request-shape.js';
import { authenticate, authorize } from '../domain/access/auth.js';
import type { ServedSnapshots } from '../domain/client-features/cache.js';
import type { Caller } from '../shared/caller.js';
import type { AuthType } from '../kernel/config.js';
import type { HandlerContext } from '../domain/handler-context.js';
import { sendResult, type AnyHandler } from './handler-adapter.js';
import { toErrorReply } from '../kernel/errors.js';
import type { ServiceMetrics } from '../kernel/prometheus.js';
import type { TokenLookup } from '../domain/access/tokens.js';

const isEmpty = (query: unknown) => {
  for (const _ in query as object) return false;
  return true;
};


/**
 * GET /api/client/features outside the generic pipeline. Every running SDK polls it, so it runs no
 * hooks, no schema validation and no per-request logger: it authenticates and authorizes the same way
 * as every other operation (401 → 403) and calls the contract's typed handler. The filters need no
 * validation: a malformed one matches no flag.
 */
export function registerClientFeaturesRoute(
  app: FastifyInstance,
  tokens: TokenLookup,
  authType: AuthType,
  handler: Handlers['getClientFeatures'],
  context: (request: FastifyRequest) => HandlerContext,
  sourceOf: (caller: Caller) => ServedSnapshots,
  metrics: ServiceMetrics,
): void {
  const operation = operationTable.getClientFeatures;
  const run = handler as AnyHandler;
  const observe = (request: FastifyRequest, status: number, start: number) =>
    metrics.observeClientFeatures(operation.path, status, performance.now() - start, metrics.appNameOf(request));
  /** The common poll: nothing changed since this SDK's last answer. Known before anything is built. */
  const notModified = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const held = isEmpty(request.query) ? heldEtag(request.caller!, request.headers, sourceOf(request.caller!)) : undefined;
    if (held === undefined) return false;
    reply.code(304).header('etag', held).send();
    return true;
  };

  /** The rest of a poll; `caller` a promise when its token was not cached (then nothing was checked yet). */
  async function answer(request: FastifyRequest, reply: FastifyReply, start: number, caller: Caller | Promise<Caller>) {
    let status: number | undefined;
    try {
      if (caller instanceof Promise) {
        request.caller = await caller;
        authorize(request.caller, operation.permissions);
        if (notModified(request, reply)) {
          status = 304;
          return reply;
        }
      }
      const query = clientQuery(request.query as Record<string, unknown>);
      const sent = sendResult(reply, await run({ params: undefined, query, body: undefined, headers: request.headers }, context(request)));
      status = reply.statusCode;
      return sent;
    } catch (error) {
      status = toErrorReply(error).status;
      throw error;
    } finally {
      observe(request, status ?? 500, start);
    }
  }

  // Not an async function: a poll answered 304 with a cached token is answered in the same turn, as bare fastify
  // answers, without the promise an async handler costs; anything else continues in `answer`.
  app.get(operation.path, (request, reply) => {
    // Timed here, not by hooks: one clock read and one labelled observation per poll.
    const start = performance.now();
    let caller: Caller | Promise<Caller>;
    try {
      caller = authenticate(request.headers.authorization, tokens, authType);
      if (!(caller instanceof Promise)) {
        request.caller = caller;
        authorize(caller, operation.permissions);
        if (notModified(request, reply)) {
          observe(request, 304, start);
          return;
        }
      }
    } catch (error) {
      observe(request, toErrorReply(error).status, start);
      throw error;
    }
    return answer(request, reply, start, caller);
  });
}
