import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createFastify, registerErrorAnswers } from './fastify.js';
import type { Logger } from 'pino';
import openapiGlue from 'fastify-openapi-glue';
import { openDatabase, type Db } from '../db/connect.js';
import { handlers } from './handler-table.js';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { operationTable, type OperationId } from '../generated/operations.js';
import { registerAuth } from '../domain/access/auth.js';
import { registerBodyGuard } from '../kernel/body-guard.js';
import { registerChangeRequestGuard } from '../domain/change-requests/guard.js';
import { startChangeRequestScheduler } from '../domain/change-requests/scheduler.js';
import { startReleaseProgression } from '../domain/release-plans/progression.js';
import { startSafeguardWatch } from '../domain/safeguards/watch.js';
import { ClientFeatureCache } from '../domain/client-features/cache.js';
import { ClientMetricsStore } from '../domain/usage/client-metrics.js';
import { registerClientFeaturesRoute } from './client-route.js';
import { TableStatistics } from '../domain/events/table-statistics.js';
import { ClientStreams, registerClientStreamingRoute } from '../domain/client-features/stream.js';
import { routeHandlers } from './handler-adapter.js';
import { integrationConfig, passwordHashCostOf, releaseConfig, type AppConfig } from '../kernel/config.js';
import type { HandlerContext } from '../domain/handler-context.js';
import { routeContract } from '../kernel/contract.js';
import { registerDocs } from './docs.js';
import { registerFrontendCors } from '../domain/frontend/cors.js';
import { ServiceMetrics, registerPrometheus, timeRequests } from '../kernel/prometheus.js';
import { tooManyRequests } from '../kernel/errors.js';
import { EventLog, type RecordEvent } from '../domain/events/event-log.js';
import { DeliveryWorker } from '../domain/integrations/delivery-worker.js';
import { createLogger, logOf, registerRequestLogging } from '../kernel/logging.js';
import { replicaAnnouncer, startReplicaSync } from '../domain/events/replica-sync.js';
import { RecentReads } from '../domain/recent-reads.js';
import { TokenCache } from '../domain/access/token-cache.js';
import { bootstrapTokens } from '../domain/access/tokens.js';
import { bootstrapAdminUser } from '../domain/access/user-auth.js';
import { registerUi } from './ui.js';
import { registerValidation } from '../kernel/validation.js';


export interface BuiltApp {
  app: FastifyInstance;
  /** The secret of the admin token created because none existed; to be shown once. */
  createdAdminToken: string | undefined;
  /** The generated password of the admin user created because no user existed; to be shown once. */
  createdAdminPassword: string | undefined;
  /** The database the app works on (tests use it to set up rows no operation writes yet). */
  db: Db;
  log: Logger;
}

const BOOTSTRAP_LOCK_KEY = 4242_0002;
/** The largest file a multipart form may carry (the state import's document). */
const MULTIPART_FILE_LIMIT = 50 * 1024 * 1024;

/**
 * The configured tokens and the first start's admin token and user, in one transaction that replicas take
 * one at a time: a start refused on the way (a weak configured password) leaves nothing half made.
 */
function bootstrapCredentials(db: Db, config: AppConfig) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})`);
    const createdAdminToken = await bootstrapTokens(tx, config);
    const createdAdminPassword = await bootstrapAdminUser(tx, config.defaultAdmin ?? { username: 'admin' }, passwordHashCostOf(config));
    return { createdAdminToken, createdAdminPassword };
  });
}

/** The whole service on one database: used by main and by the tests. */
export async function buildApp(config: AppConfig): Promise<BuiltApp> {
  const logger = createLogger(config);
  const database = await openDatabase(config.database);
  try {
    const { createdAdminToken, createdAdminPassword } = await bootstrapCredentials(database.db, config);
    const { instanceId, announce } = replicaAnnouncer(database);
    const events = new EventLog(database.db, announce);
    await events.load();

    const app = createFastify(config);

    const tokens = new TokenCache(database.db);
    await tokens.load();
    const clientFeatures = new ClientFeatureCache(database.db, logger);
    await clientFeatures.current();
    const metrics = new ServiceMetrics(database.db);
    const clientMetrics = new ClientMetricsStore(database.db, events, logger, metrics.flushFailed, metrics.requests, releaseConfig(config));
    clientMetrics.start(config.metricsFlushMs);
    tokens.start(config.metricsFlushMs);
    events.onChange(tokens.onChange);
    events.onChange(metrics.onChange);
    events.onChange(clientFeatures.onChange);
    const streams = new ClientStreams(logger, config.clientStreamsLimit);
    events.onChange(streams.onChange);
    tokens.onReload(() => void streams.tokensChanged(async (secret) => (await tokens.find(secret)) !== undefined));
    metrics.countStreams(() => streams.size);
    const stopSync = await startReplicaSync(database, events, instanceId, logger);
    const deliveries = new DeliveryWorker(database.db, integrationConfig(config), logger);
    events.onChange(() => deliveries.kick());
    deliveries.start();
    const statistics = new TableStatistics(database.db, logger);
    events.onChange(statistics.onChange);
    void statistics.refresh(events.revision);

    app.addHook('onClose', async () => {
      stopSync();
      await deliveries.stop();
      await stopScheduler();
      await stopProgression();
      await stopSafeguards();
      await statistics.stop();
      await clientMetrics.stop();
      await tokens.stop();
      await database.close();
    });
    registerErrorAnswers(app, logger);

    const recentReads = new RecentReads(database.writes, events);
    const services = { db: database.db, config, events, clientFeatures, clientMetrics, recentReads, operations: handlers };
    const background = { config, events, clientFeatures, clientMetrics, requestCounts: clientMetrics, recentReads, operations: handlers };
    const stopScheduler = startChangeRequestScheduler(database.db, events, background, logger, config.changeRequestPollMs ?? 1000);
    const stopProgression = startReleaseProgression(database.db, events, logger, config);
    const stopSafeguards = startSafeguardWatch(database.db, events, background, logger, releaseConfig(config).safeguardIntervalMs);
    const context = (request: FastifyRequest): HandlerContext => new RequestContext(services, request, logger);

    const sourceOf = () => clientFeatures;
    registerClientFeaturesRoute(app, tokens, config.authType, handlers.getClientFeatures, context, sourceOf, metrics);
    registerClientStreamingRoute(app, streams, sourceOf, tokens, config.authType);
    // Streams never finish by themselves: at shutdown, SDKs are asked to poll and the streams end.
    app.addHook('preClose', async () => streams.close());
    registerPrometheus(app, metrics);

    // Every other operation: hooks for authentication, permission, content type and validation.
    await app.register(async (api) => {
      registerRequestLogging(api, logger);
      timeRequests(api, metrics);
      registerValidation(api);
      await registerFrontendCors(api, config.frontendApiOrigins);
      registerAuth(api, tokens, config.authType, database.db);
      registerBodyGuard(api);
      registerChangeRequestGuard(api, database.db);
      // Only operations whose contract sets `x-fastify-config.rateLimit` (login) are limited, per address, to `max` per window.
      await api.register(rateLimit, {
        global: false,
        max: config.loginLimitPerMinute,
        errorResponseBuilder: (_request, context) => tooManyRequests(`Too many attempts from your address; try again in ${context.after}.`),
      });
      api.addHook('onSend', async (request, reply) => {
        reply.header('x-request-id', request.id);
      });
      // Multipart forms (the state import's `file`), read whole into the body by the body guard; their size bounded.
      await api.register(multipart, { limits: { fileSize: MULTIPART_FILE_LIMIT, files: 1, fields: 10, parts: 11 } });
      api.addHook('onRoute', (route) => {
        const id = (route.schema as { operationId?: string } | undefined)?.operationId;
        const limit = id && id in operationTable ? operationTable[id as OperationId].bodyLimit : undefined;
        if (limit) route.bodyLimit = limit;
      });
      await registerDocs(api);
      await api.register(openapiGlue, { specification: routeContract(), serviceHandlers: routeHandlers(handlers, context) });
    });
    // The admin UI at `/` (app/ui.ts), outside the API's hooks: its files are public.
    await registerUi(app);
    await app.ready();
    return { app, createdAdminToken, createdAdminPassword, db: database.db, log: logger };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** A handler's context: the shared services plus who is calling, built per request without closures. */
class RequestContext implements HandlerContext {
  readonly db: HandlerContext['db'];
  readonly config: HandlerContext['config'];
  readonly events: HandlerContext['events'];
  readonly clientFeatures: HandlerContext['clientFeatures'];
  readonly clientMetrics: HandlerContext['clientMetrics'];
  readonly requestCounts: HandlerContext['requestCounts'];
  readonly recentReads: HandlerContext['recentReads'];
  readonly operations: HandlerContext['operations'];
  readonly caller: HandlerContext['caller'];

  constructor(
    services: Pick<HandlerContext, 'db' | 'config' | 'events' | 'clientFeatures' | 'recentReads' | 'operations'> & { clientMetrics: ClientMetricsStore },
    private readonly request: FastifyRequest,
    private readonly logger: Logger,
  ) {
    this.db = services.db;
    this.config = services.config;
    this.events = services.events;
    this.clientFeatures = services.clientFeatures;
    this.clientMetrics = services.clientMetrics;
    this.requestCounts = services.clientMetrics;
    this.recentReads = services.recentReads;
    this.operations = services.operations;
    this.caller = request.caller!;
  }

  get log() {
    return logOf(this.request, this.logger);
  }

  get clientIp() {
    return this.request.ip;
  }

  get secureCookies() {
    return this.config.secureCookies === true || this.request.protocol === 'https';
  }

  /** A property, not a method: handlers destructure it from the context. */
  readonly change = <T>(work: (tx: Db, record: RecordEvent) => Promise<T>): Promise<T> => this.events.change(this.caller, work);
}
