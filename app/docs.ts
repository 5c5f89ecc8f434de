import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { contract, contractYaml } from '../kernel/contract.js';
import { fullOperationList } from './docs-full-list.js';

const serviceName = (contract as { info: { title: string } }).info.title;

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The explorer's top-bar logo: the service's name as text, in the system's sans-serif font (nothing fetched). */
function nameLogo(name: string): Buffer {
  const width = Math.ceil(name.length * 13 + 16);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="40" viewBox="0 0 ${width} 40">` +
      `<text x="8" y="27" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="22" font-weight="600" fill="#ffffff">${escapeXml(name)}</text></svg>`,
  );
}

/** The page's icon: the name's first letter on a dark square. */
function initialIcon(name: string): Buffer {
  return Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1b1b1b"/>' +
      `<text x="16" y="23" text-anchor="middle" font-family="system-ui, sans-serif" font-size="20" font-weight="700" fill="#ffffff">${escapeXml(name.charAt(0).toUpperCase())}</text></svg>`,
  );
}

/**
 * The contract at /docs/openapi.json and /docs/openapi.yaml, and an explorer at /docs served from local assets,
 * under the service's own name (the contract's `info.title`) instead of the framework's logo.
 */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, { mode: 'static', specification: { document: structuredClone(contract) as never } });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // filter: a box that keeps the tags whose name holds what is typed; deepLinking: each tag and operation has its URL.
    uiConfig: { url: '/docs/openapi.json', validatorUrl: null, deepLinking: true, filter: true, plugins: [fullOperationList] } as never,
    logo: { type: 'image/svg+xml', content: nameLogo(serviceName), href: '/docs', target: '_self' },
    theme: {
      title: escapeXml(serviceName),
      favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: initialIcon(serviceName) }],
    },
  });
  app.get('/docs/openapi.json', { schema: { hide: true } }, async (_request, reply) => reply.type('application/json').send(contract));
  app.get('/docs/openapi.yaml', { schema: { hide: true } }, async (_request, reply) => reply.type('application/yaml').send(contractYaml));
}
