import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, scrapeOf, until } from './support/fixtures.js';

let app: TestApp;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format (0.0.4; values as Go's ParseFloat reads them, NaN in any case), failing on any line that is not a comment, blank or sample. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.eE+-]+|[Nn][Aa][Nn]|[+-][Ii]nf)(?: -?[0-9]+)?$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const { createFlag, archiveFlag } = fixtures(() => app, uniqueNames());

/** A poll of the client API with the admin token and these headers. */
const pollAsAdmin = (headers: Record<string, string> = {}, on = app) => on.admin.GET('/api/client/features', { headers });

async function scrape(on = app) {
  const response = await scrapeOf(on);
  return { response, samples: parse(response.text) };
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

beforeAll(async () => {
  app = await startTestApp();
});

describe('GET /internal-backstage/prometheus', () => {
  it('answers without a credential, in the Prometheus text format', async () => {
    const { response, samples } = await scrape();
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(samples.length).toBeGreaterThan(20);
  });

  it('lists process, request, client API, totals and flush-failure metrics', async () => {
    await app.admin.GET('/api/admin/tag-types');
    const names = new Set((await scrape()).samples.map((s) => s.name));
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'http_request_duration_milliseconds_bucket',
      'http_request_duration_milliseconds_sum',
      'http_request_duration_milliseconds_count',
      'client_api_requests_total',
      'client_api_not_modified_total',
      'client_metrics_flush_failures_total',
      'feature_toggles_total',
      'projects_total',
      'environments_total',
      'users_total',
    ]) {
      expect(names, name).toContain(name);
    }
  });

  it('times requests by route pattern, method and status, never by raw URL', async () => {
    await app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'simple' } } });
    await app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'no-such-type' } } });
    const { samples } = await scrape();
    const count = 'http_request_duration_milliseconds_count';
    expect(value(samples, count, { path: '/api/admin/tag-types/:typeName', method: 'GET', status: '200', appName: '' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, count, { path: '/api/admin/tag-types/:typeName', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(samples.some((s) => Object.values(s.labels).some((v) => v.includes('no-such-type') || v.includes('simple')))).toBe(false);
  });

  it('counts client API polls and 304s, and labels them with the SDK application name', async () => {
    const before = (await scrape()).samples;
    const headers = { 'unleash-appname': 'checkout-service' };
    const first = await pollAsAdmin(headers);
    expect(first.response.status).toBe(200);
    const second = await pollAsAdmin({ ...headers, 'if-none-match': String(first.response.headers.get('etag')) });
    expect(second.response.status).toBe(304);
    await pollAsAdmin({ 'service-appname': 'billing' });
    const after = (await scrape()).samples;
    expect(value(after, 'client_api_requests_total') - value(before, 'client_api_requests_total')).toBe(3);
    expect(value(after, 'client_api_not_modified_total') - value(before, 'client_api_not_modified_total')).toBe(1);
    const count = 'http_request_duration_milliseconds_count';
    expect(value(after, count, { path: '/api/client/features', status: '304', appName: 'checkout-service' })).toBe(1);
    expect(value(after, count, { path: '/api/client/features', status: '200', appName: 'billing' })).toBe(1);
    const bucket = 'http_request_duration_milliseconds_bucket';
    expect(value(after, bucket, { path: '/api/client/features', status: '304', appName: 'checkout-service', le: '+Inf' })).toBe(1);
    expect(value(after, bucket, { path: '/api/client/features', status: '304', appName: 'checkout-service', le: '5000' })).toBe(1);
  });

  it('counts a refused client API poll with its status', async () => {
    const before = (await scrape()).samples;
    expect((await app.clientWith().GET('/api/client/features')).response.status).toBe(401);
    const after = (await scrape()).samples;
    const labels = { path: '/api/client/features', status: '401' };
    expect(value(after, 'http_request_duration_milliseconds_count', labels) - value(before, 'http_request_duration_milliseconds_count', labels)).toBe(1);
  });

  it('truncates the application name', async () => {
    await pollAsAdmin({ 'unleash-appname': 'a'.repeat(500) });
    const names = (await scrape()).samples.map((s) => s.labels.appName ?? '');
    expect(names).toContain('a'.repeat(64));
    expect(Math.max(...names.map((n) => n.length))).toBeLessThanOrEqual(64);
  });

  it('moves the flags gauge when a flag is created and archived', async () => {
    const before = value((await scrape()).samples, 'feature_toggles_total');
    await createFlag('default', 'prometheus.gauge');
    expect(value((await scrape()).samples, 'feature_toggles_total')).toBe(before + 1);
    await archiveFlag('default', 'prometheus.gauge');
    expect(value((await scrape()).samples, 'feature_toggles_total')).toBe(before);
  });

  it('reports the projects and environments totals', async () => {
    const { samples } = await scrape();
    expect(value(samples, 'projects_total')).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'environments_total')).toBeGreaterThanOrEqual(2);
  });

  it('counts a failed write of SDK reports', async () => {
    const before = value((await scrape()).samples, 'client_metrics_flush_failures_total');
    await app.db.execute(sql`alter table client_applications rename to client_applications_away`);
    try {
      const registered = await app.admin.POST('/api/client/register', {
        body: { appName: 'flush-failure', instanceId: 'i1', strategies: ['default'], started: new Date().toISOString(), interval: 10000 },
      });
      expect(registered.response.status).toBe(202);
      await until('a flush failure being counted', async () => value((await scrape()).samples, 'client_metrics_flush_failures_total'), (failures) => failures > before, 10_000);
    } finally {
      await app.db.execute(sql`alter table client_applications_away rename to client_applications`);
    }
  });

  it('keeps each app on its own registry, so that two apps run in one process', async () => {
    const other = await startTestApp();
    await pollAsAdmin({}, other);
    await pollAsAdmin({}, other);
    const mine = value((await scrape()).samples, 'client_api_requests_total');
    const theirs = value((await scrape(other)).samples, 'client_api_requests_total');
    expect(theirs).toBe(2);
    expect(mine).not.toBe(theirs);
  });
});
