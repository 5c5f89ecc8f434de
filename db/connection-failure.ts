/** What node-postgres says, without an error code, when a connection cannot be had or was lost. */
const connectionFailureMessages = [
  'timeout exceeded when trying to connect',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/** Whether `error` is node-postgres failing to reach the database (rather than the database refusing a statement). */
export function isConnectionFailure(error: { message?: unknown; code?: unknown }): boolean {
  return error.code === undefined && typeof error.message === 'string' && connectionFailureMessages.some((m) => error.message === m);
}
