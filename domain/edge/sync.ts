// Keeping one scope in sync with the upstream, with a client token of that scope: a stream when the upstream offers
// one (this service, another edge), polling with If-None-Match otherwise (Unleash's open-source edition).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { EdgeSync } from '../../kernel/edge-config.js';
import type { EdgeScope } from './scope.js';
import type { Upstream } from './upstream.js';

/** Waits between attempts while the upstream is away: from the first to the last, doubling. */
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 10_000;
/** After the upstream asked to poll, a stream is tried again after this many polls. */
const POLLS_BEFORE_STREAMING_AGAIN = 6;

export class ScopeSync {
  private readonly stopping = new AbortController();
  private mode: 'streaming' | 'polling';
  private etag: string | undefined;
  /** Whether a stream is open now, or the last poll answered. */
  private connected = false;
  private running: Promise<void> | undefined;

  constructor(
    readonly scope: EdgeScope,
    /** The client token the scope is read with; replaced when the upstream stops accepting it. */
    public credential: string,
    private readonly upstream: Upstream,
    sync: EdgeSync,
    private readonly pollMs: number,
    private readonly log: Logger,
    private readonly on: { refused(credential: string): void; tokensChanged(): void },
  ) {
    this.mode = sync === 'polling' ? 'polling' : 'streaming';
    this.allowStreaming = sync !== 'polling';
    this.allowPolling = sync !== 'streaming';
  }

  private readonly allowStreaming: boolean;
  private readonly allowPolling: boolean;

  /** Whether the scope holds what the upstream holds now, as far as the edge can know. */
  get inSync(): boolean {
    if (!this.connected || this.scope.origin !== 'upstream') return false;
    return this.mode === 'streaming' || Date.now() - this.scope.lastSync < 3 * this.pollMs;
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    let polls = 0;
    while (!this.stopping.signal.aborted) {
      // The credential this attempt is made with: the one to revoke should the upstream refuse it.
      const credential = this.credential;
      try {
        if (this.mode === 'streaming') {
          const end = await this.streamOnce();
          if (end === 'refused') {
            if (this.refused(credential)) continue;
            return;
          }
          if (end === 'unsupported' && this.allowPolling) {
            this.log.info({ upstream: this.upstream.url }, 'edge: the upstream offers no stream; polling it');
            this.mode = 'polling';
            continue;
          }
          if (end === 'poll' && this.allowPolling) {
            this.mode = 'polling';
            polls = POLLS_BEFORE_STREAMING_AGAIN;
            continue;
          }
          retryMs = FIRST_RETRY_MS;
        } else {
          const polled = await this.pollOnce();
          if (polled === 'refused') {
            if (this.refused(credential)) continue;
            return;
          }
          retryMs = FIRST_RETRY_MS;
          if (polls > 0 && --polls === 0 && this.allowStreaming) {
            this.mode = 'streaming';
            continue;
          }
          await sleep(this.pollMs, undefined, { signal: this.stopping.signal }).catch(() => {});
          continue;
        }
      } catch (error) {
        if (this.stopping.signal.aborted) return;
        if (this.connected || retryMs === FIRST_RETRY_MS) this.log.warn({ err: error, upstream: this.upstream.url, environment: this.scope.environment }, 'edge: the upstream cannot be reached; serving the last known flags');
        this.connected = false;
      }
      this.connected = false;
      await sleep(retryMs, undefined, { signal: this.stopping.signal }).catch(() => {});
      retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
    }
  }

  /**
   * The upstream refused `credential`: it is revoked, and the scope's next client token, if any, takes its place (set by
   * the revocation handler; `start()` cannot restart this run, which is still going). True when the run should go on
   * with that token; false when none took its place or the sync is stopping.
   */
  private refused(credential: string): boolean {
    this.connected = false;
    this.on.refused(credential);
    return !this.stopping.signal.aborted && this.credential !== credential;
  }

  private streamOnce() {
    const fromUpstream = this.scope.origin === 'upstream' || this.scope.origin === 'cache';
    return this.upstream.stream(
      this.credential,
      fromUpstream ? this.scope.revision : undefined,
      {
        events: (events) => this.scope.applyEvents(events, 'upstream'),
        alive: () => {
          this.connected = true;
          // A stream resumed from the cached revision holds what the upstream holds: what it sends next is what changed.
          if (this.scope.origin === 'cache') this.scope.origin = 'upstream';
          this.scope.confirmed();
        },
        tokensChanged: () => this.on.tokensChanged(),
      },
      this.stopping.signal,
    );
  }

  private async pollOnce(): Promise<'refused' | 'ok'> {
    const polled = await this.upstream.features(this.credential, this.scope.origin === 'upstream' ? this.etag : undefined);
    if (polled.status === 'refused') return 'refused';
    this.connected = true;
    if (polled.status === 'unchanged') this.scope.confirmed();
    else {
      this.etag = polled.etag;
      this.scope.replaceAll(polled.body, Date.now(), 'upstream');
    }
    return 'ok';
  }
}
