// Answers joined from pieces written once (domain/frontend/fragments.ts), where the bytes of one answer are never
// written over: an answer too large to share a buffer, and answers still waiting for a client that does not read
// while many others are joined after them.
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, type components } from '../client/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { newApiToken, ok, until } from './support/fixtures.js';
import { importDocument } from './support/state.js';
import { uniqueNames } from './support/events.js';

type OfrepEvaluation = components['schemas']['OfrepEvaluation'];

const unique = uniqueNames();
/** Enough flags that every OFREP bulk answer is larger than a quarter of a shared buffer of answers. */
const MANY = 600;

let app: TestApp;
let token: string;
const prefix = unique('joined');

const bearer = () => createClient(app.url, { headers: { authorization: `Bearer ${token}` } });

/** A flag on for a share of users, with two variants for those it lets in. */
const flag = (i: number) => ({
  name: `${prefix}-${String(i).padStart(3, '0')}`,
  project: 'default',
  environments: [
    {
      name: 'development',
      enabled: true,
      strategies: [
        {
          name: 'flexibleRollout',
          parameters: { rollout: String(i % 100), stickiness: 'default', groupId: `group-${i}` },
          variants: [
            { name: 'control', weight: 500, weightType: 'variable', stickiness: 'default' },
            { name: 'treatment', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: `{"flag":${i}}` } },
          ],
        },
      ],
    },
  ],
});

async function bulk(targetingKey: string): Promise<OfrepEvaluation[]> {
  const { data, response } = await bearer().POST('/ofrep/v1/evaluate/flags', { body: { context: { targetingKey } } });
  expect(response.status).toBe(200);
  return data!.flags;
}

async function single(key: string, targetingKey: string): Promise<OfrepEvaluation> {
  const { data, response } = await bearer().POST('/ofrep/v1/evaluate/flags/{key}', { params: { path: { key } }, body: { context: { targetingKey } } });
  expect(response.status).toBe(200);
  return data!;
}

beforeAll(async () => {
  app = await startTestApp();
  token = await newApiToken(app, { type: 'frontend', environment: 'development' });
  await ok(importDocument(app, { version: 2, features: Array.from({ length: MANY }, (_, i) => flag(i)) } as never), 202);
  await until('the imported flags to be served', () => bulk('anyone'), (flags) => flags.filter((answer) => answer.key.startsWith(prefix)).length === MANY, 20_000);
}, 60_000);

describe('an answer larger than the shared room for answers', () => {
  it('lists every flag as the one-flag operation answers it', async () => {
    const flags = (await bulk('user-7')).filter((answer) => answer.key.startsWith(prefix));
    expect(flags).toHaveLength(MANY);
    const sample = flags.filter((_, i) => i % 37 === 0);
    expect(await Promise.all(sample.map((answer) => single(answer.key, 'user-7')))).toEqual(sample);
  });
});

/** Sends the requests on one connection at once and reads nothing until `release` resolves; answers the bodies. */
function pipelinedUnread(requests: string[], release: Promise<void>): Promise<string[]> {
  const url = new URL(app.url);
  const socket = connect(Number(url.port), url.hostname);
  socket.pause();
  socket.write(requests.join(''));
  void release.then(() => socket.resume());
  const bodies: string[] = [];
  // The bytes of the response being read; complete ones are taken off the front as they arrive.
  let unread = Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      unread = Buffer.concat([unread, chunk]);
      for (;;) {
        const headEnd = unread.indexOf('\r\n\r\n');
        if (headEnd < 0) break;
        const length = Number(/content-length: (\d+)/i.exec(unread.subarray(0, headEnd).toString('latin1'))?.[1]);
        if (headEnd + 4 + length > unread.length) break;
        bodies.push(unread.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8'));
        unread = unread.subarray(headEnd + 4 + length);
      }
      if (bodies.length < requests.length) return;
      socket.destroy();
      resolve(bodies);
    });
  });
}

const frontend = async (userId: string) => {
  const response = await fetch(`${app.url}/api/frontend?userId=${userId}`, { headers: { authorization: token } });
  expect(response.status).toBe(200);
  return response.text();
};

describe('answers waiting for a client that does not read', () => {
  it('reach it unchanged after later answers were joined', async () => {
    const users = Array.from({ length: 300 }, (_, i) => `slow-${i}`);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Frontend answers of ~300 flags each: 300 asked and left unread (more than the kernel buffers, so the last ones wait
    // in the service), then 40 asked by others, which fill the room for answers several times over.
    const host = new URL(app.url).host;
    const bodies = pipelinedUnread(
      users.map((user) => `GET /api/frontend?userId=${user} HTTP/1.1\r\nhost: ${host}\r\nauthorization: ${token}\r\n\r\n`),
      released,
    );
    for (let i = 0; i < 4; i++) await Promise.all(Array.from({ length: 10 }, (_, j) => frontend(`other-${i}-${j}`)));
    release();
    const received = await bodies;
    const expected: string[] = [];
    for (const user of users) expected.push(await frontend(user));
    expect(received.length).toBe(users.length);
    // Compared as text: equal bytes, and a first difference that names its user.
    for (const [i, body] of received.entries()) expect(body, users[i]).toBe(expected[i]);
  }, 60_000);
});
