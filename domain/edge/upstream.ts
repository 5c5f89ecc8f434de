// The edge's calls to its upstream (this service, another edge, or Unleash): token checks, the flags of a token (polled
// or streamed), and the batches of SDK reports.
import { Agent, request } from 'undici';
import { createParser } from 'eventsource-parser';
import type { components } from '../../generated/api.js';
import { EDGE_HEADER, TOKENS_CHANGED_EVENT } from '../client-features/stream.js';
import type { ClientDeltaEvent, ClientFeatures } from './scope.js';

export type EdgeToken = components['schemas']['EdgeToken'];
export type BulkMetrics = components['schemas']['BulkMetrics'];

/** The client specification the edge asks in: segments apart, as current SDKs get them. */
const CLIENT_SPEC = '5.2.0';
/** Our upstream sends a heartbeat every 30 s; a stream silent for longer than this is taken as dead. */
const STREAM_SILENCE_MS = 65_000;
const CALL_TIMEOUT_MS = 10_000;

export type Polled = { status: 'changed'; body: ClientFeatures; etag: string | undefined } | { status: 'unchanged' } | { status: 'refused' };

/** How a stream ended: `unsupported` (the upstream has no streaming), `refused` (the token is not valid there), `poll` (asked to poll), `ended`. */
export type StreamEnd = 'unsupported' | 'refused' | 'poll' | 'ended';

export interface StreamHandlers {
  /** A message's events, in order. */
  events(events: ClientDeltaEvent[]): void;
  /** The stream opened, or bytes arrived on it: the upstream is there. */
  alive(): void;
  /** The upstream says API tokens changed. */
  tokensChanged(): void;
}

const readJson = async <T>(body: { json(): Promise<unknown> }) => (await body.json()) as T;

export class Upstream {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  private readonly headers: Record<string, string>;

  constructor(
    readonly url: string,
    instanceId: string,
  ) {
    this.headers = { 'unleash-appname': 'flag-service-edge', 'unleash-instanceid': instanceId, 'unleash-sdk': 'flag-service-edge:1', [EDGE_HEADER]: instanceId };
  }

  /** The tokens among `secrets` the upstream says an edge may serve; throws when it cannot be asked. */
  async validate(secrets: string[]): Promise<EdgeToken[]> {
    const { statusCode, body } = await request(`${this.url}/edge/validate`, {
      method: 'POST',
      dispatcher: this.agent,
      headers: { ...this.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ tokens: secrets }),
      headersTimeout: CALL_TIMEOUT_MS,
      bodyTimeout: CALL_TIMEOUT_MS,
    });
    if (statusCode !== 200) {
      await body.dump();
      throw new Error(`the upstream answered ${statusCode} to POST /edge/validate`);
    }
    const answer = await readJson<{ tokens: (Omit<EdgeToken, 'type'> & { type: string })[] }>(body);
    // Unleash calls client tokens `backend` too; admin tokens are never served.
    return answer.tokens.flatMap((t) => {
      const type = t.type === 'backend' ? 'client' : t.type;
      return type === 'client' || type === 'frontend' ? [{ ...t, type }] : [];
    });
  }

  /** The flags of a client token, unless the upstream still holds `etag`; throws when the upstream cannot be reached. */
  async features(token: string, etag: string | undefined, query = ''): Promise<Polled> {
    const { statusCode, headers, body } = await request(`${this.url}/api/client/features${query}`, {
      dispatcher: this.agent,
      headers: { ...this.headers, authorization: token, 'unleash-client-spec': CLIENT_SPEC, 'accept-encoding': 'identity', ...(etag && { 'if-none-match': etag }) },
      headersTimeout: CALL_TIMEOUT_MS,
      bodyTimeout: CALL_TIMEOUT_MS,
    });
    if (statusCode === 304) {
      await body.dump();
      return { status: 'unchanged' };
    }
    if (statusCode === 401 || statusCode === 403) {
      await body.dump();
      return { status: 'refused' };
    }
    if (statusCode !== 200) {
      await body.dump();
      throw new Error(`the upstream answered ${statusCode} to GET /api/client/features`);
    }
    const tag = headers.etag;
    return { status: 'changed', body: await readJson<ClientFeatures>(body), etag: Array.isArray(tag) ? tag[0] : tag };
  }

  /**
   * Follows the upstream's stream for a client token until it ends; resolves how it ended, throws when the upstream
   * cannot be reached or the connection breaks.
   */
  async stream(token: string, lastEventId: number | undefined, handlers: StreamHandlers, signal: AbortSignal): Promise<StreamEnd> {
    const { statusCode, headers, body } = await request(`${this.url}/api/client/streaming`, {
      dispatcher: this.agent,
      signal,
      headers: {
        ...this.headers,
        authorization: token,
        accept: 'text/event-stream',
        'unleash-client-spec': CLIENT_SPEC,
        ...(lastEventId !== undefined && { 'last-event-id': String(lastEventId) }),
      },
      headersTimeout: CALL_TIMEOUT_MS,
      bodyTimeout: STREAM_SILENCE_MS,
    });
    if (statusCode === 401 || statusCode === 403) {
      await body.dump();
      return 'refused';
    }
    if (statusCode !== 200 || !String(headers['content-type'] ?? '').startsWith('text/event-stream')) {
      await body.dump();
      return 'unsupported';
    }
    handlers.alive();
    let end: StreamEnd = 'ended';
    const parser = createParser({
      onEvent: (message) => {
        if (message.event === 'unleash-connected' || message.event === 'unleash-updated') {
          handlers.events((JSON.parse(message.data) as { events: ClientDeltaEvent[] }).events);
        } else if (message.event === 'fetch-mode') {
          end = 'poll';
        } else if (message.event === TOKENS_CHANGED_EVENT) {
          handlers.tokensChanged();
        }
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of body) {
      handlers.alive();
      parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
    }
    return end;
  }

  /** Sends a batch of SDK reports with a client token of their environment; true when the upstream took it. */
  async sendReports(token: string, batch: BulkMetrics): Promise<boolean> {
    const { statusCode, body } = await request(`${this.url}/api/client/metrics/bulk`, {
      method: 'POST',
      dispatcher: this.agent,
      headers: { ...this.headers, authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify(batch),
      headersTimeout: CALL_TIMEOUT_MS,
      bodyTimeout: CALL_TIMEOUT_MS,
    });
    await body.dump();
    return statusCode >= 200 && statusCode < 300;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
