import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { eventMeaning, sdkWideEventTypes } from '../../generated/events.js';
import type { Change, ChangedEvent } from '../events/event-log.js';
import { clientFeatures, shapeKey, type Shape } from './body.js';
import { changesFlag, DeltaLog } from './delta.js';
import { readChangedFlags, readSnapshot, type Snapshot } from './snapshot.js';

/** One answer, serialized once per snapshot, with its validator and lazily compressed copies. */
export interface ServedBody {
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  brotli?: Buffer;
}

/** Request shapes remembered per snapshot; past this, the oldest half is forgotten. */
const MAX_SHAPES = 1000;
/** Up to this many changed flags (or a tenth of them all) are read one by one; past that, everything is read. */
const PARTIAL_READ_LIMIT = 200;
/** While the database cannot be read, a new attempt at most this often. */
const RETRY_MS = 1000;

const shortHash = (data: string | Buffer, length: number) => createHash('sha1').update(data).digest('base64url').slice(0, length);

/** Whether SDKs must receive everything anew; a type this version does not know (written by a newer replica) is taken as so. */
const changesEverything = (e: ChangedEvent) => sdkWideEventTypes.has(e.type) || !Object.hasOwn(eventMeaning, e.type);

/**
 * What committed events mean for what SDKs are served: nothing, some flags to read again, or
 * everything ('all', e.g. a segment or a project's environments changed, or the events are not known).
 */
export function clientImpact(change: Change): 'all' | Set<string> {
  if (change.events === null || change.events.some(changesEverything)) return 'all';
  return new Set(change.events.filter(changesFlag).map((e) => e.featureName));
}

/**
 * A snapshot and the answers served from it: each request shape serialized once per snapshot, with the deltas that
 * led to it. Where the snapshot comes from (the database, or an edge's upstream) is the subclass's.
 */
export abstract class ServedSnapshots {
  protected snapshot: Snapshot | undefined;
  private served = new Map<string, ServedBody>();
  /** What changed, revision by revision, for SDKs that poll deltas or stream. */
  deltas = new DeltaLog();

  /** The current snapshot; waits for one when it is being read. */
  abstract current(): Promise<Snapshot>;

  /** Whether the served answers belong to the current snapshot. */
  protected abstract get upToDate(): boolean;

  /** Serves `snapshot` from now on; every answer is built anew. */
  protected install(snapshot: Snapshot): void {
    this.snapshot = snapshot;
    this.deltas.start(snapshot.revision);
    this.served = new Map();
  }

  /** The answer for a shape, when the snapshot is current and it was served before: no waiting, no work. */
  peek(key: string): ServedBody | undefined {
    return this.upToDate ? this.served.get(key) : undefined;
  }

  async body(shape: Shape, key = shapeKey(shape)): Promise<ServedBody> {
    const snapshot = await this.current();
    let served = this.served.get(key);
    if (!served) {
      const body = Buffer.from(JSON.stringify(clientFeatures(snapshot, shape)));
      served = { body, etag: `"${shortHash(key, 8)}:${snapshot.revision}:${shortHash(body, 12)}"` };
      if (this.served.size >= MAX_SHAPES) this.served = new Map([...this.served].slice(MAX_SHAPES / 2));
      this.served.set(key, served);
    }
    return served;
  }

  static gzip(served: ServedBody): Buffer {
    served.gzip ??= gzipSync(served.body, { level: 6 });
    return served.gzip;
  }

  static brotli(served: ServedBody): Buffer {
    served.brotli ??= brotliCompressSync(served.body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: served.body.length },
    });
    return served.brotli;
  }
}

/**
 * The in-memory state behind /api/client/features: the snapshot is re-read only after a change that
 * may affect SDKs. When the database is away, the last snapshot keeps being served.
 */
export class ClientFeatureCache extends ServedSnapshots {
  private generation = 0;
  private loadedGeneration = -1;
  /** What changed since the snapshot was read. */
  private pending: 'all' | Set<string> = 'all';
  private refreshing: Promise<void> | undefined;
  private lastFailure = 0;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {
    super();
  }

  onChange = (change: Change): void => {
    const impact = clientImpact(change);
    if (impact !== 'all' && impact.size === 0) return;
    this.deltas.record(change, impact === 'all');
    if (impact === 'all' || this.pending === 'all') this.pending = 'all';
    else for (const name of impact) this.pending.add(name);
    // Read again when an SDK next asks, not now: a burst of admin writes then costs one read, not one each.
    this.generation++;
  };

  protected get upToDate(): boolean {
    return this.loadedGeneration === this.generation;
  }

  /** The current snapshot: after a change, the next caller waits for the changed flags to be read again. */
  async current(): Promise<Snapshot> {
    for (let attempt = 0; attempt < 3 && (this.loadedGeneration !== this.generation || !this.snapshot); attempt++) {
      await this.refresh();
      if (this.lastFailure > 0) break;
    }
    if (!this.snapshot) throw new Error('The flags could not be read from the database yet.');
    return this.snapshot;
  }

  private refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    if (this.snapshot && Date.now() - this.lastFailure < RETRY_MS) return Promise.resolve();
    const generation = this.generation;
    const pending = this.pending;
    this.pending = new Set();
    const partial = pending !== 'all' && this.snapshot !== undefined && pending.size <= Math.max(PARTIAL_READ_LIMIT, this.snapshot.flags.size / 10);
    const read = partial ? readChangedFlags(this.db, this.snapshot!, pending as Set<string>) : readSnapshot(this.db);
    const refreshing = read.then(
      (snapshot) => {
        this.install(snapshot);
        this.loadedGeneration = generation;
        this.lastFailure = 0;
      },
      (error: unknown) => {
        this.lastFailure = Date.now();
        this.pending = 'all';
        this.log.warn({ err: error }, 'could not read the flags; serving the last known ones');
      },
    );
    this.refreshing = refreshing.finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }
}
