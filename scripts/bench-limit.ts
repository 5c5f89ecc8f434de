// The limit the benchmark compares against: bare fastify answering a fixed Buffer (and a bare 304),
// with no logging, no authentication and no work per request; and bare server-sent event streams, to which a
// change writes one prepared chunk per socket.
import type { Socket } from 'node:net';
import Fastify from 'fastify';

const body = Buffer.alloc(Number(process.env.BODY_BYTES ?? 1000), 'x');
const etag = process.env.ETAG ?? '"limit"';
const app = Fastify({ logger: false });
app.get('/health', async () => ({ health: 'GOOD' }));
app.get('/body', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').header('etag', etag).send(body);
});
// The same answer to a JSON POST, parsed as fastify parses it (OpenFeature's evaluations are POSTs).
app.post('/body', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').header('etag', etag).send(body);
});
app.get('/not-modified', (_request, reply) => {
  reply.code(304).header('etag', etag).send();
});

const streams = new Set<Socket>();
const event = (name: string) => `event: ${name}\nid: 1\ndata: {"events":[]}\n\n`;
const updated = Buffer.from(`${Buffer.byteLength(event('unleash-updated')).toString(16)}\r\n${event('unleash-updated')}\r\n`);
app.get('/api/client/streaming', (request, reply) => {
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  reply.raw.write(event('unleash-connected'));
  streams.add(request.raw.socket);
  request.raw.socket.on('close', () => streams.delete(request.raw.socket));
});
app.post('/streaming/change', async () => {
  setImmediate(() => {
    for (const socket of streams) socket.write(updated);
  });
  return { streams: streams.size };
});

process.on('SIGTERM', () => {
  for (const socket of streams) socket.destroy();
  void app.close().then(() => process.exit(0));
});
await app.listen({ port: Number(process.env.PORT ?? 4300), host: '127.0.0.1' });
