// What the contract's operation table says of an operation, for the tests that call every operation.
import { operationTable, type OperationId } from '../../generated/operations.js';

/** Whether the operation serves frontend tokens: the frontend API's, and OpenFeature's (which SDK tokens of both kinds call). */
export const isFrontendOperation = (op: { id: string }) =>
  ['FRONTEND', 'SDK'].some((kind) => (operationTable[op.id as OperationId].permissions as readonly string[]).includes(kind));
