// A real HTTP receiver for integration tests: it records every request and answers as the test scripts it.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterFile } from './file-end.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

/** How to answer one request: a status (with headers and body), or `hang` to never answer. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; after them, `otherwise`. */
  answers: Answer[];
  otherwise: Answer;
  close(): Promise<void>;
}

/** Starts a receiver on a free port; closed after the file. */
export async function startReceiver(otherwise: Answer = { status: 200 }): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = { url: '', received: [], answers: [], otherwise, close: async () => {} };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      receiver.received.push({ path: request.url ?? '/', headers: request.headers, body, json });
      const answer = receiver.answers.shift() ?? receiver.otherwise;
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer.status, answer.headers).end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed = false;
  receiver.close = async () => {
    if (closed) return;
    closed = true;
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  afterFile(receiver.close);
  return receiver;
}
