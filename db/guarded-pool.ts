// drizzle-orm 0.45's node-postgres transaction() runs BEGIN before the try/finally that releases its client, and
// releases a client whose ROLLBACK failed as if it were healthy (drizzle-orm issues #6023, #6114, #6241). When
// PostgreSQL cuts connections under load, a BEGIN on a dead connection leaks its pool slot for good: after a few,
// every request waits for a connection that never comes (503 forever). Clients checked out through `connect()` are
// handed over guarded: a failed BEGIN releases the client (destroying it), a failed ROLLBACK makes the later
// release destroy it, and a second release is ignored.
import pg from 'pg';

type QueryConfigLike = string | { text?: string };

const textOf = (config: unknown) => (typeof config === 'string' ? config : ((config as { text?: string } | undefined)?.text ?? ''));

function guarded(client: pg.PoolClient): pg.PoolClient {
  let released = false;
  let broken: Error | undefined;
  const release = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    client.release(error ?? broken);
  };
  // A transaction's reads may run together (Promise.all over `tx`); pg queues them on its one connection but calls
  // that deprecated (an error from pg 9), so promise-form queries are chained here instead, each after the last.
  let previous: Promise<unknown> = Promise.resolve();
  const send = (config: QueryConfigLike, rest: unknown[]) => {
    const result = (client.query as (...args: unknown[]) => unknown)(config, ...rest);
    if (!(result instanceof Promise)) return result;
    return result.catch((error: Error) => {
      const text = textOf(config).trimStart().slice(0, 8).toLowerCase();
      if (text.startsWith('begin')) release(error);
      else if (text.startsWith('rollback')) broken = error;
      throw error;
    });
  };
  const query = (config: QueryConfigLike, ...rest: unknown[]) => {
    const callbackForm = typeof rest.at(-1) === 'function' || typeof (config as { submit?: unknown }).submit === 'function';
    if (callbackForm) return send(config, rest);
    const result = previous.then(() => send(config, rest));
    previous = result.catch(() => undefined);
    return result;
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      if (property === 'release') return release;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A pg.Pool (drizzle recognises it as one) whose promise-form `connect()` hands out guarded clients. */
export class GuardedPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): Promise<pg.PoolClient> | void {
    // pool.query() checks out with a callback and releases itself: only transactions take the promise form.
    if (callback) return super.connect(callback);
    return super.connect().then(guarded);
  }
}
