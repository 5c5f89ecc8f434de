import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { openDatabase, type Db } from '../db/connect.js';
import type { Handlers } from '../generated/handlers.js';
import { handlers } from '../handlers/index.js';
import { registerAuth } from './auth.js';
import { registerBodyGuard } from './body-guard.js';
import type { AppConfig } from './config.js';
import type { HandlerContext } from './context.js';
import { contract } from './contract.js';
import { registerDocs } from './docs.js';
import { errorBody, toErrorReply } from './errors.js';
import { EventLog } from './events.js';
import { loggerOptions } from './logging.js';
import { bootstrapTokens } from './tokens.js';
import { registerValidation } from './validation.js';

export interface BuiltApp {
  app: FastifyInstance;
  /** The secret of the admin token created because none existed; to be shown once. */
  createdAdminToken: string | undefined;
  /** The database the app works on (tests use it to set up rows no operation writes yet). */
  db: Db;
}

/** The whole service on one database: used by main and by the tests. */
export async function buildApp(config: AppConfig): Promise<BuiltApp> {
  const database = await openDatabase(config.database);
  try {
    const createdAdminToken = await bootstrapTokens(database.db, config);
    const events = new EventLog(database.db);
    await events.load();

    const app = Fastify({
      logger: loggerOptions(config),
      requestIdHeader: 'x-request-id',
      forceCloseConnections: 'idle',
      routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000 },
      frameworkErrors: (error, _request, reply) => {
        const { status, body } = toErrorReply(error);
        (reply as FastifyReply).code(status).type('application/json').send(body);
      },
    });
    app.addHook('onClose', async () => database.close());
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });

    registerValidation(app);
    registerAuth(app, database.db, config.authType);
    registerBodyGuard(app);

    app.setErrorHandler((error, request, reply) => {
      const { status, body, internal } = toErrorReply(error);
      if (internal) request.log.error({ err: error }, 'request failed');
      return reply.code(status).type('application/json').send(body);
    });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      return reply.code(404).send(errorBody('NotFoundError', `The path you were looking for (${path}) is not available.`));
    });

    const context = (request: FastifyRequest): HandlerContext => {
      const caller = request.caller!;
      return {
        db: database.db,
        caller,
        log: request.log,
        config,
        events,
        change: (work) => events.change(caller, work),
      };
    };

    await registerDocs(app);
    await app.register(openapiGlue, { specification: structuredClone(contract), serviceHandlers: routeHandlers(handlers, context) });
    await app.ready();
    return { app, createdAdminToken, db: database.db };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Adapts each typed handler to fastify: request parts in, `{status, body, headers}` out. */
function routeHandlers(all: Handlers, context: (request: FastifyRequest) => HandlerContext) {
  const routes: Record<string, (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>> = {};
  for (const [operationId, handler] of Object.entries(all)) {
    routes[operationId] = async (request, reply) => {
      const result = await (handler as (r: unknown, c: HandlerContext) => Promise<{ status: number; body?: unknown; headers?: Record<string, string> }>)(
        { params: request.params, query: request.query, body: request.body, headers: request.headers },
        context(request),
      );
      reply.code(result.status);
      if (result.headers) reply.headers(result.headers);
      return reply.send(result.body);
    };
  }
  return routes;
}
