import { LRUCache } from 'lru-cache';
import type { WriteCount } from '../db/write-count.js';

/** Answers kept at once; each is a page of an admin listing, so this bounds their memory to a few MB. */
const KEPT = 32;
/** What no counter here sees: another replica's usage counts, and the clock moving a time window. */
const AT_MOST_MS = 1000;

/**
 * Answers of costly admin reads, shared and kept for a moment: an answer is reused while this process has made no
 * write visible since its read began, no change of another replica has been heard of, and it is under a second
 * old. Requests that ask the same while it is being read wait for that one read.
 */
export class RecentReads {
  private readonly answers = new LRUCache<string, object, () => Promise<object>>({
    max: KEPT,
    ttl: AT_MOST_MS,
    fetchMethod: (_key, _stale, { context }) => context(),
  });

  constructor(
    private readonly writes: WriteCount,
    private readonly changes: { readonly revision: number },
  ) {}

  /** `read`'s answer, or one `read` for the same key gave since nothing changed. */
  async read<T extends object>(key: string, read: () => Promise<T>): Promise<T> {
    const answer = await this.answers.fetch(`${this.writes.value} ${this.changes.revision} ${key}`, { context: read });
    return answer as T;
  }
}
