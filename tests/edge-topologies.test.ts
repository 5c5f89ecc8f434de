// Edges in the places they are put: behind another edge, in front of an Unleash (a recorded Unleash 7.4.1 answer,
// served as Unleash serves it: no streaming, so the edge polls), serving an exported state with no upstream at all;
// and the start refused when a database is configured too.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { startEdge } from './support/edge.js';
import { uniqueNames } from './support/events.js';
import { afterFile } from './support/file-end.js';
import { fixtures, newApiToken, ok, seen } from './support/fixtures.js';
import { stopSdk } from './support/sdk-changes.js';
import { SERVICE_PROCESS_TEST_TIMEOUT, startService } from './support/service-process.js';

const features = async (base: string, token: string) => {
  const response = await request(`${base}/api/client/features`, { headers: { authorization: token, 'unleash-client-spec': '5.2.0' } });
  return { status: response.statusCode, json: (await response.body.json()) as { features: { name: string; enabled: boolean }[] } };
};

function sdkAt(url: string, token: string) {
  const sdk = new Unleash({
    url: `${url}/api/`,
    appName: 'topology',
    refreshInterval: 200,
    disableMetrics: true,
    customHeaders: { Authorization: token },
    storageProvider: new InMemStorageProvider(),
  });
  sdk.on(UnleashEvents.Error, () => {});
  afterFile(async () => stopSdk(sdk));
  return new Promise<Unleash>((resolve) => sdk.once(UnleashEvents.Synchronized, () => resolve(sdk)));
}

describe('edges in a chain', () => {
  let app: TestApp;
  const { createFlag, turnOn } = fixtures(() => app, uniqueNames());

  beforeAll(async () => {
    app = await startTestApp();
  });

  it('an edge behind an edge serves what the service serves, and a change reaches an SDK at the end of the chain', async () => {
    await createFlag('default', 'chain.flag');
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    const near = await startEdge({ EDGE_UPSTREAM_URL: app.url, EDGE_TOKENS: token });
    const far = await startEdge({ EDGE_UPSTREAM_URL: near.url, EDGE_TOKENS: token });
    expect((await features(far.url, token)).json).toEqual((await features(app.url, token)).json);
    const sdk = await sdkAt(far.url, token);
    expect(sdk.isEnabled('chain.flag')).toBe(false);
    await turnOn('chain.flag');
    await seen('the flag on at the end of the chain', () => sdk.isEnabled('chain.flag'));
  });
});

describe('an edge in front of Unleash', () => {
  /** Unleash 7.4.1's answer, as captured (shared/reference/client-api-examples.md, with Unleash-Client-Spec 5.2.0). */
  const unleashAnswer = {
    version: 2,
    features: [
      { name: 'peer.example-flag', type: 'release', enabled: true, project: 'default', stale: false, strategies: [{ name: 'flexibleRollout', constraints: [], parameters: { groupId: 'peer.example-flag', rollout: '100', stickiness: 'default' }, variants: [] }], variants: [], description: 'example', impressionData: false },
      {
        name: 'peer.with-constraints', type: 'experiment', enabled: true, project: 'default', stale: false,
        strategies: [{
          name: 'flexibleRollout',
          constraints: [{ values: ['web', 'ios'], inverted: false, operator: 'IN', contextName: 'appName', caseInsensitive: false }],
          parameters: { groupId: 'peer.with-constraints', rollout: '50', stickiness: 'userId' },
          variants: [{ name: 'blue', weight: 500, payload: { type: 'json', value: '{"color":"blue"}' }, stickiness: 'userId', weightType: 'variable' }, { name: 'red', weight: 500, stickiness: 'userId', weightType: 'variable' }],
          segments: [1],
        }],
        variants: [], description: 'constraints, variants, segment', impressionData: false,
      },
      { name: 'peer.disabled-flag', type: 'kill-switch', enabled: false, project: 'default', stale: false, strategies: [], variants: [], description: null, impressionData: false },
    ],
    query: { environment: 'development', inlineSegmentConstraints: false },
    segments: [{ id: 1, name: 'peer-beta-users', constraints: [{ values: ['u1', 'u2'], inverted: false, operator: 'IN', contextName: 'userId', caseInsensitive: false }] }],
    meta: { revisionId: 15, etag: '"537b2ba0:15:v1"', queryHash: '537b2ba0' },
  };
  const token = '*:development.peer-client-secret';
  const calls: string[] = [];

  /** Unleash's open-source routes an edge uses: token validation and the client API; no streaming (404). */
  async function startRecordedUnleash(): Promise<string> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      calls.push(`${req.method} ${req.url}`);
      const authorized = req.headers.authorization === token;
      if (req.method === 'POST' && req.url === '/edge/validate') {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          const sent = (JSON.parse(body) as { tokens: string[] }).tokens;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ tokens: sent.filter((t) => t === token).map((t) => ({ token: t, type: 'client', projects: ['*'], environment: 'development' })) }));
        });
        return;
      }
      if (req.url === '/api/client/features' && authorized) {
        if (req.headers['if-none-match'] === unleashAnswer.meta.etag) return res.writeHead(304).end();
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', etag: unleashAnswer.meta.etag });
        return res.end(JSON.stringify(unleashAnswer));
      }
      res.writeHead(req.url?.startsWith('/api/') && !authorized ? 401 : 404, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    afterFile(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('polls it with If-None-Match, since it offers no stream, and its SDKs decide as SDKs of that Unleash do', async () => {
    const unleash = await startRecordedUnleash();
    const edge = await startEdge({ EDGE_UPSTREAM_URL: unleash, EDGE_TOKENS: token });
    const [throughEdge, direct] = await Promise.all([sdkAt(edge.url, token), sdkAt(unleash, token)]);
    expect(throughEdge.isEnabled('peer.example-flag')).toBe(true);
    expect(throughEdge.isEnabled('peer.disabled-flag')).toBe(false);
    for (const userId of ['u1', 'u2', 'u3', 'u4']) {
      for (const appName of ['web', 'android']) {
        const context = { userId, appName };
        expect(throughEdge.isEnabled('peer.with-constraints', context)).toBe(direct.isEnabled('peer.with-constraints', context));
        expect(throughEdge.getVariant('peer.with-constraints', context)).toEqual(direct.getVariant('peer.with-constraints', context));
      }
    }
    await seen('polls after the first', () => calls.filter((c) => c === 'GET /api/client/features').length >= 4);
    expect(calls).toContain('GET /api/client/streaming');
  });
});

describe('an edge serving an exported state', () => {
  let app: TestApp;
  const { createFlag, turnOn, createSegment, addStrategy } = fixtures(() => app, uniqueNames());

  beforeAll(async () => {
    app = await startTestApp();
  });

  it('serves the client and frontend tokens it was given what the service served, without any upstream', async () => {
    await createFlag('default', 'offline.on');
    await turnOn('offline.on');
    const segment = await createSegment({ constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann'] }] });
    await createFlag('default', 'offline.segmented');
    await addStrategy('offline.segmented', { name: 'default', segments: [segment.id] });
    await turnOn('offline.segmented');
    await createFlag('default', 'offline.archived');
    await ok(app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: 'default', featureName: 'offline.archived' } } }));
    const exported = await ok(app.admin.GET('/api/admin/state/export', { params: { query: { version: 2 } } }));
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'edge-offline-')), 'state.json');
    await writeFile(file, JSON.stringify(exported));
    const clientToken = 'default:development.offline-client';
    const frontendToken = 'default:development.offline-frontend';
    const upstreamToken = await newApiToken(app, { type: 'client', environment: 'development', projects: ['default'] });
    const edge = await startEdge({ EDGE_OFFLINE_FILE: file, EDGE_TOKENS: clientToken, EDGE_FRONTEND_TOKENS: frontendToken });

    expect((await features(edge.url, clientToken)).json).toEqual((await features(app.url, upstreamToken)).json);
    const toggles = await request(`${edge.url}/api/frontend?userId=ann`, { headers: { authorization: frontendToken } });
    const on = ((await toggles.body.json()) as { toggles: { name: string }[] }).toggles.map((t) => t.name);
    expect(on.filter((name) => name.startsWith('offline.'))).toEqual(['offline.on', 'offline.segmented']);
    expect((await request(`${edge.url}/ready`)).statusCode).toBe(200);
    expect((await features(edge.url, 'default:development.not-given')).status).toBe(401);
  });
});

describe('starting an edge', { timeout: SERVICE_PROCESS_TEST_TIMEOUT }, () => {
  it('with a database variable set too, stops at once and says which', async () => {
    const service = startService({ PORT: '0', EDGE_UPSTREAM_URL: 'http://127.0.0.1:9', DATABASE_URL: 'postgres://nowhere/db' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toContain('EDGE_UPSTREAM_URL starts an edge node, which has no database, but DATABASE_URL is set');
  });
});
