import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pino, type Logger } from 'pino';
import type { AppConfig } from './config.js';

// Path segments that carry a credential: never written to a log line.
const secretInPath = /((?:api-tokens|invite-link\/tokens|invite)\/+)[^/?]+/g;

export const redactUrl = (url: string) => url.replace(secretInPath, '$1[redacted]');

/** The service's logger: pino, without credential headers or secret fields. */
export function createLogger(config: AppConfig): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.password'], censor: '[redacted]' },
    serializers: { err: pino.stdSerializers.err },
  };
  return config.logStream ? pino(options, config.logStream) : pino(options);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's logger, bound to its id; absent on routes that log nothing per request. */
    requestLog: Logger | null;
  }
}

const startedAt = Symbol('request start');

/**
 * One line when a request comes in and one when it is answered, with its id, on the routes of this
 * instance. The service's own logging instead of fastify's, so that the SDK poll route, registered
 * outside, pays nothing for it.
 */
export function registerRequestLogging(app: FastifyInstance, logger: Logger): void {
  app.addHook('onRequest', async (request) => {
    (request as FastifyRequest & { [startedAt]: number })[startedAt] = performance.now();
    request.requestLog = logger.child({ reqId: request.id });
    request.requestLog.info({ req: { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip } }, 'incoming request');
  });
  app.addHook('onResponse', async (request, reply) => {
    const started = (request as FastifyRequest & { [startedAt]?: number })[startedAt];
    request.requestLog?.info(
      { res: { statusCode: reply.statusCode }, responseTime: started === undefined ? undefined : performance.now() - started },
      'request completed',
    );
  });
}

/** The logger for what happens while handling `request`. */
export const logOf = (request: FastifyRequest, fallback: Logger): Logger => request.requestLog ?? fallback;
