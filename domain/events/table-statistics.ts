// Keeps the query planner's statistics of the flag tables fresh. The embedded database never runs autovacuum, and a
// PostgreSQL may have it off or lagging after a bulk import; without statistics a search over 10,000 flags picks
// nested loops over every match instead of reading one page in name order.
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { Change } from './event-log.js';

/** The tables searches and flag reads filter and join on. */
const TABLES = [
  'features',
  'feature_environments',
  'feature_strategies',
  'feature_strategy_segments',
  'feature_tags',
  'feature_dependencies',
  'feature_lifecycles',
  'favorite_features',
  'client_metrics_hourly',
  'events',
];

/** Statistics are refreshed after this many events, or a tenth of all events so far if that is more. */
const MIN_EVENTS = 500;
/** Changes come in bursts (an import, a seeding script): one refresh a little after the threshold covers more of it. */
const DELAY_MS = 2000;
const RETRIES = 3;
const RETRY_MS = 300;

export class TableStatistics {
  private eventsSince = 0;
  private revisionAtLast = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  onChange = (change: Change): void => {
    // A change read back from another replica in bulk has no event list: count it by revisions.
    this.eventsSince += change.events?.length ?? Math.max(1, change.revision - this.revisionAtLast);
    if (this.timer || this.eventsSince < Math.max(MIN_EVENTS, this.revisionAtLast / 10)) return;
    this.timer = setTimeout(() => void this.refresh(change.revision), DELAY_MS);
    this.timer.unref();
  };

  /** Refreshes now (at start, when statistics may never have been gathered). */
  refresh(revision: number): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.eventsSince = 0;
    this.revisionAtLast = revision;
    this.running = this.running.then(() => this.analyze(RETRIES));
    return this.running;
  }

  /**
   * Another replica, or PostgreSQL's autovacuum, analysing the same table at the same moment is the usual cause of a
   * failure ("tuple concurrently updated"): tried again shortly, a few times.
   */
  private async analyze(retries: number): Promise<void> {
    try {
      await this.db.execute(sql.raw(`analyze ${TABLES.join(', ')}`));
    } catch (error) {
      this.log.debug({ err: error }, 'could not refresh table statistics');
      if (retries === 0) return;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      await this.analyze(retries - 1);
    }
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    await this.running;
  }
}
