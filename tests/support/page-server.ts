// A page served from another origin than the service's, for browser tests of SDKs: the page and the scripts it loads,
// from http://localhost:<port> (the service listens on 127.0.0.1, so the browser sees two origins). Closed after the file.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterFile } from './file-end.js';

/** Serves `files` (path → body) as they are; `/` as HTML, any other path as JavaScript. Answers the page's origin. */
export async function servePage(files: Record<string, string | Buffer>): Promise<string> {
  const server: Server = createServer((request, response) => {
    const body = Object.hasOwn(files, request.url ?? '') ? files[request.url!] : undefined;
    if (body === undefined) return response.writeHead(404).end();
    const type = request.url === '/' ? 'text/html; charset=utf-8' : 'text/javascript';
    response.writeHead(200, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterFile(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return `http://localhost:${(server.address() as AddressInfo).port}`;
}
