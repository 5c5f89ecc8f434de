// GET /api/admin/metrics/rps with PROMETHEUS_API: the service asks that Prometheus (here a fake one started by
// the test) and answers its results with each sample as the interface types it; a Prometheus that fails or does not
// answer is a 502, never a hang.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { afterFile } from './support/file-end.js';

/** How the fake answers: Prometheus' own JSON, a status with a body, or never. */
type Behaviour = 'answer' | 'hang' | { status: number; body: string };

interface FakePrometheus {
  url: string;
  /** The requests' paths with their queries, in the order received. */
  received: URL[];
  behaviour: Behaviour;
}

/** A query_range result that says which query it answers, so that the test sees each passed to the right place. */
const resultTo = <Sample>(query: string, values: Sample[]) => ({
  status: 'success',
  data: {
    resultType: 'matrix',
    result: [{ metric: { appName: query.includes('/api/client/') ? 'from-client-query' : 'from-admin-query', endpoint: '/api/x' }, values }],
  },
});

/** Prometheus' answer: `[unix seconds, "value"]` samples, one of them no number (Prometheus writes NaN so). */
const answerTo = (query: string) =>
  resultTo(query, [
    [1_700_000_000, '0.5'],
    [1_700_000_300.5, '1.25'],
    [1_700_000_600, 'NaN'],
  ]);

async function startFakePrometheus(): Promise<FakePrometheus> {
  const hanging = new Set<ServerResponse>();
  const fake: FakePrometheus = { url: '', received: [], behaviour: 'answer' };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://prometheus');
    fake.received.push(url);
    if (fake.behaviour === 'hang') return void hanging.add(response);
    if (fake.behaviour === 'answer') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answerTo(url.searchParams.get('query') ?? '')));
    } else response.writeHead(fake.behaviour.status, { 'content-type': 'text/plain' }).end(fake.behaviour.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterFile(async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return fake;
}

/** An address where nothing listens: a port that was free a moment ago. */
async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

let prometheus: FakePrometheus;
let app: TestApp;

beforeAll(async () => {
  prometheus = await startFakePrometheus();
  app = await startTestApp({ prometheusApi: prometheus.url });
});

beforeEach(() => {
  prometheus.received = [];
  prometheus.behaviour = 'answer';
});

const rpsAnswer = (on = app) => on.admin.GET('/api/admin/metrics/rps');

describe('GET /api/admin/metrics/rps from Prometheus', () => {
  it('asks for the client and the admin request rates by application and endpoint, over the last 6 hours at a 5-minute step', async () => {
    const before = Math.floor(Date.now() / 1000);
    expect((await rpsAnswer()).response.status).toBe(200);
    const after = Math.floor(Date.now() / 1000);
    expect(prometheus.received.map((url) => url.pathname)).toEqual(['/api/v1/query_range', '/api/v1/query_range']);
    const rate = (paths: string) =>
      'sum by(appName, endpoint) (label_replace(label_replace(' +
      `rate(http_request_duration_milliseconds_count{path=~"${paths}"}[5m]), ` +
      '"endpoint", "$1", "path", "(/api/(?:client/)?[^/*]*).*"), "appName", "unknown", "appName", ""))';
    expect(prometheus.received.map((url) => url.searchParams.get('query')).sort()).toEqual([rate('/api/admin/.*'), rate('/api/client/.*')]);
    for (const url of prometheus.received) {
      const end = Number(url.searchParams.get('end'));
      expect(end).toBeGreaterThanOrEqual(before);
      expect(end).toBeLessThanOrEqual(after);
      expect(end - Number(url.searchParams.get('start'))).toBe(6 * 3600);
      expect(url.searchParams.get('step')).toBe('5m');
      expect(url.searchParams.get('timeout')).toBe('5s');
    }
  });

  it('answers each of Prometheus’ results with its samples as the interface types them, [Unix seconds as a string, the rate as a number], leaving out one that is no number', async () => {
    const { data, response } = await rpsAnswer();
    expect(response.status).toBe(200);
    const samples: [string, number][] = [
      ['1700000000', 0.5],
      ['1700000300.5', 1.25],
    ];
    expect(data).toEqual({ clientMetrics: resultTo('/api/client/', samples), adminMetrics: resultTo('/api/admin/', samples) });
  });

  it('answers 502 when Prometheus answers 500', async () => {
    prometheus.behaviour = { status: 500, body: 'internal error' };
    const error = expectError(await rpsAnswer(), 502, 'BadGatewayError');
    expect(error.message).toMatch(/^The (client|admin)Metrics query to Prometheus \(PROMETHEUS_API\) failed: it answered 500\./);
  });

  it('answers 502 when Prometheus answers something that is not JSON', async () => {
    prometheus.behaviour = { status: 200, body: '<html>not Prometheus</html>' };
    expect(expectError(await rpsAnswer(), 502, 'BadGatewayError').message).toMatch(/not JSON/);
  });

  it('answers 502 when Prometheus answers JSON that is not a query_range result', async () => {
    prometheus.behaviour = { status: 200, body: JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [{ metric: null }] } }) };
    expect(expectError(await rpsAnswer(), 502, 'BadGatewayError').message).toMatch(/not a query_range result/);
  });

  it('answers 502 when Prometheus does not answer within 5 s', async () => {
    prometheus.behaviour = 'hang';
    expect(expectError(await rpsAnswer(), 502, 'BadGatewayError').message).toMatch(/no answer within 5 s/);
  });

  it('answers 502 when Prometheus cannot be reached', async () => {
    const unreachable = await startTestApp({ prometheusApi: await closedAddress() });
    expect(expectError(await rpsAnswer(unreachable), 502, 'BadGatewayError').message).toMatch(/no answer came \(ECONNREFUSED\)/);
  });
});
