import type { Sql } from 'postgres';

/**
 * A query that postgres.js has not handed to a live connection within this long fails as a connection timeout
 * (503 to clients), instead of waiting: while PostgreSQL refuses connections, postgres.js 3.4 loses a query
 * now and then (it never settles), and has no acquire timeout of its own. A query already sent runs on.
 */
export const ACQUIRE_TIMEOUT_MS = 1500;

class AcquireTimeout extends Error {
  readonly code = 'CONNECT_TIMEOUT';
  constructor() {
    super(`no database connection within ${ACQUIRE_TIMEOUT_MS} ms`);
  }
}

/** Rejects when `started()` is still false after ACQUIRE_TIMEOUT_MS; otherwise never settles. */
function acquireDeadline(started: () => boolean): { expired: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => started() || reject(new AcquireTimeout()), ACQUIRE_TIMEOUT_MS);
    timer.unref();
  });
  expired.catch(() => {});
  return { expired, cancel: () => clearTimeout(timer) };
}

type Query = Promise<unknown> & { state?: unknown; values(): Query };

/** The pending query, awaited against the deadline; `values()` keeps the wrapping (drizzle calls it). */
function bounded(query: Query): Query {
  return new Proxy(query, {
    get(target, property) {
      if (property === 'values') return () => bounded(target.values());
      if (property === 'then') {
        return (onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) => {
          const deadline = acquireDeadline(() => Boolean(target.state));
          return Promise.race([target, deadline.expired]).finally(deadline.cancel).then(onFulfilled, onRejected);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * `client` with every top-level query and transaction bounded by ACQUIRE_TIMEOUT_MS until it starts. A
 * transaction whose BEGIN comes after its deadline throws at once, so it rolls back without doing anything.
 */
export function withAcquireTimeout(client: Sql): Sql {
  return new Proxy(client, {
    get(target, property) {
      if (property === 'unsafe') return (...args: Parameters<Sql['unsafe']>) => bounded(target.unsafe(...args) as unknown as Query);
      if (property === 'begin') {
        return (...args: unknown[]) => {
          const work = args.pop() as (tx: unknown) => unknown;
          let started = false;
          let expired = false;
          const deadline = acquireDeadline(() => started);
          deadline.expired.catch(() => (expired = true));
          const run = (target.begin as (...a: unknown[]) => Promise<unknown>)(...args, (tx: unknown) => {
            if (expired) throw new AcquireTimeout();
            started = true;
            return work(tx);
          });
          return Promise.race([run, deadline.expired]).finally(deadline.cancel);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
