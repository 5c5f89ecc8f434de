// The tokens an edge serves: those it was started with and those learned at first use, each checked with the upstream
// (POST /edge/validate, as Unleash Edge does), remembered, and checked again every round so that a revoked one stops.
import type { Logger } from 'pino';
import { hashSecret, type TokenLookup, type TokenScope } from '../access/tokens.js';
import type { EdgeToken, Upstream } from './upstream.js';
import { serviceUnavailable } from '../../kernel/errors.js';

/** A credential the upstream refused is answered 401 without asking again for this long. */
const REFUSED_TTL_MS = 5_000;
const MAX_REFUSED = 10_000;
/** Tokens learned at first use, at most; past this the least recently checked one is forgotten. */
const MAX_KNOWN = 10_000;

/** A token an edge serves: only client and frontend tokens ever are. */
export interface KnownToken extends Omit<TokenScope, 'type'> {
  type: EdgeToken['type'];
  secret: string;
}

export type RememberedToken = Omit<KnownToken, 'secret'>;

export function scopeOf(token: EdgeToken): KnownToken {
  return { secret: token.token, tokenName: 'edge', type: token.type, projects: token.projects, environment: token.environment };
}

export class EdgeTokens implements TokenLookup {
  private readonly known = new Map<string, KnownToken>();
  private readonly refused = new Map<string, number>();
  /** Lookups waiting for the next call to the upstream, gathered so that a burst of new SDKs costs one call. */
  private batch: Map<string, { resolve: (token: KnownToken | undefined) => void; reject: (error: Error) => void }[]> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly learnedListeners: ((token: KnownToken) => void)[] = [];
  private readonly revokedListeners: ((token: KnownToken) => void)[] = [];
  /** When the upstream last answered a check; 0 when never. */
  lastCheck = 0;
  /** Token scopes by hash from the cache folder: believed while the upstream cannot be asked. */
  private remembered = new Map<string, RememberedToken>();

  constructor(
    private readonly upstream: Upstream | undefined,
    private readonly log: Logger,
  ) {}

  /** Tokens known without asking (an offline edge's, or those kept in the cache folder). */
  add(token: KnownToken): void {
    this.known.set(token.secret, token);
    for (const listener of this.learnedListeners) listener(token);
  }

  /** Scopes of tokens served before (the cache folder), used only while the upstream cannot be asked. */
  remember(byHash: Record<string, RememberedToken>): void {
    this.remembered = new Map(Object.entries(byHash));
  }

  /** The token as served before the upstream went away; added as known. */
  private fromMemory(secret: string): KnownToken | undefined {
    const scope = this.remembered.get(hashSecret(secret));
    if (!scope) return undefined;
    const token = { ...scope, secret };
    this.add(token);
    return token;
  }

  all(): KnownToken[] {
    return [...this.known.values()];
  }

  onLearned(listener: (token: KnownToken) => void): void {
    this.learnedListeners.push(listener);
  }

  onRevoked(listener: (token: KnownToken) => void): void {
    this.revokedListeners.push(listener);
  }

  peek(secret: string): KnownToken | undefined {
    return this.known.get(secret);
  }

  async find(secret: string): Promise<KnownToken | undefined> {
    const known = this.known.get(secret);
    if (known) return known;
    if (!this.upstream || (this.refused.get(secret) ?? 0) > Date.now()) return undefined;
    return new Promise((resolve, reject) => {
      if (!this.batch) {
        this.batch = new Map();
        setImmediate(() => void this.checkBatch());
      }
      this.batch.set(secret, [...(this.batch.get(secret) ?? []), { resolve, reject }]);
    });
  }

  private async checkBatch(): Promise<void> {
    const batch = this.batch!;
    this.batch = undefined;
    let valid: EdgeToken[] = [];
    let answered = false;
    try {
      valid = await this.upstream!.validate([...batch.keys()]);
      this.lastCheck = Date.now();
      answered = true;
    } catch (error) {
      this.log.warn({ err: error }, 'edge: the upstream could not check new tokens; they are answered 503 until it can');
    }
    const bySecret = new Map(valid.map((t) => [t.token, scopeOf(t)]));
    for (const [secret, waiting] of batch) {
      const token = answered ? bySecret.get(secret) : this.fromMemory(secret);
      if (token && answered) {
        if (this.known.size >= MAX_KNOWN) this.known.delete(this.known.keys().next().value!);
        this.add(token);
      } else if (answered) {
        if (this.refused.size >= MAX_REFUSED) this.refused.clear();
        this.refused.set(secret, Date.now() + REFUSED_TTL_MS);
      }
      // A token the upstream could not be asked about is not refused (401 would tell the SDK its token is wrong): 503.
      const unchecked = !answered && !token ? serviceUnavailable('This edge cannot check the token with its upstream right now; try again shortly.') : undefined;
      for (const { resolve, reject } of waiting) {
        if (unchecked) reject(unchecked);
        else resolve(token);
      }
    }
  }

  /** Checks the configured tokens first: at start, before anything is served. False when the upstream cannot be asked. */
  async learn(secrets: string[]): Promise<boolean> {
    if (!this.upstream || secrets.length === 0) return true;
    try {
      const valid = await this.upstream.validate(secrets);
      this.lastCheck = Date.now();
      const returned = new Set(valid.map((t) => t.token));
      for (const secret of secrets) if (!returned.has(secret)) this.log.warn({ token: redacted(secret) }, 'edge: the upstream does not accept a configured token; it is not served');
      for (const token of valid) this.add(scopeOf(token));
      return true;
    } catch (error) {
      const remembered = secrets.filter((secret) => this.fromMemory(secret));
      this.log.warn({ err: error, remembered: remembered.length }, 'edge: the upstream could not check the configured tokens; those served before are served from the cache folder');
      return false;
    }
  }

  /** Checks every known token every `intervalMs`. */
  start(intervalMs: number): void {
    if (!this.upstream) return;
    this.timer = setInterval(() => void this.revalidate(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * Asks the upstream about every known token; those it no longer accepts are forgotten. Keeps them all when it cannot be
   * asked. Only the tokens asked about are judged: one learned while the check was under way was not in it.
   */
  async revalidate(): Promise<void> {
    if (!this.upstream || this.known.size === 0) return;
    const asked = [...this.known.keys()];
    let valid: EdgeToken[];
    try {
      valid = await this.upstream.validate(asked);
      this.lastCheck = Date.now();
    } catch {
      return;
    }
    const still = new Set(valid.map((t) => t.token));
    for (const secret of asked) if (!still.has(secret)) this.revoke(secret);
  }

  /** The upstream refused this token (a check, or its stream or poll answered 401/403). */
  revoke(secret: string): void {
    const token = this.known.get(secret);
    if (!token) return;
    this.known.delete(secret);
    this.refused.set(secret, Date.now() + REFUSED_TTL_MS);
    this.log.info({ token: redacted(secret) }, 'edge: the upstream no longer accepts a token; it is not served any more');
    for (const listener of this.revokedListeners) listener(token);
  }
}

/** A secret as logs may show it: its scope part only. */
export const redacted = (secret: string) => `${secret.split('.')[0]}.***`;
