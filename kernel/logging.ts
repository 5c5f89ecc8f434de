import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pino, type Logger, type LoggerOptions } from 'pino';
import type { AppConfig } from './config.js';
import { redacted } from './log-redaction.js';

// Path segments that carry a credential: never written to a log line.
const secretInPath = /((?:api-tokens|invite-link\/tokens|invite)\/+)[^/?]+/g;

export const redactUrl = (url: string) => url.replace(secretInPath, '$1[redacted]');

/**
 * The service's logger: pino, with credential-named fields (secret, password, token, authorization,
 * cookie, …) redacted at any depth and errors logged without a failed query's SQL or parameters.
 * pino's own `redact` takes fixed paths, so every logged object goes through `redacted` instead.
 */
export function createLogger(config: Pick<AppConfig, 'logLevel' | 'logStream'>): Logger {
  const options: LoggerOptions = {
    level: config.logLevel,
    formatters: {
      log: (object) => redacted(object) as Record<string, unknown>,
      bindings: (bindings) => redacted(bindings) as Record<string, unknown>,
    },
    serializers: { err: (error) => redacted(error) },
  };
  return config.logStream ? pino(options, config.logStream) : pino(options);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's logger, bound to its id: made by the request-logging hook, or by `logOf` at first use. */
    requestLog: Logger | null;
  }
}

const startedAt = Symbol('request start');

/**
 * One line when a request comes in and one when it is answered, with its id, on the routes of this
 * instance. The service's own logging instead of fastify's, so that the SDK poll route, registered
 * outside, pays nothing for it. Below the info level no hook runs at all (the lines would be dropped).
 */
export function registerRequestLogging(app: FastifyInstance, logger: Logger): void {
  if (!logger.isLevelEnabled('info')) return;
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

/** The logger for what happens while handling `request`, bound to its id (made at first use when no hook made it). */
export const logOf = (request: FastifyRequest, logger: Logger): Logger => (request.requestLog ??= logger.child({ reqId: request.id }));
