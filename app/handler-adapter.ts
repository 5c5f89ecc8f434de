import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Handlers } from '../domain/handler-context.js';
import type { HandlerContext } from '../domain/handler-context.js';

export type HandlerResult = { status: number; body?: unknown; headers?: Record<string, string | string[]> };
export type AnyHandler = (request: unknown, context: HandlerContext) => Promise<HandlerResult>;

/** Sends what a typed handler answered: its status, headers and body (a pre-serialized Buffer as is). */
export function sendResult(reply: FastifyReply, result: HandlerResult) {
  reply.code(result.status);
  if (result.headers) reply.headers(result.headers);
  const body = result.body as { preSerialized?: unknown } | undefined;
  return reply.send(Buffer.isBuffer(body?.preSerialized) ? body.preSerialized : body);
}

/** Adapts each typed handler to fastify: request parts in, `{status, body, headers}` out. */
export function routeHandlers(all: Handlers, context: (request: FastifyRequest) => HandlerContext) {
  const routes: Record<string, (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>> = {};
  for (const [operationId, handler] of Object.entries(all)) {
    const run = handler as AnyHandler;
    routes[operationId] = async (request, reply) =>
      sendResult(reply, await run({ params: request.params, query: request.query, body: request.body, headers: request.headers }, context(request)));
  }
  return routes;
}
