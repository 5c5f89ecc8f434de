import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, unsupportedContentTypeMessage, unsupportedMediaType } from './errors.js';

/** Marks a body whose media type has no parser, so that the guard can answer 415 after the permission check. */
const UNSUPPORTED = Symbol('unsupported body');

interface BodySchema {
  body?: { content?: Record<string, unknown> };
}

function declaredMediaTypes(request: FastifyRequest): string[] {
  return Object.keys((request.routeOptions.schema as BodySchema | undefined)?.body?.content ?? {});
}

/**
 * Fastify lets a body of an undeclared media type, or a missing body, through unvalidated. This guard
 * answers 415 for the first and 400 for the second; it runs after the permission check.
 */
export function registerBodyGuard(app: FastifyInstance): void {
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, UNSUPPORTED));
    payload.on('error', done);
  });

  app.addHook('preValidation', async (request) => {
    const accepted = declaredMediaTypes(request);
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
  });
}
