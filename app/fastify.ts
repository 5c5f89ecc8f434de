// The fastify instance the service and an edge node both run on: its options, and how errors and unknown paths are answered.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { answerClientError } from '../kernel/client-errors.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type AppConfig } from '../kernel/config.js';
import { errorBody, toErrorReply } from '../kernel/errors.js';
import { logOf } from '../kernel/logging.js';
import { OFREP_PATH, ofrepErrorBody } from '../domain/ofrep/errors.js';
import { httpTimeouts } from './http-timeouts.js';

export function createFastify(config: Pick<AppConfig, 'trustProxy' | 'requestTimeoutMs'>): FastifyInstance {
  const app = Fastify({
    // Logging is the service's own (registerRequestLogging): fastify's costs every request, SDK polls included.
    logger: false,
    requestIdHeader: 'x-request-id',
    // TRUST_PROXY: only these peers' X-Forwarded-Proto and X-Forwarded-For set request.protocol and request.ip.
    trustProxy: config.trustProxy ?? false,
    forceCloseConnections: 'idle',
    ...httpTimeouts(config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
    // A path parameter as long as the request line Node reads (16 KB; longer is 431): one past the schema's maxLength is
    // answered by authentication and validation (401, 400 naming it), not by the router's undocumented 414 or 404.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 16 * 1024 },
    // What Node's HTTP parser refuses (headers too large, malformed HTTP, too slow) is answered as an Error too.
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, _request, reply) => {
      const { status, body } = toErrorReply(error);
      (reply as FastifyReply).code(status).type('application/json').send(body);
    },
  });
  return app as unknown as FastifyInstance;
}

/** Errors as the contract's Error (OFREP's own shape on its routes), and unknown paths as 404. */
export function registerErrorAnswers(app: FastifyInstance, logger: Logger): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('operation', null);
  app.decorateRequest('requestLog', null);

  app.setErrorHandler((error, request, reply) => {
    const { status, body, internal } = toErrorReply(error);
    if (internal) logOf(request, logger).error({ err: error }, 'request failed');
    const answer = request.operation?.path.startsWith(`${OFREP_PATH}/`) ? ofrepErrorBody(error, status, body, (request.params as { key?: string } | undefined)?.key) : body;
    return reply.code(status).header('x-request-id', request.id).type('application/json').send(answer);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return reply.code(404).header('x-request-id', request.id).send(errorBody('NotFoundError', `The path you were looking for (${path}) is not available.`));
  });
}
