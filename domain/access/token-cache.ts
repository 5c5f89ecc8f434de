import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { Change } from '../events/event-log.js';
import { hashSecret, type TokenLookup, type TokenRow } from './tokens.js';

/** How long a credential the database did not know is answered 401 without asking it again. */
const UNKNOWN_TTL_MS = 5_000;
const MAX_UNKNOWN = 10_000;

/**
 * Every API token in memory, so that authenticating a request needs no query. Reloaded when a token
 * event commits (here or on another replica); a credential not in memory is looked up once, then
 * remembered as unknown for a few seconds. Which tokens were used is remembered too, and written as their
 * `seen_at` in one statement per flush, not one per request.
 */
export class TokenCache implements TokenLookup {
  private byHash = new Map<string, TokenRow>();
  /** Credentials seen recently, so that a known one costs no hashing. */
  private bySecret = new Map<string, TokenRow>();
  private readonly unknown = new Map<string, number>();
  private reloading: Promise<void> | undefined;
  /** Ids of the tokens used since the last flush. */
  private used = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly reloadListeners: (() => void)[] = [];

  constructor(private readonly db: Db) {}

  /** Writes the tokens' last use every `intervalMs`. */
  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flushSeen(), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what was used since the last flush. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flushSeen();
  }

  /** Sets `seen_at` of the tokens used since the last flush to now; kept for the next flush when the write fails. */
  private async flushSeen(): Promise<void> {
    if (this.used.size === 0) return;
    const ids = [...this.used];
    this.used = new Set();
    try {
      await this.db.update(t.apiTokens).set({ seenAt: new Date() }).where(inArray(t.apiTokens.id, ids));
    } catch {
      for (const id of ids) this.used.add(id);
    }
  }

  private usable(row: TokenRow | undefined): TokenRow | undefined {
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
    this.used.add(row.id);
    return row;
  }

  async load(): Promise<void> {
    const rows = await this.db.select().from(t.apiTokens);
    this.byHash = new Map(rows.map((row) => [row.secretHash, row]));
    this.bySecret = new Map();
    this.unknown.clear();
  }

  /** Called after each reload that a token change caused (streams of revoked tokens are ended then). */
  onReload(listener: () => void): void {
    this.reloadListeners.push(listener);
  }

  /** Listener for committed changes: token events make the next lookup wait for a reload. */
  onChange = (change: Change): void => {
    if (change.events !== null && !change.events.some((e) => e.type.startsWith('api-token-'))) return;
    const reload = this.load().then(
      () => {
        for (const listener of this.reloadListeners) listener();
      },
      () => {
        // The database is away: keep answering from the tokens known so far.
      },
    );
    this.reloading = reload;
    void reload.finally(() => {
      if (this.reloading === reload) this.reloading = undefined;
    });
  };

  /** The token for a credential seen before, without waiting; undefined when a lookup is needed. */
  peek(secret: string): TokenRow | undefined {
    return this.reloading ? undefined : this.usable(this.bySecret.get(secret));
  }

  async find(secret: string): Promise<TokenRow | undefined> {
    if (this.reloading) await this.reloading;
    let row = this.bySecret.get(secret);
    if (!row) {
      const hash = hashSecret(secret);
      row = this.byHash.get(hash) ?? (await this.lookUp(hash));
      if (!row) return undefined;
      if (this.bySecret.size >= MAX_UNKNOWN) this.bySecret.clear();
      this.bySecret.set(secret, row);
    }
    return this.usable(row);
  }

  private async lookUp(hash: string): Promise<TokenRow | undefined> {
    if ((this.unknown.get(hash) ?? 0) > Date.now()) return undefined;
    try {
      const [row] = await this.db.select().from(t.apiTokens).where(eq(t.apiTokens.secretHash, hash));
      if (row) {
        this.byHash.set(hash, row);
        return row;
      }
    } catch {
      return undefined;
    }
    if (this.unknown.size >= MAX_UNKNOWN) this.unknown.clear();
    this.unknown.set(hash, Date.now() + UNKNOWN_TTL_MS);
    return undefined;
  }
}
