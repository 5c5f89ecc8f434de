import net from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpTimeouts } from '../app/http-timeouts.js';
import { startTestApp, type TestApp } from './support/app.js';

const REQUEST_TIMEOUT_MS = 1000;
/** The client gives up waiting for the server to cut it off after this long: the test's failure condition. */
const CLIENT_PATIENCE_MS = 10_000;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ requestTimeoutMs: REQUEST_TIMEOUT_MS });
});

interface Outcome {
  /** What the server wrote before the connection ended. */
  received: string;
  /** False when the client gave up first: the server never cut the connection. */
  closedByServer: boolean;
}

/**
 * Sends `head` and then `trickle`, one byte every 200 ms, never finishing it; resolves when the server closes
 * the connection or when the client's patience ends.
 */
function trickle(url: string, head: string, trickleText: string): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    let index = 0;
    const drip = setInterval(() => {
      if (index < trickleText.length && socket.writable) socket.write(trickleText[index++]!);
    }, 200);
    const giveUp = setTimeout(() => finish(false), CLIENT_PATIENCE_MS);
    const finish = (closedByServer: boolean) => {
      clearInterval(drip);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ received, closedByServer });
    };
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.on('connect', () => socket.write(head));
  });
}

const cutOff = (outcome: Outcome) => {
  expect(outcome.closedByServer, 'the server kept the slow connection open').toBe(true);
  // Node answers 408 when nothing was answered yet; a socket closed without an answer is acceptable too.
  if (outcome.received !== '') expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
};

describe('a client that sends its request too slowly', () => {
  it('is answered 408 and disconnected when its body trickles in, on an unauthenticated login', async () => {
    const body = JSON.stringify({ username: 'admin', password: 'x'.repeat(200) });
    const head = `POST /auth/simple/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    cutOff(await trickle(app.url, head, body));
  });

  it('is answered 408 and disconnected when its body trickles in, on an admin write', async () => {
    const body = JSON.stringify({ name: 'slow.flag', description: 'y'.repeat(200) });
    const head =
      `POST /api/admin/projects/default/features HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${app.adminToken}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    cutOff(await trickle(app.url, head, body));
  });

  it('is disconnected when its headers trickle in', async () => {
    cutOff(await trickle(app.url, 'GET /health HTTP/1.1\r\n', `Host: localhost\r\nX-Slow: ${'z'.repeat(200)}\r\n\r\n`));
  });

  it('does not disturb a request sent at a normal pace, on the same server', async () => {
    const { error, response } = await app.admin.POST('/api/admin/projects/{projectId}/features', {
      params: { path: { projectId: 'default' } },
      body: { name: 'normal.flag' },
    });
    expect(response.status, JSON.stringify(error)).toBe(201);
  });
});

describe('a response that takes longer than the request timeout', () => {
  const server = Fastify({ ...httpTimeouts(REQUEST_TIMEOUT_MS) });
  afterAll(() => server.close());

  it('is not cut: the timeout bounds receiving the request only', async () => {
    server.get('/slow-stream', async (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 6; i++) {
        reply.raw.write(`chunk ${i}\n`);
        await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS / 2));
      }
      reply.raw.end('done\n');
    });
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${url}/slow-stream`, { signal: AbortSignal.timeout(CLIENT_PATIENCE_MS) });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/chunk 5\ndone\n$/);
  });
});
