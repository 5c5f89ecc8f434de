// What the contract's operation table says of an operation, for the tests that call every operation.
import { operationTable, type OperationId } from '../../generated/operations.js';

/** Whether the operation serves frontend tokens: the frontend API's, and OpenFeature's (which SDK tokens of both kinds call). */
export const isFrontendOperation = (op: { id: string }) =>
  ['FRONTEND', 'SDK'].some((kind) => (operationTable[op.id as OperationId].permissions as readonly string[]).includes(kind));

const permitted = (op: { id: string }, kind: string) => (operationTable[op.id as OperationId].permissions as readonly string[]).includes(kind);

/** Whether client tokens may call the operation (the client API's permission). */
export const isClientOperation = (op: { id: string }) => permitted(op, 'CLIENT');

/** Whether SDK tokens of both kinds may call the operation (OpenFeature's permission). */
export const isSdkOperation = (op: { id: string }) => permitted(op, 'SDK');
