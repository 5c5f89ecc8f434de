// An edge node: the same program without a database, serving SDKs from memory what its upstream answers for each token
// (client API with deltas and streams, frontend API, OFREP, health, Prometheus); every admin route is 404 here.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import openapiGlue from 'fastify-openapi-glue';
import { registerAuth } from '../domain/access/auth.js';
import { ClientStreams, registerClientStreamingRoute } from '../domain/client-features/stream.js';
import { EdgeCacheDir } from '../domain/edge/cache-dir.js';
import { registerEdgeMetrics } from '../domain/edge/metrics.js';
import { loadOfflineFile } from '../domain/edge/offline-file.js';
import { EdgeReports } from '../domain/edge/reports.js';
import { EdgeScopes } from '../domain/edge/scopes.js';
import { EdgeTokens } from '../domain/edge/tokens.js';
import { hasTagFilter, TagFilteredAnswers } from '../domain/edge/tag-filter.js';
import { Upstream } from '../domain/edge/upstream.js';
import { registerFrontendCors } from '../domain/frontend/cors.js';
import type { HandlerContext, Handlers } from '../domain/handler-context.js';
import { operationTable, type OperationId } from '../generated/operations.js';
import type { Caller } from '../shared/caller.js';
import { registerBodyGuard } from '../kernel/body-guard.js';
import { routeContract } from '../kernel/contract.js';
import type { EdgeConfig } from '../kernel/edge-config.js';
import { errorBody } from '../kernel/errors.js';
import { createLogger, logOf, registerRequestLogging } from '../kernel/logging.js';
import { ServiceMetrics, registerPrometheus, timeRequests } from '../kernel/prometheus.js';
import { registerValidation } from '../kernel/validation.js';
import { registerClientFeaturesRoute } from './client-route.js';
import { createFastify, registerErrorAnswers } from './fastify.js';
import { routeHandlers } from './handler-adapter.js';
import { handlers } from './handler-table.js';

/** The operations an edge serves (the client API's features and streaming routes are registered apart). */
const EDGE_OPERATIONS = [
  'getHealth',
  'getReady',
  'getClientFeature',
  'getClientDelta',
  'registerClient',
  'reportClientMetrics',
  'reportBulkClientMetrics',
  'validateEdgeTokens',
  'getFrontendFeatures',
  'getFrontendFeaturesWithPost',
  'getFrontendFeature',
  'reportFrontendMetrics',
  'registerFrontendClient',
  'evaluateOfrepFlag',
  'evaluateOfrepFlags',
] as const satisfies readonly OperationId[];

/** The routes' contract (kernel/contract.ts) with only the edge's operations: the glue registers routes for nothing else, so the rest is 404. */
function edgeContract(): Record<string, unknown> {
  const specification = routeContract() as { paths: Record<string, Record<string, { operationId?: string }>> };
  const served = new Set<string>(EDGE_OPERATIONS);
  for (const [path, item] of Object.entries(specification.paths)) {
    for (const [method, operation] of Object.entries(item)) if (typeof operation === 'object' && operation?.operationId && !served.has(operation.operationId)) delete item[method];
    if (!Object.values(item).some((operation) => typeof operation === 'object' && operation?.operationId)) delete specification.paths[path];
  }
  return specification;
}

const noDatabase = (what: string): never => {
  throw new Error(`${what} is not available on an edge node`);
};

/** A handler's context on an edge: the caller's scope as its flags, the reports forwarder; no database. */
class EdgeRequestContext implements HandlerContext {
  readonly caller: Caller;
  constructor(
    private readonly request: FastifyRequest,
    private readonly logger: Logger,
    private readonly scopes: EdgeScopes,
    readonly clientMetrics: HandlerContext['clientMetrics'],
  ) {
    this.caller = request.caller!;
  }
  /** Found when a handler needs it: health and readiness need none. */
  get clientFeatures() {
    return this.scopes.sourceFor(this.caller);
  }
  get log() {
    return logOf(this.request, this.logger);
  }
  get clientIp() {
    return this.request.ip;
  }
  readonly secureCookies = false;
  get db(): never {
    return noDatabase('The database');
  }
  get config(): never {
    return noDatabase('The service configuration');
  }
  get events(): never {
    return noDatabase('The event log');
  }
  get requestCounts(): never {
    return noDatabase('Request counts');
  }
  get recentReads(): never {
    return noDatabase('Recent reads');
  }
  get operations(): never {
    return noDatabase('The admin operations');
  }
  change(): never {
    return noDatabase('A change');
  }
}

export interface BuiltEdge {
  app: FastifyInstance;
  log: Logger;
}

export async function buildEdge(config: EdgeConfig): Promise<BuiltEdge> {
  const settings = config.edge;
  const logger = createLogger(config);
  const upstream = settings.upstreamUrl ? new Upstream(settings.upstreamUrl, randomUUID()) : undefined;
  const tokens = new EdgeTokens(upstream, logger);
  const scopes = new EdgeScopes(upstream, tokens, settings, logger);
  const streams = new ClientStreams(logger, config.clientStreamsLimit);
  scopes.onChange(streams.onChange);
  // A token revoked upstream: the streams it opened here end at once.
  tokens.onRevoked(() => void streams.tokensChanged(async (secret) => tokens.peek(secret) !== undefined));
  const credentialFor = (environment: string) => tokens.all().find((t) => t.type === 'client' && t.environment === environment)?.secret;
  const reports = new EdgeReports(upstream, credentialFor, logger);
  const cacheDir = settings.cacheDir ? new EdgeCacheDir(settings.cacheDir, logger, () => ({ scopes: scopes.all(), tokens: tokens.all() })) : undefined;

  if (settings.offlineFile) {
    await loadOfflineFile(settings, scopes, tokens);
    logger.info({ file: settings.offlineFile }, 'edge: serving the exported state in EDGE_OFFLINE_FILE; no upstream is called');
  } else {
    const cached = await cacheDir?.load();
    if (cached) {
      tokens.remember(cached.tokens);
      for (const saved of cached.scopes) scopes.scope(saved.environment, saved.projects).replaceAll(saved.state, saved.state.revision, 'cache');
    }
    const reached = await tokens.learn(settings.tokens);
    if (!reached) {
      logger.warn({ upstream: settings.upstreamUrl, cachedAt: cached?.savedAt ?? null }, cached ? 'edge: the upstream is away; serving the state kept in EDGE_CACHE_DIR until it returns' : 'edge: the upstream is away and nothing is cached; SDKs are answered once it returns');
    }
    if (cacheDir) scopes.onChange(cacheDir.changed);
    tokens.start(settings.tokenRevalidateMs);
    reports.start(settings.metricsIntervalMs);
  }

  const configured = () => settings.tokens.concat(settings.frontendTokens).flatMap((secret) => tokens.peek(secret) ?? []);
  const tagFiltered = new TagFilteredAnswers(upstream);
  const edgeHandlers: Handlers = {
    ...handlers,
    async getClientFeatures(request, context) {
      if (!hasTagFilter(request.query)) return handlers.getClientFeatures(request, context);
      const body = Buffer.from(JSON.stringify(await tagFiltered.answer(request.query, request.headers)));
      return { status: 200, body: { preSerialized: body }, headers: { 'content-type': 'application/json; charset=utf-8' } };
    },
    async getReady() {
      const waiting = configured().length < settings.tokens.length + settings.frontendTokens.length;
      if (!waiting && scopes.inSync(configured())) return { status: 200, body: { health: 'GOOD' } };
      const stale = scopes.all().filter((s) => s.origin !== undefined);
      return {
        status: 503,
        body: errorBody(
          'ServiceUnavailableError',
          stale.length > 0
            ? `Stale: the edge serves flags its upstream has not confirmed (${stale.map((s) => `${s.environment} from ${s.origin}, last confirmed ${s.lastSync ? new Date(s.lastSync).toISOString() : 'never'}`).join('; ')}).`
            : 'Not ready: the edge has no flags yet for every configured token; its upstream has not answered.',
        ),
      };
    },
    async validateEdgeTokens({ body }) {
      const found = await Promise.all([...new Set(body.tokens)].map((secret) => tokens.find(secret)));
      return { status: 200, body: { tokens: found.flatMap((t) => (t ? [{ token: t.secret, type: t.type, projects: t.projects, environment: t.environment }] : [])) } };
    },
  };

  const app = createFastify(config);
  registerErrorAnswers(app, logger);
  const metrics = new ServiceMetrics(undefined);
  metrics.countStreams(() => streams.size);
  registerEdgeMetrics(metrics.registry, scopes, tokens, reports);
  const context = (request: FastifyRequest): HandlerContext => new EdgeRequestContext(request, logger, scopes, reports);
  const sourceOf = (caller: Caller) => scopes.sourceFor(caller);
  registerClientFeaturesRoute(app, tokens, 'open-source', edgeHandlers.getClientFeatures, context, sourceOf, metrics);
  registerClientStreamingRoute(app, streams, sourceOf, tokens, 'open-source');
  registerPrometheus(app, metrics);
  app.addHook('preClose', async () => streams.close());
  app.addHook('onClose', async () => {
    tokens.stop();
    await scopes.stop();
    await reports.stop();
    await cacheDir?.flush();
    await upstream?.close();
  });

  await app.register(async (api) => {
    registerRequestLogging(api, logger);
    timeRequests(api, metrics);
    registerValidation(api);
    await registerFrontendCors(api, config.frontendApiOrigins);
    registerAuth(api, tokens, 'open-source', undefined);
    registerBodyGuard(api);
    api.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    api.addHook('onRoute', (route) => {
      const id = (route.schema as { operationId?: string } | undefined)?.operationId;
      const limit = id && id in operationTable ? operationTable[id as OperationId].bodyLimit : undefined;
      if (limit) route.bodyLimit = limit;
    });
    await api.register(openapiGlue, { specification: edgeContract(), serviceHandlers: routeHandlers(edgeHandlers, context) });
  });
  await app.ready();
  return { app, log: logger };
}
