import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody, type ErrorName } from './errors.js';

const answers: Record<string, [status: number, name: ErrorName, message: string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'RequestHeaderFieldsTooLargeError',
    'The request line and headers together exceed 16 KB; send fewer or shorter query parameters, headers or cookies.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'RequestTimeoutError', 'The whole request did not arrive in time; send it again without pausing.'],
};
const NOT_HTTP: [number, ErrorName, string] = [400, 'ValidationError', 'The request could not be read as HTTP/1.1 (request line, headers or body framing); check what your client sends.'];

/**
 * Node's HTTP parser refuses some requests before fastify sees them (a request line or headers beyond
 * the size limit, malformed HTTP, a request that did not arrive in time): this answers them like every
 * other error, `{id, name, message}` as JSON with its length, then closes the connection. Fastify's
 * `clientErrorHandler` option.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one to answer; a socket already destroyed cannot be written.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, name, message] = answers[error.code ?? ''] ?? NOT_HTTP;
  const body = JSON.stringify(errorBody(name, message));
  // As Node does: only when no response has started on this connection.
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (socket.writable && !started) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
