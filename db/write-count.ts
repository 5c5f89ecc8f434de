/**
 * Counts the writes this process has made visible. It moves after a statement that may write has returned and after
 * every transaction has ended, so a read that began while the count stood at n sees every write counted up to n: an
 * answer kept together with the count it was read at is current while the count has not moved.
 */
export class WriteCount {
  private count = 0;

  get value(): number {
    return this.count;
  }

  readonly bump = (): void => {
    this.count++;
  };
}

const READING = /^\s*(select|with)\b/i;
const WRITING = /\b(insert|update|delete|merge|truncate|copy)\b/i;

/** Whether a statement's text may change data (a read that names a writing keyword counts as one: it costs a reuse, no more). */
const mayWrite = (text: string): boolean => !READING.test(text) || WRITING.test(text);

const textOf = (statement: unknown) => (typeof statement === 'string' ? statement : ((statement as { text?: unknown } | null)?.text ?? ''));

/**
 * Makes `target[method]` bump `count` once each call's promise settles: always, or only when its first argument
 * is a statement that `mayWrite`.
 */
function bumpAfter(target: object, method: string, count: WriteCount, when: 'always' | 'writing'): void {
  const original = Reflect.get(target, method) as (...args: unknown[]) => unknown;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (!(result instanceof Promise) || (when === 'writing' && !mayWrite(String(textOf(args[0]))))) return result;
    return result.finally(count.bump);
  };
  Reflect.set(target, method, wrapped);
}

/** Counts the writes made through `db` (each of its transactions) and through the driver's own statement methods. */
export function countWrites(db: object, driver: object, statementMethods: string[]): WriteCount {
  const count = new WriteCount();
  bumpAfter(db, 'transaction', count, 'always');
  for (const method of statementMethods) bumpAfter(driver, method, count, 'writing');
  return count;
}
