// The limit the benchmark compares against: bare fastify answering a fixed Buffer (and a bare 304),
// with no logging, no authentication and no work per request.
import Fastify from 'fastify';

const body = Buffer.alloc(Number(process.env.BODY_BYTES ?? 1000), 'x');
const etag = process.env.ETAG ?? '"limit"';
const app = Fastify({ logger: false });
app.get('/health', async () => ({ health: 'GOOD' }));
app.get('/body', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').header('etag', etag).send(body);
});
app.get('/not-modified', (_request, reply) => {
  reply.code(304).header('etag', etag).send();
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ port: Number(process.env.PORT ?? 4300), host: '127.0.0.1' });
