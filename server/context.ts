import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import type { Caller } from './caller.js';
import type { EventLog, RecordEvent } from './events.js';
import type { AppConfig } from './config.js';
import type { ClientFeatureCache } from './client-features/cache.js';
import type { ClientMetricsStore } from './client-metrics.js';

/** What every handler gets besides its request. */
export interface HandlerContext {
  db: Db;
  caller: Caller;
  log: Logger;
  config: AppConfig;
  events: EventLog;
  clientFeatures: ClientFeatureCache;
  clientMetrics: ClientMetricsStore;
  /** The caller's address, as the connection or a trusted proxy tells. */
  clientIp: string;
  /** Whether cookies the answer sets are Secure: SECURE_COOKIES, or the request came over HTTPS (directly, or as a trusted proxy says). */
  secureCookies: boolean;
  /** Runs `work` in one transaction; events recorded through `record` commit or roll back with it. */
  change<T>(work: (tx: Db, record: RecordEvent) => Promise<T>): Promise<T>;
}
