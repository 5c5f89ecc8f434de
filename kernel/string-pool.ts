// Rows read from the database bring a fresh copy of every repeated string: at 10,000 flags, ten thousand copies of
// "default", of each environment's name, of each strategy's name and stickiness. A pool keeps one of each for what is
// kept in memory between requests.

export class StringPool {
  private readonly strings = new Map<string, string>();

  /** The pool's copy of `value`, which becomes it when the pool has none. */
  of(value: string): string {
    const kept = this.strings.get(value);
    if (kept !== undefined) return kept;
    this.strings.set(value, value);
    return value;
  }

  /** `value` with every string inside it (object keys aside: V8 already keeps one copy of those) taken from the pool, in place. */
  within<T>(value: T): T {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.any(value[i]);
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = this.any(record[key]);
    }
    return value;
  }

  private any(value: unknown): unknown {
    return typeof value === 'string' ? this.of(value) : this.within(value);
  }
}
