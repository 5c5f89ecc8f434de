import type { FastifyInstance } from 'fastify';
import { badRequest, unsupportedContentTypeMessage, unsupportedMediaType } from './errors.js';

/** Marks a body whose media type has no parser, so that the guard can answer 415 after the permission check. */
const UNSUPPORTED = Symbol('unsupported body');

/** A JSON body that does not parse, or that PostgreSQL could not store: answered 400 by the guard, after the permission check. */
class UnusableJson {
  constructor(readonly message: string) {}
}

const NUL_MESSAGE = 'Text may not contain the NUL character (\\u0000).';

/** Whether a string, key or nested value holds U+0000, which no PostgreSQL text or jsonb value can store. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) => key.includes('\0') || holdsNul(inner));
}

/**
 * Fastify lets a body of an undeclared media type, or a missing body, through unvalidated. This guard
 * answers 415 for the first and 400 for the second; it runs after the permission check.
 */
export function registerBodyGuard(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, payload, done) => {
    if (payload === '') return done(null, undefined);
    parseJson(request, payload as string, (error, body) => {
      if (error) return done(null, new UnusableJson(`The request body is not valid JSON: ${error.message}`));
      // JSON can only carry U+0000 escaped, so bodies without the escape need no walk.
      done(null, /\\u0000/i.test(payload as string) && holdsNul(body) ? new UnusableJson(`The request body is refused: ${NUL_MESSAGE}`) : body);
    });
  });
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, UNSUPPORTED));
    payload.on('error', done);
  });

  app.addHook('preValidation', async (request) => {
    if (holdsNul(request.params) || holdsNul(request.query)) throw badRequest(`The path or query is refused: ${NUL_MESSAGE}`);
    const accepted: readonly string[] = request.operation?.bodyMediaTypes ?? [];
    if (accepted.length === 0) {
      request.body = undefined;
      return;
    }
    const contentType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    const hasPayload = request.body !== undefined && request.body !== null;
    if (!contentType && !hasPayload) throw badRequest('This operation needs a JSON request body.');
    if (!contentType || request.body === UNSUPPORTED || !accepted.includes(contentType)) {
      throw unsupportedMediaType(unsupportedContentTypeMessage(contentType));
    }
    if (request.body instanceof UnusableJson) throw badRequest(request.body.message);
    if (request.body === undefined) throw badRequest('This operation needs a JSON request body; the body is empty.');
  });
}
