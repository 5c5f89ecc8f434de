// An edge node when its upstream goes away and comes back, when it restarts without its upstream, and when the upstream
// revokes a token: it keeps answering from what it holds, says it is stale, loses no SDK report, and stops revoked tokens.
import { mkdtemp } from 'node:fs/promises';
import { createServer, request as forwardTo } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { startEdge, type TestEdge } from './support/edge.js';
import { uniqueNames } from './support/events.js';
import { afterFile } from './support/file-end.js';
import { fixtures, newApiToken, ok, sdkMetrics, until } from './support/fixtures.js';
import { startProxy, type Proxy } from './support/proxy.js';

/** An address nothing listens on: the upstream, stopped. */
const NOWHERE = 'http://127.0.0.1:9';

const get = async (base: string, path: string, token?: string) => {
  const response = await request(`${base}${path}`, { headers: token ? { authorization: token } : {} });
  const text = await response.body.text();
  return { status: response.statusCode, text, json: text ? JSON.parse(text) : undefined };
};
const flagNames = (body: { features: { name: string }[] }) => body.features.map((f) => f.name);

describe('an edge whose upstream stops', () => {
  let app: TestApp;
  let proxy: Proxy;
  let edge: TestEdge;
  let token: string;
  let cacheDir: string;
  const { createFlag, turnOn, usageOf } = fixtures(() => app, uniqueNames());

  beforeAll(async () => {
    app = await startTestApp();
    await createFlag('default', 'away.kept');
    await turnOn('away.kept');
    token = await newApiToken(app, { type: 'client', environment: 'development' });
    proxy = await startProxy(app.url);
    cacheDir = await mkdtemp(path.join(tmpdir(), 'edge-cache-'));
    edge = await startEdge({ EDGE_UPSTREAM_URL: proxy.url, EDGE_TOKENS: token, EDGE_CACHE_DIR: cacheDir });
    await until('the edge ready', () => get(edge.url, '/ready'), (r) => r.status === 200);
  });

  const stopUpstream = () => {
    proxy.target = NOWHERE;
    proxy.cut();
  };
  const restartUpstream = () => {
    proxy.target = app.url;
  };

  it('keeps answering the client API with the flags it held', async () => {
    const before = await get(edge.url, '/api/client/features', token);
    stopUpstream();
    try {
      const during = await get(edge.url, '/api/client/features', token);
      expect(during.status).toBe(200);
      expect(during.json).toEqual(before.json);
    } finally {
      restartUpstream();
    }
  });

  it('says it is stale in /ready while the upstream is away, and ready again once it returns', async () => {
    stopUpstream();
    try {
      const stale = await until('/ready stale', () => get(edge.url, '/ready'), (r) => r.status === 503, 15_000);
      expect(stale.json.name).toBe('ServiceUnavailableError');
      expect(stale.json.message).toMatch(/^Stale: /);
    } finally {
      restartUpstream();
    }
    await until('/ready again', () => get(edge.url, '/ready'), (r) => r.status === 200, 15_000);
  });

  it('keeps the SDK reports it took while the upstream was away and delivers them, counted once, after it returns', async () => {
    stopUpstream();
    try {
      const report = await request(`${edge.url}/api/client/metrics`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify(sdkMetrics('edge-away', 'i-1', new Date().toISOString(), { 'away.kept': { yes: 7, no: 2, variants: {} } })),
      });
      await report.body.dump();
      expect(report.statusCode).toBe(202);
      // Several forwarding rounds fail meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await usageOf('away.kept')).metrics).toEqual([]);
    } finally {
      restartUpstream();
    }
    const usage = await until('the counts upstream', () => usageOf('away.kept'), (u) => u.metrics.length > 0, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await usageOf('away.kept')).metrics.map(({ appName, yes, no }) => ({ appName, yes, no }))).toEqual([{ appName: 'edge-away', yes: 7, no: 2 }]);
    expect(usage.metrics).toHaveLength(1);
  });

  it('answers 503, not 401, to a token it has never seen while the upstream cannot check it', async () => {
    const unseen = await newApiToken(app, { type: 'client', environment: 'development' });
    stopUpstream();
    try {
      const answer = await get(edge.url, '/api/client/features', unseen);
      expect(answer.status).toBe(503);
      expect(answer.json.name).toBe('ServiceUnavailableError');
    } finally {
      restartUpstream();
    }
    expect((await get(edge.url, '/api/client/features', unseen)).status).toBe(200);
  });

  it('restarted while the upstream is away, serves the flags kept in its cache folder and says so', async () => {
    const before = await get(edge.url, '/api/client/features', token);
    await edge.close();
    stopUpstream();
    try {
      const restarted = await startEdge({ EDGE_UPSTREAM_URL: proxy.url, EDGE_TOKENS: token, EDGE_CACHE_DIR: cacheDir });
      const served = await get(restarted.url, '/api/client/features', token);
      expect(served.status).toBe(200);
      expect(flagNames(served.json)).toEqual(flagNames(before.json));
      expect(served.json).toEqual(before.json);
      const ready = await get(restarted.url, '/ready');
      expect(ready.status).toBe(503);
      expect(ready.json.message).toContain('from cache');
      expect(restarted.logs.join('\n')).toContain('serving the state kept in EDGE_CACHE_DIR');
    } finally {
      restartUpstream();
    }
  });
});

/**
 * An HTTP forwarder to `target` that, once `newcomer` is set, holds the token checks (POST /edge/validate) that do not
 * name it until the one that does has been answered: a round of checks of the tokens the edge knew, under way while it
 * learns a new one.
 */
async function startUpstreamHoldingChecks(target: string) {
  const gate = { newcomer: '', held: [] as (() => void)[], heldAnswered: 0 };
  const forward = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, body: Buffer) =>
    forwardTo(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    }).end(body);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (gate.newcomer && req.method === 'POST' && req.url === '/edge/validate') {
      if (!(JSON.parse(body.toString()) as { tokens: string[] }).tokens.includes(gate.newcomer)) {
        gate.held.push(() => {
          res.on('finish', () => gate.heldAnswered++);
          forward(req, res, body);
        });
        return;
      }
      res.on('finish', () => {
        for (const go of gate.held.splice(0)) go();
      });
    }
    forward(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterFile(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, gate };
}

describe('tokens at an edge', () => {
  let app: TestApp;
  const { newFlag, turnOn } = fixtures(() => app, uniqueNames());

  beforeAll(async () => {
    app = await startTestApp();
  });

  const revoke = (secret: string) => ok(app.admin.DELETE('/api/admin/api-tokens/{token}', { params: { path: { token: secret } } }));
  const enabledAt = async (edge: TestEdge, token: string, flag: string) =>
    (await get(edge.url, '/api/client/features', token)).json?.features?.find((f: { name: string }) => f.name === flag)?.enabled;

  it('refuses a token the upstream does not know, as an Error object', async () => {
    const edge = await startEdge({ EDGE_UPSTREAM_URL: app.url });
    const answer = await get(edge.url, '/api/client/features', 'default:development.nobody-issued-this');
    expect(answer.status).toBe(401);
    expect(answer.json.name).toBe('AuthenticationRequired');
  });

  it('keeps serving a token learned at its first use while a check of the tokens it knew before was under way', async () => {
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    const newcomer = await newApiToken(app, { type: 'client', environment: 'development' });
    const upstream = await startUpstreamHoldingChecks(app.url);
    const edge = await startEdge({ EDGE_UPSTREAM_URL: upstream.url, EDGE_TOKENS: token, EDGE_SYNC: 'polling', EDGE_TOKEN_REVALIDATE_MS: '300' });
    upstream.gate.newcomer = newcomer;
    try {
      await until('a check of the known tokens under way', async () => upstream.gate.held.length, (held) => held > 0);
      expect((await get(edge.url, '/api/client/features', newcomer)).status).toBe(200);
      await until('that check answered', async () => upstream.gate.heldAnswered, (answered) => answered > 0);
      expect((await get(edge.url, '/api/client/features', newcomer)).status).toBe(200);
    } finally {
      upstream.gate.newcomer = '';
      for (const go of upstream.gate.held.splice(0)) go();
    }
  });

  it('stops a token revoked upstream at once when the edge follows the upstream by stream', async () => {
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    const edge = await startEdge({ EDGE_UPSTREAM_URL: app.url, EDGE_TOKENS: token, EDGE_TOKEN_REVALIDATE_MS: '600000' });
    expect((await get(edge.url, '/api/client/features', token)).status).toBe(200);
    await revoke(token);
    await until('the token refused at the edge', () => get(edge.url, '/api/client/features', token), (r) => r.status === 401, 3000);
  });

  it('stops a revoked frontend token at once too: the upstream tells the edge that tokens changed', async () => {
    const client = await newApiToken(app, { type: 'client', environment: 'development' });
    const frontend = await newApiToken(app, { type: 'frontend', environment: 'development' });
    const edge = await startEdge({ EDGE_UPSTREAM_URL: app.url, EDGE_TOKENS: `${client},${frontend}`, EDGE_TOKEN_REVALIDATE_MS: '600000' });
    expect((await get(edge.url, '/api/frontend', frontend)).status).toBe(200);
    await revoke(frontend);
    await until('the frontend token refused at the edge', () => get(edge.url, '/api/frontend', frontend), (r) => r.status === 401, 3000);
  });

  it('stops a token revoked upstream within its check interval when the edge polls', async () => {
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    const edge = await startEdge({ EDGE_UPSTREAM_URL: app.url, EDGE_TOKENS: token, EDGE_SYNC: 'polling', EDGE_POLL_INTERVAL_MS: '600000', EDGE_TOKEN_REVALIDATE_MS: '1000' });
    expect((await get(edge.url, '/api/client/features', token)).status).toBe(200);
    await revoke(token);
    await until('the token refused at the edge', () => get(edge.url, '/api/client/features', token), (r) => r.status === 401, 5000);
  });

  // The edge keeps a scope in sync with the first of its client tokens it learned (the first in EDGE_TOKENS); the check
  // interval is long, so that the edge learns of the revocation from its own stream or poll being refused.
  it.each(['streaming', 'polling'])(
    'keeps a scope in sync (%s) with another client token of that scope once the token it synced with is revoked upstream',
    async (sync) => {
      const flag = await newFlag('other-token');
      const first = await newApiToken(app, { type: 'client', environment: 'development' });
      const second = await newApiToken(app, { type: 'client', environment: 'development' });
      const edge = await startEdge({ EDGE_UPSTREAM_URL: app.url, EDGE_TOKENS: `${first},${second}`, EDGE_SYNC: sync, EDGE_TOKEN_REVALIDATE_MS: '600000' });
      await until('the edge ready', () => get(edge.url, '/ready'), (r) => r.status === 200);
      expect(await enabledAt(edge, second, flag)).toBe(false);
      await revoke(first);
      await until('the revoked token refused at the edge', () => get(edge.url, '/api/client/features', first), (r) => r.status === 401);
      await turnOn(flag);
      await until('the flag on at the edge for the other token', () => enabledAt(edge, second, flag), (enabled) => enabled === true);
    },
  );

  it('ends the SDK streams of a revoked token', async () => {
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    const edge = await startEdge({ EDGE_UPSTREAM_URL: app.url, EDGE_TOKENS: token });
    const stream = await request(`${edge.url}/api/client/streaming`, { headers: { authorization: token } });
    expect(stream.statusCode).toBe(200);
    const ended = stream.body.text();
    await revoke(token);
    await expect(Promise.race([ended.then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 3000, 'still open'))])).resolves.toBe('ended');
  });
});
