import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Db } from '../../db/connect.js';
import type { EventLog } from './event-log.js';

const CHANNEL = 'flag_service_events';
/** The fallback when a notification is lost: how often the newest event id is compared. */
const POLL_MS = 1000;
/** A database that stays away is reported this often, not on every poll. */
const REPORT_EVERY_MS = 30_000;

/** What this process tells other replicas, inside each changing transaction: delivered at commit. */
export function replicaAnnouncer(database: Database): { instanceId: string; announce?: (tx: Db) => Promise<void> } {
  const instanceId = randomUUID();
  if (!database.listen) return { instanceId };
  return {
    instanceId,
    announce: async (tx) => {
      await tx.execute(sql`select pg_notify(${CHANNEL}, ${instanceId})`);
    },
  };
}

/**
 * Keeps this replica's view in step with changes other replicas commit: LISTEN/NOTIFY for speed, and a
 * poll of new events every second in case a notification is lost. Returns the stop function.
 */
export async function startReplicaSync(database: Database, events: EventLog, instanceId: string, log: Logger): Promise<() => void> {
  if (!database.listen) return () => {};
  let running = Promise.resolve();
  let lastReport = 0;
  const catchUp = (certain: boolean) => {
    running = running
      .then(() => events.catchUp(certain))
      .catch((error: unknown) => {
        if (Date.now() - lastReport < REPORT_EVERY_MS) return;
        lastReport = Date.now();
        log.warn({ err: error }, 'cannot reach the database to look for changes; serving what is known');
      });
    return running;
  };
  await database.listen(CHANNEL, (payload) => {
    if (payload !== instanceId) void catchUp(true);
  });
  const timer = setInterval(() => void catchUp(false), POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
