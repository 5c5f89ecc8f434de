// CORS for the frontend API and OpenFeature's (/ofrep/v1) only, by @fastify/cors: browsers may call them from the
// configured origins, and their preflight is answered (204) before authentication, which a preflight never carries.
// Every other route of the service answers as before, with no CORS header.
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { OFREP_PATH } from '../ofrep/errors.js';

const FRONTEND_PATH = '/api/frontend';

const isFrontendPath = (url: string) => [FRONTEND_PATH, OFREP_PATH].some((path) => url === path || url.startsWith(`${path}/`));

/** How long a browser may keep a preflight's answer: a day, as Unleash's ACCESS_CONTROL_MAX_AGE default. */
const PREFLIGHT_MAX_AGE_S = 86_400;

/** The frontend API's CORS on `api`: registered before authentication, so that a 401 or 403 carries it too. */
export async function registerFrontendCors(api: FastifyInstance, origins: readonly string[] = ['*']): Promise<void> {
  const frontend: FastifyCorsOptions = {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'POST'],
    // No allowedHeaders: the preflight's Access-Control-Request-Headers are reflected, as Unleash (the `cors`
    // package) does, so that the headers an app adds (the SDKs' `customHeaders`) pass as well as the SDKs' own.
    exposedHeaders: ['ETag'],
    maxAge: PREFLIGHT_MAX_AGE_S,
  };
  // Off by default; each frontend route turns it on in its route configuration, read by the plugin's hook. Every
  // other route says `cors: false`, which the hook reads first: it then skips merging its options per request.
  await api.register(cors, { origin: false, strictPreflight: false, hideOptionsRoute: true });
  api.addHook('onRoute', (route) => {
    route.config = { ...route.config, cors: isFrontendPath(route.url) ? frontend : false } as typeof route.config;
  });
  // A preflight is answered by the plugin's hook; these routes only let the router find it.
  for (const url of [FRONTEND_PATH, `${FRONTEND_PATH}/*`, `${OFREP_PATH}/*`]) api.options(url, { schema: { hide: true } }, (_request, reply) => reply.code(204).send());
}
