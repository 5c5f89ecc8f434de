import jsonPatch from 'fast-json-patch';
import { badRequest } from '../server/errors.js';

/** Applies an RFC 6902 patch to a copy of `document`; a patch that does not apply is a 400 naming why. */
export function applyJsonPatch<T>(document: T, operations: readonly unknown[]): unknown {
  try {
    return jsonPatch.applyPatch(structuredClone(document), operations as jsonPatch.Operation[], true, false).newDocument;
  } catch (error) {
    throw badRequest(`body: the patch cannot be applied: ${(error as Error).message.split('\n')[0]}`);
  }
}
