import type { Logger } from 'pino';
import type { HandlersWith } from '../generated/handlers.js';
import type { Db } from '../db/connect.js';
import type { Caller } from '../shared/caller.js';
import type { EventLog, RecordEvent } from './events/event-log.js';
import type { AppConfig } from '../kernel/config.js';
import type { ServedSnapshots } from './client-features/cache.js';
import type { ClientMetricsStore } from './usage/client-metrics.js';
import type { RecentReads } from './recent-reads.js';

/** Where SDK reports go: the database (ClientMetricsStore), or an edge's upstream (EdgeReports). */
export type SdkReports = Pick<ClientMetricsStore, 'register' | 'report' | 'addCollector'>;

/** What every handler gets besides its request. */
export interface HandlerContext {
  db: Db;
  caller: Caller;
  log: Logger;
  config: AppConfig;
  events: EventLog;
  clientFeatures: ServedSnapshots;
  clientMetrics: SdkReports;
  /** The service's request counts per application and endpoint (the usage metrics). */
  requestCounts: Pick<ClientMetricsStore, 'requestCountsSince'>;
  /** Answers of costly reads, reused until the data changes. */
  recentReads: Pick<RecentReads, 'read'>;
  /** The caller's address, as the connection or a trusted proxy tells. */
  clientIp: string;
  /** Whether cookies the answer sets are Secure: SECURE_COOKIES, or the request came over HTTPS (directly, or as a trusted proxy says). */
  secureCookies: boolean;
  /** Every operation's handler: change requests apply their changes through the direct operations. */
  operations: Handlers;
  /** Runs `work` in one transaction; events recorded through `record` commit or roll back with it. */
  change<T>(work: (tx: Db, record: RecordEvent) => Promise<T>): Promise<T>;
}

/** One handler per operationId of the contract, each given the context above. */
export type Handlers = HandlersWith<HandlerContext>;
