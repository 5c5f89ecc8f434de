// GET /api/client/streaming: server-sent events carrying each change to the SDKs it concerns, in the wire format of
// unleash-client's streaming mode. A change is turned into events once per group of streams that share a shape and
// a revision, however many streams the group holds.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { operationTable } from '../../generated/operations.js';
import { authenticate, authorize } from '../access/auth.js';
import { clientQuery, shapeOf } from './request-shape.js';
import { shapeKey, type Shape } from './body.js';
import type { ServedSnapshots } from './cache.js';
import { deltaEvents, revisionOf, type DeltaEvent } from './delta.js';
import type { Snapshot } from './snapshot.js';
import { DEFAULT_CLIENT_STREAMS_LIMIT, type AuthType } from '../../kernel/config.js';
import { credentialFrom, type TokenLookup } from '../access/tokens.js';
import type { Caller } from '../../shared/caller.js';

/** Well inside the SDK's 60 s read timeout. */
const HEARTBEAT_MS = 30_000;
/** Unsent bytes a stream may hold; a reader further behind is disconnected and resumes (or rehydrates) on reconnect. */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

interface Stream {
  response: ServerResponse;
  socket: Socket;
  /** Whether the body goes out in HTTP/1.1 chunks (not so for an HTTP/1.0 request, whose body ends at the close). */
  chunked: boolean;
  /** Where its flags come from: the one cache of a service, or the upstream scope of an edge. */
  source: ServedSnapshots;
  shape: Shape;
  /** The credential it was opened with: a stream whose token is revoked is ended. */
  credential: string | undefined;
  /** Whether an edge node opened it: edges are told when tokens change, so that they check theirs at once. */
  edge: boolean;
  /** The revision the SDK at the other end holds. */
  revision: number;
}

/** The bytes of one piece of the event stream, as a chunk and as they are, each made once when first needed. */
class Piece {
  private asChunk: Buffer | undefined;
  private plain: Buffer | undefined;
  constructor(private readonly body: string) {}
  bytes(chunked: boolean): Buffer {
    if (!chunked) return (this.plain ??= Buffer.from(this.body));
    return (this.asChunk ??= chunk(this.body));
  }
}

const text = (event: string, revision: number, events: DeltaEvent[]) => `event: ${event}\nid: ${revision}\ndata: ${JSON.stringify({ events })}\n\n`;

/** An HTTP/1.1 chunk of the response body, built once and written as it is to every socket of a group. */
function chunk(body: string): Buffer {
  const data = Buffer.from(body);
  return Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
}

const HEARTBEAT = new Piece(':\n\n');
/** The event an edge's stream gets when API tokens changed upstream. */
export const TOKENS_CHANGED_EVENT = 'edge-tokens-changed';
const TOKENS_CHANGED = new Piece(`event: ${TOKENS_CHANGED_EVENT}\ndata: {}\n\n`);
/** The request header an edge opens its upstream streams with. */
export const EDGE_HEADER = 'unleash-edge-instance';
const POLL_INSTEAD = 'event: fetch-mode\ndata: polling\n\n';
// Node sets `connection` itself: keep-alive for HTTP/1.1, close for an HTTP/1.0 request whose body ends at the close.
const HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

export class ClientStreams {
  private readonly streams = new Set<Stream>();
  /** Streams past the limit check that wait for the flags before they join `streams`. */
  private opening = 0;
  private flushing: Promise<void> | undefined;
  private again = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly log: Logger,
    private readonly maxStreams = DEFAULT_CLIENT_STREAMS_LIMIT,
  ) {
    this.heartbeat = setInterval(() => {
      for (const stream of this.streams) this.send(stream, HEARTBEAT);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.streams.size;
  }

  /** Starts the stream: a hydration, or what changed since `lastEventId` when this instance still knows it. */
  async open(source: ServedSnapshots, opener: Pick<Stream, 'credential' | 'edge'>, response: ServerResponse, shape: Shape, lastEventId: number | undefined): Promise<void> {
    if (this.streams.size + this.opening >= this.maxStreams) {
      response.writeHead(200, HEADERS);
      response.end(POLL_INSTEAD);
      return;
    }
    // The slot is taken before waiting for the flags, so that a burst of streams opening together cannot pass the limit.
    this.opening++;
    let snapshot: Snapshot;
    try {
      snapshot = await source.current();
    } finally {
      this.opening--;
    }
    if (response.destroyed) return;
    // Sent now: later events go straight to the socket, and a resumed stream may have nothing to write yet.
    response.writeHead(200, HEADERS).flushHeaders();
    const events = deltaEvents(snapshot, source.deltas, shape, lastEventId);
    const resumed = lastEventId !== undefined && events[0]?.type !== 'hydration';
    if (!resumed) response.write(text('unleash-connected', snapshot.revision, events));
    else if (events.length > 0) response.write(text('unleash-updated', snapshot.revision, events));
    const stream = { response, socket: response.socket!, chunked: (response as ServerResponse & { chunkedEncoding: boolean }).chunkedEncoding, source, shape, ...opener, revision: snapshot.revision };
    this.streams.add(stream);
    response.on('close', () => this.streams.delete(stream));
  }

  /**
   * Writes a prepared chunk straight to the socket: the response has sent its headers and holds nothing unsent,
   * so the bytes follow what it wrote, and thousands of streams cost one Buffer rather than one each.
   */
  private send(stream: Stream, piece: Piece): void {
    if (stream.socket.writableLength > MAX_UNSENT_BYTES) {
      this.streams.delete(stream);
      stream.socket.destroy();
      return;
    }
    stream.socket.write(piece.bytes(stream.chunked));
  }

  /** After a change: bring every stream up to date (changes during a round make one more round). */
  onChange = (): void => {
    if (this.flushing) {
      this.again = true;
      return;
    }
    this.flushing = this.flush()
      .catch((error) => this.log.warn({ err: error }, 'client streams: could not send a change; the next one will bring it'))
      .finally(() => (this.flushing = undefined));
  };

  private async flush(): Promise<void> {
    do {
      this.again = false;
      if (this.streams.size === 0) return;
      const snapshots = new Map<ServedSnapshots, Snapshot>();
      for (const stream of this.streams) if (!snapshots.has(stream.source)) snapshots.set(stream.source, await stream.source.current());
      const groups = new Map<ServedSnapshots, Map<string, Stream[]>>();
      for (const stream of this.streams) {
        const snapshot = snapshots.get(stream.source);
        if (!snapshot || stream.revision >= snapshot.revision) continue;
        let bySource = groups.get(stream.source);
        if (!bySource) groups.set(stream.source, (bySource = new Map()));
        const key = `${shapeKey(stream.shape)}\u0000${stream.revision}`;
        const group = bySource.get(key);
        if (group) group.push(stream);
        else bySource.set(key, [stream]);
      }
      for (const [source, bySource] of groups) {
        const snapshot = snapshots.get(source)!;
        for (const group of bySource.values()) {
          const events = deltaEvents(snapshot, source.deltas, group[0]!.shape, group[0]!.revision);
          const data = events.length > 0 ? new Piece(text('unleash-updated', snapshot.revision, events)) : undefined;
          for (const stream of group) {
            if (data) this.send(stream, data);
            stream.revision = snapshot.revision;
          }
        }
      }
    } while (this.again);
  }

  /**
   * After API tokens changed: ends the streams whose token is no longer valid (their SDKs reconnect and are refused),
   * and tells edges, so that they check the tokens they serve without waiting for their next round.
   */
  async tokensChanged(isValid: (credential: string) => Promise<boolean>): Promise<void> {
    for (const stream of [...this.streams]) {
      if (stream.credential !== undefined && !(await isValid(stream.credential))) {
        this.streams.delete(stream);
        stream.response.end();
      } else if (stream.edge) this.send(stream, TOKENS_CHANGED);
    }
  }

  /** Asks every SDK to poll instead (the instance is stopping) and ends the streams. */
  close(): void {
    clearInterval(this.heartbeat);
    for (const stream of this.streams) stream.response.end(POLL_INSTEAD);
    this.streams.clear();
  }
}

/** The route; `sourceOf` says where a caller's flags come from. */
export function registerClientStreamingRoute(
  app: FastifyInstance,
  streams: ClientStreams,
  sourceOf: (caller: Caller) => ServedSnapshots,
  tokens: TokenLookup,
  authType: AuthType,
): void {
  const operation = operationTable.getClientStreaming;
  app.get(operation.path, async (request, reply) => {
    const caller = authenticate(request.headers.authorization, tokens, authType);
    request.caller = caller instanceof Promise ? await caller : caller;
    authorize(request.caller, operation.permissions);
    const shape = shapeOf(request.caller, clientQuery(request.query as Record<string, unknown>), false);
    const lastEventId = request.headers['last-event-id'];
    const source = sourceOf(request.caller);
    // Read (or fail, as an Error answer) before the stream starts; once it has, the answer is the stream's.
    await source.current();
    reply.hijack();
    const opener = { credential: credentialFrom(request.headers.authorization), edge: request.headers[EDGE_HEADER] !== undefined };
    await streams.open(source, opener, reply.raw, shape, revisionOf(Array.isArray(lastEventId) ? lastEventId[0] : lastEventId));
  });
}
