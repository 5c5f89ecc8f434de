import type { ServerOptions } from 'node:http';

/**
 * Fastify and Node options that cut off a client sending its request too slowly: after `requestTimeoutMs`
 * without the whole request (headers and body) received, Node answers 408 and closes the connection.
 * Only receiving the request is bounded: a response, however long it streams, is never cut.
 * Node looks for such connections every `connectionsCheckingInterval` (30 s by default, which would double
 * the wait); checking every second at most keeps the real cut-off within a second of the setting.
 */
export function httpTimeouts(requestTimeoutMs: number): { requestTimeout: number; http: ServerOptions } {
  return {
    requestTimeout: requestTimeoutMs,
    // Node checks headersTimeout <= requestTimeout when it creates the server, before fastify applies its own.
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 4))),
    },
  };
}
