// Applies scheduled change requests when their time comes: every instance looks, one applies each (row lock).
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { applyChangeRequest } from './apply.js';
import { applyNextDue } from './schedule.js';
import type { HandlerContext } from '../handler-context.js';
import type { EventLog } from '../events/event-log.js';
import { runPeriodically } from '../../kernel/periodic.js';

export function startChangeRequestScheduler(
  db: Db,
  events: EventLog,
  services: Omit<HandlerContext, 'db' | 'change' | 'caller' | 'log' | 'clientIp' | 'secureCookies'>,
  log: Logger,
  pollMs: number,
): () => Promise<void> {
  const base = { ...services, log, clientIp: '127.0.0.1', secureCookies: false };
  return runPeriodically(
    pollMs,
    async () => {
      while (await applyNextDue(db, events, base, applyChangeRequest));
    },
    (error) => log.warn({ err: error }, 'scheduled change requests: could not look for due ones; trying again shortly'),
  );
}
