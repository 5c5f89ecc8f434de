// The admin UI (ui/, built into dist/ui by `npm run build`) served at `/`: hashed assets cached for a year,
// the page itself never cached, and the page for every address of the app that a browser asks for.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { projectRoot } from '../db/project-root.js';

export const UI_DIR = path.join(projectRoot, 'dist', 'ui');

/** Asset names carry a hash of their content (Vite), so a cached copy never needs checking again. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Paths that belong to the API, the explorer or the login, never to the app: unknown ones stay JSON 404s. */
const SERVICE_PATHS = /^\/(api|auth|docs|invite|logout|internal-backstage)(\/|$)/;

/**
 * What a browser may do with the page: only this origin's scripts, styles (and the inline styles the component
 * library sets), fonts and calls; no framing.
 */
const PAGE_HEADERS = {
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

/** A browser asking for a page of the app (`/flags?q=x`, `/projects/p/features/f`): it gets index.html. */
export function isAppPage(request: FastifyRequest): boolean {
  const pathname = request.url.split('?')[0]!;
  if (SERVICE_PATHS.test(pathname)) return false;
  return pathname === '/' || (request.headers.accept ?? '').includes('text/html');
}

/** Whether the UI was built into `root` (`npm run build`). */
export const uiIsBuilt = (root = UI_DIR) => existsSync(path.join(root, 'index.html'));

/**
 * Serves dist/ui when it was built. Without a build (an install with --ignore-scripts, tests from source) the
 * service answers the API only.
 */
export async function registerUi(app: FastifyInstance, root = UI_DIR): Promise<void> {
  if (!uiIsBuilt(root)) return;
  const page = readFileSync(path.join(root, 'index.html'));
  await app.register(fastifyStatic, {
    root,
    // One route per built file, found once at start: no file system lookup for paths that are not there.
    wildcard: false,
    index: false,
    decorateReply: false,
    // The build writes .br and .gz copies beside each text asset; they are sent to clients that accept them.
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders: (reply, file) => {
      const immutable = path.relative(root, file).startsWith(`assets${path.sep}`);
      if (immutable) reply.header('cache-control', IMMUTABLE);
      else if (file.endsWith('.html')) reply.headers(PAGE_HEADERS);
      else reply.header('cache-control', 'no-cache');
    },
  });
  const sendPage = (reply: FastifyReply) => reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(page);
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendPage(reply));
  app.get('/*', { schema: { hide: true } }, (request, reply) => (isAppPage(request) ? sendPage(reply) : reply.callNotFound()));
}
