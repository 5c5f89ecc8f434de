import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { openDatabase, type Db } from '../db/connect.js';
import type { Handlers } from '../generated/handlers.js';
import { handlers } from '../handlers/index.js';
import { registerAuth } from './auth.js';
import { registerBodyGuard } from './body-guard.js';
import { ClientFeatureCache } from './client-features/cache.js';
import { ClientMetricsStore } from './client-metrics.js';
import type { AppConfig } from './config.js';
import type { HandlerContext } from './context.js';
import { contract } from './contract.js';
import { registerDocs } from './docs.js';
import { errorBody, toErrorReply } from './errors.js';
import { EventLog } from './events.js';
import { loggerOptions } from './logging.js';
import { replicaAnnouncer, startReplicaSync } from './replica-sync.js';
import { TokenCache } from './token-cache.js';
import { bootstrapTokens } from './tokens.js';
import { registerValidation } from './validation.js';

/** SDK traffic: too frequent to log every request. */
const QUIET_OPERATIONS = new Set(['getClientFeatures', 'registerClient', 'reportClientMetrics']);

export interface BuiltApp {
  app: FastifyInstance;
  /** The secret of the admin token created because none existed; to be shown once. */
  createdAdminToken: string | undefined;
  /** The database the app works on (tests use it to set up rows no operation writes yet). */
  db: Db;
  /** Writes what SDKs reported so far (otherwise done every few seconds and at shutdown). */
  flushClientMetrics(): Promise<void>;
}

/** The whole service on one database: used by main and by the tests. */
export async function buildApp(config: AppConfig): Promise<BuiltApp> {
  const database = await openDatabase(config.database);
  try {
    const createdAdminToken = await bootstrapTokens(database.db, config);
    const { instanceId, announce } = replicaAnnouncer(database);
    const events = new EventLog(database.db, announce);
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

    const tokens = new TokenCache(database.db);
    await tokens.load();
    const clientFeatures = new ClientFeatureCache(database.db, app.log);
    await clientFeatures.current();
    const clientMetrics = new ClientMetricsStore(database.db, events, app.log);
    clientMetrics.start(config.metricsFlushMs);
    events.onChange(tokens.onChange);
    events.onChange(clientFeatures.onChange);
    const stopSync = await startReplicaSync(database, events, instanceId, app.log);

    app.addHook('onClose', async () => {
      stopSync();
      await clientMetrics.stop();
      await database.close();
    });
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    app.addHook('onRoute', (route) => {
      const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
      if (operationId && QUIET_OPERATIONS.has(operationId)) route.logLevel = 'warn';
    });

    registerValidation(app);
    registerAuth(app, tokens, config.authType);
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
        clientFeatures,
        clientMetrics,
        clientIp: request.ip,
        change: (work) => events.change(caller, work),
      };
    };

    await registerDocs(app);
    await app.register(openapiGlue, { specification: structuredClone(contract), serviceHandlers: routeHandlers(handlers, context) });
    await app.ready();
    return { app, createdAdminToken, db: database.db, flushClientMetrics: () => clientMetrics.flush() };
  } catch (error) {
    await database.close();
    throw error;
  }
}

type HandlerResult = { status: number; body?: unknown; headers?: Record<string, string> };

/** Adapts each typed handler to fastify: request parts in, `{status, body, headers}` out. */
function routeHandlers(all: Handlers, context: (request: FastifyRequest) => HandlerContext) {
  const routes: Record<string, (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>> = {};
  for (const [operationId, handler] of Object.entries(all)) {
    const run = handler as (request: unknown, context: HandlerContext) => Promise<HandlerResult>;
    routes[operationId] = async (request, reply) => {
      const result = await run({ params: request.params, query: request.query, body: request.body, headers: request.headers }, context(request));
      reply.code(result.status);
      if (result.headers) reply.headers(result.headers);
      const body = result.body as { preSerialized?: unknown } | undefined;
      return reply.send(Buffer.isBuffer(body?.preSerialized) ? body.preSerialized : body);
    };
  }
  return routes;
}
