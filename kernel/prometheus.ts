// What the service exposes to Prometheus at /internal-backstage/prometheus, on its own registry per app.
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/connect.js';
import { RequestCounts } from './request-counts.js';
import { RequestHistogram } from './request-histogram.js';

export const PROMETHEUS_PATH = '/internal-backstage/prometheus';

/** Totals are counted at most this often; a scrape in between reads the last counts. */
const TOTALS_TTL_MS = 5_000;
/** Distinct `appName` label values kept; later ones are counted as `other`. */
const MAX_APP_NAMES = 100;
const MAX_APP_NAME_LENGTH = 64;
/** Requests no route matched: one label value, so that probes of random paths cannot grow the label set. */
const UNMATCHED = '(unmatched)';

type Totals = { flags: number; projects: number; environments: number; users: number };

/**
 * The service's metrics. Everything is registered on `registry`, never on prom-client's global one, so that
 * several apps (tests) can run in one process.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly duration: RequestHistogram;
  private readonly clientRequests: Counter;
  private readonly clientNotModified: Counter;
  private readonly flushFailures: Counter;
  private readonly appNames = new Set<string>();
  private totals: Promise<Totals> | undefined;
  private totalsAt = 0;

  constructor(
    /** The service's database, for the totals; none on an edge node, which has no totals. */
    private readonly db: Db | undefined,
    /** Every request on /api/… is also counted here, by application and endpoint group (the usage metrics). */
    readonly requests = new RequestCounts(),
  ) {
    collectDefaultMetrics({ register: this.registry });
    this.duration = new RequestHistogram(
      'http_request_duration_milliseconds',
      'Time to answer a request, by route pattern, method, status and, on the client API, the SDK application name.',
      [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000],
      this.registry,
    );
    this.clientRequests = new Counter({ name: 'client_api_requests_total', help: 'Requests to GET /api/client/features.', registers: [this.registry] });
    this.clientNotModified = new Counter({
      name: 'client_api_not_modified_total',
      help: 'Requests to GET /api/client/features answered 304 Not Modified.',
      registers: [this.registry],
    });
    this.flushFailures = new Counter({
      name: 'client_metrics_flush_failures_total',
      help: 'Writes of SDK registrations and metrics to the database that failed.',
      registers: [this.registry],
    });
    const total = (name: string, help: string, key: keyof Totals) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect: async function (this: Gauge) {
          this.set((await metrics.currentTotals())[key]);
        },
      });
    const metrics = this;
    if (!db) return;
    total('feature_toggles_total', 'Flags that are not archived.', 'flags');
    total('projects_total', 'Projects.', 'projects');
    total('environments_total', 'Environments.', 'environments');
    total('users_total', 'Users.', 'users');
  }

  /** A gauge of the SDK streams open on this instance, read from `count` when scraped. */
  countStreams(count: () => number): void {
    new Gauge({
      name: 'client_streams_open',
      help: 'Server-sent event streams to SDKs (GET /api/client/streaming) open on this instance.',
      registers: [this.registry],
      collect(this: Gauge) {
        this.set(count());
      },
    });
  }

  /** One request's duration; `appName` only on the client API (the caller decides). */
  observe(path: string | undefined, method: string, status: number, ms: number, appName = ''): void {
    const route = path ?? UNMATCHED;
    this.duration.observe(`${route}\u0000${method}\u0000${status}\u0000${appName}`, () => ({ path: route, method, status, appName }), ms);
  }

  /** A request to GET /api/client/features, answered with `status`, that took `ms`. */
  observeClientFeatures(path: string, status: number, ms: number, appName: string): void {
    this.requests.add(path, appName);
    this.clientRequests.inc();
    if (status === 304) this.clientNotModified.inc();
    this.duration.observe(`${path}\u0000GET\u0000${status}\u0000${appName}`, () => ({ path, method: 'GET', status, appName }), ms);
  }

  /** Counts a failed write of SDK reports (the metrics store calls it). */
  readonly flushFailed = (): void => {
    this.flushFailures.inc();
  };

  /** The SDK's application name from its headers, truncated, one of at most MAX_APP_NAMES values. */
  appNameOf(request: FastifyRequest): string {
    const header = request.headers['unleash-appname'] ?? request.headers['x-unleash-appname'] ?? request.headers['service-appname'];
    const value = (Array.isArray(header) ? header[0] : header)?.slice(0, MAX_APP_NAME_LENGTH) ?? '';
    if (value === '' || this.appNames.has(value)) return value;
    if (this.appNames.size >= MAX_APP_NAMES) return 'other';
    this.appNames.add(value);
    return value;
  }

  private currentTotals(): Promise<Totals> {
    if (!this.totals || Date.now() - this.totalsAt > TOTALS_TTL_MS) {
      this.totalsAt = Date.now();
      this.totals = this.countTotals().catch((error: unknown) => {
        this.totals = undefined;
        throw error;
      });
    }
    return this.totals;
  }

  /** Called by the app after a change, so that a scrape right after it sees the new totals. */
  readonly onChange = (): void => {
    this.totals = undefined;
  };

  private async countTotals(): Promise<Totals> {
    const rows = (await this.db!.execute(sql`select
      (select count(*) from features where archived_at is null)::int as flags,
      (select count(*) from projects)::int as projects,
      (select count(*) from environments)::int as environments,
      (select count(*) from users)::int as users`)) as unknown as { rows: Totals[] };
    const row = rows.rows[0];
    if (!row) throw new Error('the totals query answered no row');
    return { flags: Number(row.flags), projects: Number(row.projects), environments: Number(row.environments), users: Number(row.users) };
  }
}

/** Is this a path of the client API, whose callers are SDKs that name their application? */
const sdkPath = (path: string) => path.startsWith('/api/client/') || path.startsWith('/api/frontend');

/**
 * Times every request of `api` (the operations of the contract) into the histogram, and serves the
 * registry on the root app at PROMETHEUS_PATH without authentication, as Unleash does.
 */
export function registerPrometheus(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.get(PROMETHEUS_PATH, async (_request, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
}

/**
 * The hook for the generic pipeline: `reply.elapsedTime` is measured by fastify from the request's start.
 * Requests on /api/… are counted by application too; the histogram names the application only on the SDKs' paths.
 */
export function timeRequests(api: FastifyInstance, metrics: ServiceMetrics): void {
  api.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.routeOptions.url;
    const appName = path?.startsWith('/api/') ? metrics.appNameOf(request) : '';
    metrics.observe(path, request.method, reply.statusCode, reply.elapsedTime, path && sdkPath(path) ? appName : '');
    if (path) metrics.requests.add(path, appName);
  });
}
