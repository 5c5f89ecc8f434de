import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, UnparsableBody, unsupportedContentTypeMessage, unsupportedMediaType } from './errors.js';
import { mayHoldUnstorableText, unstorableText } from './storable-text.js';

/** Marks a body whose media type has no parser, so that the guard can answer 415 after the permission check. */
const UNSUPPORTED = Symbol('unsupported body');

/** A JSON body that does not parse, or holds text PostgreSQL cannot store: answered 400 by the guard, after the permission check. */
class UnusableJson {
  constructor(
    readonly message: string,
    /** Not JSON at all, rather than JSON holding text the database cannot store. */
    readonly unparsable: boolean,
  ) {}
}

/** The query parameters the operation declares: any other is ignored, as validation ignores it, whatever it holds. */
function declaredQuery(request: FastifyRequest): Record<string, unknown> {
  const declared = (request.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const query = (request.query ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.keys(declared).filter((name) => Object.hasOwn(query, name)).map((name) => [name, query[name]]));
}

/**
 * A multipart form's fields and files as one object, a file as its bytes. The plugin's limits keep their 413; a
 * form its parser cannot read (no boundary, cut short, a JSON field that is not JSON) is the client's: 400.
 */
async function readForm(request: FastifyRequest): Promise<Record<string, unknown>> {
  const form: Record<string, unknown> = {};
  try {
    for await (const part of request.parts()) form[part.fieldname] = part.type === 'file' ? await part.toBuffer() : part.value;
  } catch (error) {
    if ((error as { statusCode?: unknown }).statusCode === 413) throw error;
    throw badRequest(`The multipart form could not be read (${error instanceof Error ? error.message : 'unreadable'}); send multipart/form-data with its boundary and every part complete.`);
  }
  return form;
}

/**
 * Fastify lets a body of an undeclared media type, or a missing body, through unvalidated. This guard
 * answers 415 for the first and 400 for the second, and 400 naming the field for text PostgreSQL cannot
 * store (U+0000, a lone surrogate) in the body, path or query; it reads a multipart form into the body (400 for one
 * that cannot be read). It runs after the permission check.
 */
export function registerBodyGuard(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, payload, done) => {
    if (payload === '') return done(null, undefined);
    parseJson(request, payload as string, (error, body) => {
      if (error) return done(null, new UnusableJson(`The request body is not valid JSON: ${error.message}`, true));
      // The body was decoded as UTF-8, so U+0000 and lone surrogates can only come in as JSON escapes: without one, no walk.
      const problem = mayHoldUnstorableText(payload as string) ? unstorableText(body, 'body') : undefined;
      done(null, problem ? new UnusableJson(`The request body is refused: ${problem}`, false) : body);
    });
  });
  // Identity providers post SAML responses as an HTML form would.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, payload, done) => {
    done(null, Object.fromEntries(new URLSearchParams(payload as string)));
  });
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, UNSUPPORTED));
    payload.on('error', done);
  });

  app.addHook('preValidation', async (request) => {
    // U+0000 and lone surrogates reach the path or query only percent-encoded (the HTTP parser refuses them raw).
    const encoded = request.url.includes('%');
    const problem = encoded ? (unstorableText(request.params, 'params') ?? unstorableText(declaredQuery(request), 'querystring')) : undefined;
    if (problem) throw badRequest(`The path or query is refused: ${problem}`);
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
    if (request.body instanceof UnusableJson) throw request.body.unparsable ? new UnparsableBody(request.body.message) : badRequest(request.body.message);
    if (contentType === 'multipart/form-data') {
      request.body = await readForm(request);
      return;
    }
    if (request.body === undefined) throw badRequest('This operation needs a JSON request body; the body is empty.');
  });
}
