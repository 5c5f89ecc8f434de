// Requests that fastify or Node's HTTP parser refuse before any route runs still get `{id, name, message}`.
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` as raw bytes and reads the whole answer until the server closes or the length is reached. */
function rawExchange(request: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const finish = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no answer: ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4) });
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split))?.[1];
      if (split >= 0 && length !== undefined && Buffer.byteLength(text.slice(split + 4)) >= Number(length)) {
        socket.destroy();
        finish();
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      if (chunks.length > 0) finish();
      else reject(new Error('closed without an answer'));
    });
    socket.write(request);
  });
}

/** Every answer with a body is the contract's Error, JSON, with a content-length matching it. */
function expectErrorShape(answer: RawAnswer, status: number, name: string) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  const body = JSON.parse(answer.body);
  expect(body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name, message: expect.any(String) });
  expect(body.message.length).toBeGreaterThan(0);
}

const requestText = (target: string, headerLines: string[] = []) =>
  `GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${app.adminToken}\r\n${headerLines.map((line) => `${line}\r\n`).join('')}Connection: close\r\n\r\n`;

describe('requests refused before any route runs', () => {
  it('answers too many query parameters (a request line beyond the header limit) with 431 as an Error', async () => {
    const query = Array.from({ length: 3000 }, (_, i) => `p${i}=${i}`).join('&');
    expectErrorShape(await rawExchange(requestText(`/api/admin/tag-types?${query}`)), 431, 'RequestHeaderFieldsTooLargeError');
  });

  it('answers 1,500 headers beyond the size limit with 431 as an Error', async () => {
    const headers = Array.from({ length: 1500 }, (_, i) => `x-header-${i}: value-${i}`);
    expectErrorShape(await rawExchange(requestText('/api/admin/tag-types', headers)), 431, 'RequestHeaderFieldsTooLargeError');
  });

  it('answers 1,500 short headers within the size limit as any request', async () => {
    const headers = Array.from({ length: 1500 }, (_, i) => `x${i}: ${i % 10}`);
    const answer = await rawExchange(requestText('/api/admin/tag-types', headers));
    expect(answer.status, answer.body).toBe(200);
  });

  it('answers an invalid header with 400 as an Error', async () => {
    expectErrorShape(await rawExchange(requestText('/api/admin/tag-types', ['bad header name: x'])), 400, 'ValidationError');
  });

  it('answers one header too large with 431 as an Error', async () => {
    expectErrorShape(await rawExchange(requestText('/api/admin/tag-types', [`x-big: ${'a'.repeat(20_000)}`])), 431, 'RequestHeaderFieldsTooLargeError');
  });

  it('answers a JSON body over the size limit with 413 as an Error, and creates nothing', async () => {
    const response = await app.admin.POST('/api/admin/tag-types', { body: { name: 'too-large', description: 'x'.repeat(2 * 1024 * 1024) } });
    expectError(response, 413, 'PayloadTooLargeError');
    expect((await app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'too-large' } } })).response.status).toBe(404);
  });

  it('answers a malformed request line with 400 as an Error', async () => {
    expectErrorShape(await rawExchange('GARBAGE\r\n\r\n'), 400, 'ValidationError');
    expectErrorShape(await rawExchange('GET /api/admin/tag-types HTTP/9.9\r\nHost: x\r\n\r\n'), 400, 'ValidationError');
  });

  it('still answers ordinary requests after those', async () => {
    expect((await app.admin.GET('/api/admin/tag-types')).response.status).toBe(200);
  });
});

describe('a path parameter longer than the router reads by default', () => {
  it('answers a path parameter of 2,000 characters by validation: 400 naming it, 401 without credentials', async () => {
    const long = 'x'.repeat(2000);
    const tagsOf = (client = app.admin) => client.GET('/api/admin/tags/{type}', { params: { path: { type: long } } });
    expect(expectError(await tagsOf(), 400, 'ValidationError').message).toContain('params.type');
    expectError(await tagsOf(app.clientWith()), 401, 'AuthenticationRequired');
    const created = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: long } }, body: { name: 'x1' } });
    expect(expectError(created, 400, 'ValidationError').message).toContain('params.projectId');
  });
});
