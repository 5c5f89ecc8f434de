import { randomUUID } from 'node:crypto';
import { isConnectionFailure } from '../db/connection-failure.js';
import type { components } from '../generated/api.js';

/** `{id, name, message}`: the contract's Error schema, whose `name` enum is the closed list of error names. */
export type ErrorBody = components['schemas']['Error'];
export type ErrorName = ErrorBody['name'];

/** An error a client caused or may see: its status, its contract name and a message saying what to fix. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: ErrorName,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AppError(400, 'ValidationError', message);

/** 400 for a body that is not JSON at all (protocols such as OpenFeature's tell it from other bad requests). */
export class UnparsableBody extends AppError {
  constructor(message: string) {
    super(400, 'ValidationError', message);
  }
}
export const unauthorized = (message: string) => new AppError(401, 'AuthenticationRequired', message);
export const forbidden = (message: string) => new AppError(403, 'NoAccessError', message);
export const notFound = (message: string) => new AppError(404, 'NotFoundError', message);
export const nameExists = (message: string) => new AppError(409, 'NameExistsError', message);
export const conflict = (message: string) => new AppError(409, 'ConflictError', message);
export const tooManyRequests = (message: string) => new AppError(429, 'TooManyRequestsError', message);
export const unsupportedMediaType = (message: string) => new AppError(415, 'ContentTypeerror', message);
export const badGateway = (message: string) => new AppError(502, 'BadGatewayError', message);
export const serviceUnavailable = (message: string) => new AppError(503, 'ServiceUnavailableError', message);

const DATABASE_UNAVAILABLE = 'The database is not answering right now; try again in a few seconds.';

/** Node's socket errors for a connection that failed, timed out or went away. */
const connectionCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * Whether the database, not the request, failed: the connection could not be made or was lost (SQLSTATE class
 * 08, 57P01–57P03 shutdowns, 53300 too many connections, any FATAL error, which ends the session), or a
 * statement ran past its time limit (57014). Looked for along the `cause` chain, since drizzle wraps errors.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: any = error; e; e = e.cause) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (connectionCodes.has(code) || code.startsWith('08') || /^57(P0[123]|014)$/.test(code) || code === '53300') return true;
    if (e.severity === 'FATAL' || e.severity === 'PANIC') return true;
    if (isConnectionFailure(e)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

export const errorBody = (name: ErrorName, message: string): ErrorBody => ({ id: randomUUID(), name, message });

const nameByStatus: Record<number, ErrorName> = {
  400: 'ValidationError',
  401: 'AuthenticationRequired',
  403: 'NoAccessError',
  404: 'NotFoundError',
  409: 'ConflictError',
  415: 'ContentTypeerror',
  413: 'PayloadTooLargeError',
  429: 'TooManyRequestsError',
};

function isUniqueViolation(error: unknown): boolean {
  for (let e: any = error; e; e = e.cause) if (e.code === '23505') return true;
  return false;
}

/**
 * A foreign-key violation (23503) a handler's own checks missed, as a 4xx: writing a reference to a row that
 * does not exist is the caller's mistake (400); removing a row still referenced is a conflict (409).
 */
function foreignKeyReply(error: unknown): { status: number; body: ErrorBody; internal: false } | undefined {
  for (let e: any = error; e; e = e.cause) {
    if (e.code !== '23503') continue;
    const stillReferenced = /still referenced/i.test(`${e.detail ?? ''} ${e.message ?? ''}`);
    return stillReferenced
      ? { status: 409, body: errorBody('ConflictError', 'It is still used elsewhere; remove what uses it first.'), internal: false }
      : { status: 400, body: errorBody('ValidationError', 'The request refers to something that does not exist; check the names and ids it sends.'), internal: false };
  }
  return undefined;
}

interface FrameworkError {
  statusCode?: number;
  code?: string;
  message?: string;
  validation?: unknown;
}

/** Every error, ours or the framework's, as the status and `{id, name, message}` the client gets. */
export function toErrorReply(error: unknown): { status: number; body: ErrorBody; internal: boolean } {
  if (error instanceof AppError) return { status: error.status, body: errorBody(error.errorName, error.message), internal: false };
  if (isDatabaseUnavailable(error)) return { status: 503, body: errorBody('ServiceUnavailableError', DATABASE_UNAVAILABLE), internal: false };
  if (isUniqueViolation(error)) {
    return { status: 409, body: errorBody('NameExistsError', 'A resource with that name already exists'), internal: false };
  }
  const foreignKey = foreignKeyReply(error);
  if (foreignKey) return foreignKey;
  const fw = error as FrameworkError;
  if (fw.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 415, body: errorBody('ContentTypeerror', unsupportedContentTypeMessage(undefined)), internal: false };
  }
  if (fw.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return { status: 400, body: errorBody('ValidationError', 'The request body is empty but its content type is application/json'), internal: false };
  }
  const status = fw.statusCode;
  if (status && status >= 400 && status < 500) {
    const message = fw.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
      ? `The request body is not valid JSON: ${fw.message}`
      : (fw.message ?? 'Bad request');
    return { status, body: errorBody(nameByStatus[status] ?? 'ValidationError', message), internal: false };
  }
  return { status: 500, body: errorBody('InternalError', 'Something went wrong on our side; the error is logged.'), internal: true };
}

export function unsupportedContentTypeMessage(contentType: string | undefined): string {
  return `We do not accept the content type ${contentType ? `"${contentType}"` : 'you sent (none)'}; send application/json with a JSON body.`;
}
