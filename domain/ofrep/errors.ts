// OpenFeature's error codes on OFREP answers. Every error there is also the service's own Error object, so a client
// that knows either shape reads it: `{id, name, message}` plus `errorCode`, `errorDetails` and, for one flag, `key`.
import { AppError, UnparsableBody, type ErrorBody } from '../../kernel/errors.js';

/** Where the protocol's operations live; their errors carry its fields. */
export const OFREP_PATH = '/ofrep/v1';

export type OfrepErrorCode = 'PARSE_ERROR' | 'TARGETING_KEY_MISSING' | 'INVALID_CONTEXT' | 'FLAG_NOT_FOUND' | 'GENERAL';

/** An error with its OpenFeature code. */
export class OfrepError extends AppError {
  constructor(
    status: 400 | 404,
    readonly errorCode: OfrepErrorCode,
    message: string,
  ) {
    super(status, status === 404 ? 'NotFoundError' : 'ValidationError', message);
  }
}

/** The code of an error as the service answered it: its own, or the one its status and cause imply. */
function codeOf(error: unknown, status: number): OfrepErrorCode {
  if (error instanceof OfrepError) return error.errorCode;
  if (error instanceof UnparsableBody) return 'PARSE_ERROR';
  if (status === 400) return 'INVALID_CONTEXT';
  if (status === 404) return 'FLAG_NOT_FOUND';
  return 'GENERAL';
}

/** The service's error answer on an OFREP path, with the protocol's fields added. */
export function ofrepErrorBody(error: unknown, status: number, body: ErrorBody, key: string | undefined) {
  return { ...body, ...(key !== undefined && { key }), errorCode: codeOf(error, status), errorDetails: body.message };
}
