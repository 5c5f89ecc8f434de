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
  let received = Buffer.alloc(0);
  void release.then(() => socket.resume());
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const bodies = bodiesOf(received);
      if (bodies.length < requests.length) return;
      socket.destroy();
      resolve(bodies);
    });
  });
}

/** The bodies of HTTP/1.1 responses read back to back, each with a content-length. */
function bodiesOf(raw: Buffer): string[] {
  const bodies: string[] = [];
  let at = 0;
  while (at < raw.length) {
    const headEnd = raw.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const length = Number(/content-length: (\d+)/i.exec(raw.subarray(at, headEnd).toString('latin1'))?.[1]);
    if (headEnd + 4 + length > raw.length) break;
    bodies.push(raw.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8'));
    at = headEnd + 4 + length;
  }
  return bodies;
}

const frontend = async (userId: string) => {
  const response = await fetch(`${app.url}/api/frontend?userId=${userId}`, { headers: { authorization: token } });
  expect(response.status).toBe(200);
  return (await response.json()) as unknown;
};

describe('answers waiting for a client that does not read', () => {
  it('reach it unchanged after many later answers were joined', async () => {
    const users = Array.from({ length: 300 }, (_, i) => `slow-${i}`);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Frontend answers of ~300 flags share the buffer of answers: 300 asked and unread, 200 asked by others meanwhile.
    const host = new URL(app.url).host;
    const raw = pipelinedUnread(
      users.map((user) => `GET /api/frontend?userId=${user} HTTP/1.1\r\nhost: ${host}\r\nauthorization: ${token}\r\n\r\n`),
      released,
    );
    for (let i = 0; i < 20; i++) await Promise.all(Array.from({ length: 10 }, (_, j) => frontend(`other-${i}-${j}`)));
    release();
    const bodies = (await raw).map((body) => JSON.parse(body) as unknown);
    expect(bodies).toHaveLength(users.length);
    const expected = [];
    for (const user of users) expected.push(await frontend(user));
    expect(bodies).toEqual(expected);
  }, 60_000);
});
