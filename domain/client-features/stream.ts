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
import type { ClientFeatureCache } from './cache.js';
import { deltaEvents, revisionOf, type DeltaEvent } from './delta.js';
import type { Snapshot } from './snapshot.js';
import { DEFAULT_CLIENT_STREAMS_LIMIT, type AuthType } from '../../kernel/config.js';
import type { TokenCache } from '../access/token-cache.js';

/** Well inside the SDK's 60 s read timeout. */
const HEARTBEAT_MS = 30_000;
/** Unsent bytes a stream may hold; a reader further behind is disconnected and resumes (or rehydrates) on reconnect. */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

interface Stream {
  response: ServerResponse;
  socket: Socket;
  /** Whether the body goes out in HTTP/1.1 chunks (not so for an HTTP/1.0 request, whose body ends at the close). */
  chunked: boolean;
  shape: Shape;
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
    private readonly cache: ClientFeatureCache,
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
  async open(response: ServerResponse, shape: Shape, lastEventId: number | undefined): Promise<void> {
    if (this.streams.size + this.opening >= this.maxStreams) {
      response.writeHead(200, HEADERS);
      response.end(POLL_INSTEAD);
      return;
    }
    // The slot is taken before waiting for the flags, so that a burst of streams opening together cannot pass the limit.
    this.opening++;
    let snapshot: Snapshot;
    try {
      snapshot = await this.cache.current();
    } finally {
      this.opening--;
    }
    if (response.destroyed) return;
    // Sent now: later events go straight to the socket, and a resumed stream may have nothing to write yet.
    response.writeHead(200, HEADERS).flushHeaders();
    const events = deltaEvents(snapshot, this.cache.deltas, shape, lastEventId);
    const resumed = lastEventId !== undefined && events[0]?.type !== 'hydration';
    if (!resumed) response.write(text('unleash-connected', snapshot.revision, events));
    else if (events.length > 0) response.write(text('unleash-updated', snapshot.revision, events));
    const stream = { response, socket: response.socket!, chunked: (response as ServerResponse & { chunkedEncoding: boolean }).chunkedEncoding, shape, revision: snapshot.revision };
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
      const snapshot = await this.cache.current();
      const groups = new Map<string, Stream[]>();
      for (const stream of this.streams) {
        if (stream.revision >= snapshot.revision) continue;
        const key = `${shapeKey(stream.shape)}\u0000${stream.revision}`;
        const group = groups.get(key);
        if (group) group.push(stream);
        else groups.set(key, [stream]);
      }
      for (const group of groups.values()) {
        const events = deltaEvents(snapshot, this.cache.deltas, group[0]!.shape, group[0]!.revision);
        const data = events.length > 0 ? new Piece(text('unleash-updated', snapshot.revision, events)) : undefined;
        for (const stream of group) {
          if (data) this.send(stream, data);
          stream.revision = snapshot.revision;
        }
      }
    } while (this.again);
  }

  /** Asks every SDK to poll instead (the instance is stopping) and ends the streams. */
  close(): void {
    clearInterval(this.heartbeat);
    for (const stream of this.streams) stream.response.end(POLL_INSTEAD);
    this.streams.clear();
  }
}

export function registerClientStreamingRoute(app: FastifyInstance, streams: ClientStreams, cache: ClientFeatureCache, tokens: TokenCache, authType: AuthType): void {
  const operation = operationTable.getClientStreaming;
  app.get(operation.path, async (request, reply) => {
    const caller = authenticate(request.headers.authorization, tokens, authType);
    request.caller = caller instanceof Promise ? await caller : caller;
    authorize(request.caller, operation.permissions);
    const shape = shapeOf(request.caller, clientQuery(request.query as Record<string, unknown>), false);
    const lastEventId = request.headers['last-event-id'];
    // Read (or fail, as an Error answer) before the stream starts; once it has, the answer is the stream's.
    await cache.current();
    reply.hijack();
    await streams.open(reply.raw, shape, revisionOf(Array.isArray(lastEventId) ? lastEventId[0] : lastEventId));
  });
}
