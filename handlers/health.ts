import { sql } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import { errorBody } from '../kernel/errors.js';

/** How long /ready waits for the database to answer `select 1`. */
const READY_TIMEOUT_MS = 1000;

/** Resolves true when `work` settles successfully within `ms`, false when it fails or takes longer. */
function answersWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  return Promise.race([work.then(() => true, () => false), late]).finally(() => clearTimeout(timer));
}

export const healthHandlers = {
  async getHealth() {
    return { status: 200, body: { health: 'GOOD' } };
  },

  async getReady(_request, { db }) {
    if (await answersWithin(db.execute(sql`select 1`), READY_TIMEOUT_MS)) return { status: 200, body: { health: 'GOOD' } };
    return { status: 503, body: errorBody('ServiceUnavailableError', `The database did not answer within ${READY_TIMEOUT_MS} ms; admin requests cannot be served right now.`) };
  },
} satisfies Partial<Handlers>;
