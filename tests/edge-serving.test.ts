// What an edge node serves is what its upstream answers, token by token and filter by filter: the client API (with its
// filters, old SDKs' inlined segments, one flag, the delta), the frontend API and OFREP; nothing of the admin API.
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { startEdge, type TestEdge } from './support/edge.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, rollout } from './support/fixtures.js';

let app: TestApp;
let edge: TestEdge;
let client: string;
let scoped: string;
let frontend: string;
const { createFlag, turnOn, addStrategy, createSegment, newProject } = fixtures(() => app, uniqueNames());

const call = async (base: string, path: string, token: string, options: { headers?: Record<string, string>; body?: unknown } = {}) => {
  const response = await request(`${base}${path}`, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: { authorization: token, ...(options.body !== undefined && { 'content-type': 'application/json' }), ...options.headers },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, json: text ? JSON.parse(text) : undefined };
};

/** The same request to the upstream and to the edge: both answers. */
const both = async (path: string, token: string, options: { headers?: Record<string, string>; body?: unknown } = {}) => {
  const [upstream, atEdge] = await Promise.all([call(app.url, path, token, options), call(edge.url, path, token, options)]);
  return { upstream, atEdge };
};

beforeAll(async () => {
  app = await startTestApp();
  const project = await newProject('edge-serving');
  const segment = await createSegment({ constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice', 'carol'] }] });
  await createFlag('default', 'serve.plain', { tags: ['simple:edge'] });
  await turnOn('serve.plain');
  await createFlag('default', 'serve.rollout');
  await addStrategy('serve.rollout', { ...rollout(50, 'userId'), constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }] });
  await turnOn('serve.rollout');
  await createFlag('default', 'serve.segmented');
  await addStrategy('serve.segmented', { name: 'default', segments: [segment.id] });
  await turnOn('serve.segmented');
  await createFlag(project, 'other.project-flag');
  await turnOn('other.project-flag', 'development', project);
  client = await newApiToken(app, { type: 'client', environment: 'development' });
  scoped = await newApiToken(app, { type: 'client', environment: 'development', projects: [project] });
  frontend = await newApiToken(app, { type: 'frontend', environment: 'development' });
  edge = await startEdge({ EDGE_UPSTREAM_URL: app.url, EDGE_TOKENS: [client, scoped, frontend].join(',') });
});

describe('the client API at an edge', () => {
  it.each([
    ['every flag', '/api/client/features'],
    ['a name prefix', '/api/client/features?namePrefix=serve.s'],
    ['a project', '/api/client/features?project=default'],
    ['a tag', '/api/client/features?tag=simple:edge'],
    ['one flag', '/api/client/features/serve.rollout'],
    ['a delta from nothing', '/api/client/delta'],
  ])('answers %s as the upstream does', async (_what, path) => {
    const { upstream, atEdge } = await both(path, client, { headers: { 'unleash-client-spec': '5.2.0' } });
    expect(upstream.status).toBe(200);
    expect(atEdge.status).toBe(200);
    const withoutRevisions = (json: { events?: { eventId?: number }[] }) => ({ ...json, ...(json.events && { events: json.events.map((e) => ({ ...e, eventId: 0 })) }) });
    expect(withoutRevisions(atEdge.json)).toEqual(withoutRevisions(upstream.json));
  });

  it('inlines segment constraints for an SDK older than client spec 4.2.0, as the upstream does', async () => {
    const { upstream, atEdge } = await both('/api/client/features', client);
    expect(atEdge.json).toEqual(upstream.json);
    expect(JSON.stringify(atEdge.json)).toContain('"carol"');
    expect(atEdge.json.segments).toBeUndefined();
  });

  it('serves a project-scoped token only its project', async () => {
    const { upstream, atEdge } = await both('/api/client/features', scoped, { headers: { 'unleash-client-spec': '5.2.0' } });
    expect(atEdge.json).toEqual(upstream.json);
    expect(atEdge.json.features.map((f: { name: string }) => f.name)).toEqual(['other.project-flag']);
  });

  it('answers 304 to an SDK that holds the current ETag', async () => {
    const first = await call(edge.url, '/api/client/features', client);
    const again = await call(edge.url, '/api/client/features', client, { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
  });
});

describe('the frontend API and OpenFeature at an edge', () => {
  it.each(['alice', 'bob', 'dave'])('evaluate the flags for user %s as the upstream does', async (userId) => {
    const { upstream, atEdge } = await both(`/api/frontend?userId=${userId}&appName=web`, frontend);
    expect(atEdge.status).toBe(200);
    expect(atEdge.json).toEqual(upstream.json);
  });

  it('OFREP bulk evaluation answers as the upstream does', async () => {
    const body = { context: { targetingKey: 'carol', appName: 'web' } };
    const { upstream, atEdge } = await both('/ofrep/v1/evaluate/flags', client, { body });
    expect(atEdge.status).toBe(200);
    expect(atEdge.json).toEqual(upstream.json);
  });

  it('OFREP single evaluation answers as the upstream does', async () => {
    const body = { context: { targetingKey: 'alice' } };
    const { upstream, atEdge } = await both('/ofrep/v1/evaluate/flags/serve.segmented', frontend, { body });
    expect(atEdge.status).toBe(200);
    expect(atEdge.json).toEqual(upstream.json);
  });
});

describe('what an edge does not serve', () => {
  it.each(['/api/admin/features', '/api/admin/projects', '/api/admin/api-tokens', '/api/admin/state/export', '/auth/simple/login'])(
    'answers 404 to %s, even with the upstream admin token',
    async (path) => {
      const answer = await call(edge.url, path, app.adminToken);
      expect(answer.status).toBe(404);
      expect(answer.json.name).toBe('NotFoundError');
    },
  );

  it('accepts no admin token on the SDK routes: the upstream never lists it as one an edge may serve', async () => {
    const answer = await call(edge.url, '/api/client/features', app.adminToken);
    expect(answer.status).toBe(401);
  });

  it('shows its sync state and SDK connections in Prometheus, each token by its scope only', async () => {
    const response = await request(`${edge.url}/internal-backstage/prometheus`);
    const text = await response.body.text();
    expect(text).toMatch(/^edge_upstream_lag_seconds\{environment="development",projects="\*"\} \d/m);
    expect(text).toMatch(/^edge_token_last_sync_timestamp_seconds\{token="\*:development\.\*\*\*"\} \d{10}/m);
    expect(text).toMatch(/^client_streams_open 0$/m);
    for (const secret of [client, scoped, frontend]) expect(text).not.toContain(secret);
  });
});
