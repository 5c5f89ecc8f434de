import type { FastifyInstance } from 'fastify';
import { badRequest, unsupportedContentTypeMessage, unsupportedMediaType } from './errors.js';

/** Marks a body whose media type has no parser, so that the guard can answer 415 after the permission check. */
const UNSUPPORTED = Symbol('unsupported body');

/** A JSON body that does not parse: answered 400 by the guard, after the permission check. */
class MalformedJson {
  constructor(readonly reason: string) {}
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
    parseJson(request, payload as string, (error, body) => done(null, error ? new MalformedJson(error.message) : body));
  });
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, UNSUPPORTED));
    payload.on('error', done);
  });

  app.addHook('preValidation', async (request) => {
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
    if (request.body instanceof MalformedJson) throw badRequest(`The request body is not valid JSON: ${request.body.reason}`);
    if (request.body === undefined) throw badRequest('This operation needs a JSON request body; the body is empty.');
  });
}
