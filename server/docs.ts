import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { contract, contractYaml } from './contract.js';

/** The contract at /docs/openapi.json and /docs/openapi.yaml, and an explorer at /docs served from local assets. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, { mode: 'static', specification: { document: structuredClone(contract) as never } });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { url: '/docs/openapi.json', validatorUrl: null, deepLinking: true } as never,
  });
  app.get('/docs/openapi.json', { schema: { hide: true } }, async (_request, reply) => reply.type('application/json').send(contract));
  app.get('/docs/openapi.yaml', { schema: { hide: true } }, async (_request, reply) => reply.type('application/yaml').send(contractYaml));
}
