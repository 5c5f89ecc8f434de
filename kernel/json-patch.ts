import jsonPatch from 'fast-json-patch';
import { badRequest } from './errors.js';

interface PatchError {
  message: string;
  index?: number;
  operation?: { op?: string; path?: string };
}

/** Applies an RFC 6902 patch to a copy of `document`; a patch that does not apply is a 400 naming the operation and path. */
export function applyJsonPatch<T>(document: T, operations: readonly unknown[]): unknown {
  try {
    return jsonPatch.applyPatch(structuredClone(document), operations as jsonPatch.Operation[], true, false).newDocument;
  } catch (error) {
    const { message, index, operation } = error as PatchError;
    const where = index === undefined ? 'body' : `body[${index}]`;
    const what = operation?.path !== undefined ? ` (${operation.op} ${operation.path})` : '';
    throw badRequest(`${where}${what}: the patch cannot be applied: ${message.split('\n')[0]}`);
  }
}
