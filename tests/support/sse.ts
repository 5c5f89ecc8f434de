// Server-sent event streams read off the wire, as an SDK's streaming mode reads them: through node:http (which takes
// HTTP/1.1's chunk framing off), or straight off a socket for what node:http cannot send (an HTTP/1.0 request).
import http, { type IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { until } from './fixtures.js';

export interface SseEvent {
  /** The `event:` field; `message` when absent. */
  event: string;
  id: string | undefined;
  /** The `data:` lines, joined by newlines. */
  data: string;
}

/** How long an event may take to arrive before the wait fails, naming what it waited for. */
const WAIT_MS = 10_000;

/** One stream's status, headers and events, with what an SSE reader would find wrong in it. */
export class EventStream {
  status: number | undefined;
  headers: IncomingHttpHeaders = {};
  /** The body as it arrived: after HTTP/1.1's chunk framing was taken off (node:http), or exactly the bytes (raw). */
  body = '';
  readonly events: SseEvent[] = [];
  /** Lines that are neither a field (`event`, `id`, `data`, `retry`) nor a comment: a chunk size written into the text. */
  readonly foreign: string[] = [];
  /** Comment lines (`:`, the heartbeat). */
  comments = 0;
  /** The server ended the body (HTTP/1.1: the last chunk arrived; HTTP/1.0: the server closed the connection). */
  ended = false;
  error: Error | undefined;
  private unparsed = '';
  private fields: { event?: string; id?: string; data?: string[] } = {};
  private taken = 0;
  /** Ends the stream from this side. */
  close: () => void = () => {};

  constructor(private readonly what: string) {}

  feed(text: string): void {
    this.body += text;
    this.unparsed += text;
    for (;;) {
      const match = /\r\n|\r(?!$)|\n/.exec(this.unparsed);
      if (!match) return;
      this.line(this.unparsed.slice(0, match.index));
      this.unparsed = this.unparsed.slice(match.index + match[0].length);
    }
  }

  private line(line: string): void {
    if (line === '') {
      const { event, id, data } = this.fields;
      if (data !== undefined) this.events.push({ event: event ?? 'message', id, data: data.join('\n') });
      this.fields = {};
      return;
    }
    if (line.startsWith(':')) {
      this.comments++;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.fields.event = value;
    else if (field === 'id') this.fields.id = value;
    else if (field === 'data') (this.fields.data ??= []).push(value);
    else if (field !== 'retry') this.foreign.push(line);
  }

  /** The event after the last one taken, waiting for it; fails if the stream ends or breaks first. */
  async next(): Promise<SseEvent> {
    const index = this.taken;
    await until(`event ${index + 1} of ${this.what}`, async () => ({ events: this.events.length, ended: this.ended, error: this.error?.message }), (s) => s.events > index || s.ended || s.error !== undefined, WAIT_MS);
    const event = this.events[index];
    if (!event) throw new Error(`${this.what} ${this.error ? `broke (${this.error.message})` : 'ended'} after ${index} events; body: ${JSON.stringify(this.body)}`);
    this.taken++;
    return event;
  }

  /** Waits for the server to end the body. */
  async end(): Promise<void> {
    await until(`the end of ${this.what}`, async () => ({ ended: this.ended, error: this.error?.message }), (s) => s.ended || s.error !== undefined, WAIT_MS);
    if (!this.ended) throw new Error(`${this.what} broke instead of ending: ${this.error!.message}`);
  }
}

/** The `{events}` an SSE event's data carries, parsed. */
export const eventsOf = (event: SseEvent): any[] => (JSON.parse(event.data) as { events: any[] }).events;

/** GET `url` through node:http on a connection of its own; answers once the status and headers arrived. */
export async function openStream(url: string, headers: Record<string, string>): Promise<EventStream> {
  const stream = new EventStream(`GET ${new URL(url).pathname}`);
  let closing = false;
  const request = http.get(url, { agent: false, headers }, (response) => {
    stream.status = response.statusCode;
    stream.headers = response.headers;
    response.setEncoding('utf8');
    response.on('data', (text: string) => stream.feed(text));
    response.on('end', () => (stream.ended = true));
    response.on('error', (error) => {
      if (!closing) stream.error = error;
    });
  });
  request.on('error', (error) => {
    if (!closing) stream.error = error;
  });
  stream.close = () => {
    closing = true;
    request.destroy();
  };
  try {
    await until('the status and headers of the stream', async () => ({ status: stream.status, error: stream.error?.message }), (s) => s.status !== undefined || s.error !== undefined, WAIT_MS);
  } catch (error) {
    stream.close();
    throw error;
  }
  if (stream.error) throw stream.error;
  return stream;
}

/**
 * Sends `requestText` (the request line and headers, CRLF-separated, without the blank line) as it is over TCP and
 * reads the answer's bytes without an HTTP parser: for requests node:http does not send, such as HTTP/1.0.
 */
export async function openRawStream(url: string, requestText: string): Promise<EventStream & { head: string }> {
  const { hostname, port } = new URL(url);
  const stream = Object.assign(new EventStream(requestText.split('\r\n')[0]!), { head: '' });
  const socket = net.connect(Number(port), hostname);
  const decoder = new StringDecoder('utf8');
  let closing = false;
  let received = '';
  socket.on('data', (bytes) => {
    if (stream.status !== undefined) return stream.feed(decoder.write(bytes));
    received += decoder.write(bytes);
    const blank = received.indexOf('\r\n\r\n');
    if (blank === -1) return;
    stream.head = received.slice(0, blank);
    const [statusLine, ...headerLines] = stream.head.split('\r\n');
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      stream.headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    stream.status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
    stream.feed(received.slice(blank + 4));
  });
  socket.on('end', () => (stream.ended = true));
  socket.on('error', (error) => {
    if (!closing) stream.error = error;
  });
  stream.close = () => {
    closing = true;
    socket.destroy();
  };
  socket.write(`${requestText}\r\n\r\n`);
  try {
    await until('the status line and headers of the stream', async () => ({ status: stream.status, error: stream.error?.message }), (s) => s.status !== undefined || s.error !== undefined, WAIT_MS);
  } catch (error) {
    stream.close();
    throw error;
  }
  if (stream.error) throw stream.error;
  return stream;
}
