import type { FastifyServerOptions } from 'fastify';
import type { AppConfig } from './config.js';

// Path segments that carry a credential: never written to a log line.
const secretInPath = /(api-tokens\/+)[^/?]+/g;

export const redactUrl = (url: string) => url.replace(secretInPath, '$1[redacted]');

/** pino with request ids, no credential headers and no secret path segments. */
export function loggerOptions(config: AppConfig): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(config.logStream ? { stream: config.logStream } : {}),
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.password'], censor: '[redacted]' },
    serializers: {
      req: (request) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}
