import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';

let app: TestApp;
const LARGE = '/api/client/features?namePrefix=negotiate.large';
const SMALL = '/api/client/features?namePrefix=negotiate.none';
let plain: unknown;

async function get(path: string, headers: Record<string, string>) {
  const response = await request(`${app.url}${path}`, { headers: { authorization: app.adminToken, ...headers } });
  const body = Buffer.from(await response.body.arrayBuffer());
  const coding = response.headers['content-encoding'] as string | undefined;
  const decoded = coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body;
  return { status: response.statusCode, coding: coding ?? 'identity', etag: response.headers.etag as string, json: decoded.length ? JSON.parse(decoded.toString('utf8')) : undefined };
}

beforeAll(async () => {
  app = await startTestApp();
  for (let i = 0; i < 8; i++) {
    const created = await app.admin.POST('/api/admin/projects/{projectId}/features', {
      params: { path: { projectId: 'default' } },
      body: { name: `negotiate.large-${i}`, description: `flag ${i} `.repeat(20) },
    });
    expect(created.response.status).toBe(201);
  }
  plain = (await get(LARGE, {})).json;
});

describe('GET /api/client/features: Accept-Encoding q-values', () => {
  it.each([
    ['gzip;q=1.0, br;q=0.1', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip, br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['gzip;q=0.2, identity;q=0.9', 'identity'],
    ['identity;q=0, gzip;q=0.1', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, gzip', 'gzip'],
    ['*, br;q=0', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate', 'identity'],
  ])('a large body for "%s" is sent as %s', async (acceptEncoding, expected) => {
    const response = await get(LARGE, { 'accept-encoding': acceptEncoding });
    expect(response.status).toBe(200);
    expect(response.coding).toBe(expected);
    expect(response.json).toEqual(plain);
  });

  it('sends a body under 1 kB uncompressed when identity is acceptable, compressed when identity is refused', async () => {
    expect((await get(SMALL, { 'accept-encoding': 'gzip, br' })).coding).toBe('identity');
    const refused = await get(SMALL, { 'accept-encoding': 'identity;q=0, gzip' });
    expect(refused.coding).toBe('gzip');
    expect(refused.json).toEqual({ version: 1, features: [] });
  });

  it('keeps one ETag across codings', async () => {
    const etags = new Set(await Promise.all(['gzip', 'br', 'identity'].map(async (coding) => (await get(LARGE, { 'accept-encoding': coding })).etag)));
    expect(etags.size).toBe(1);
  });
});

describe('GET /api/client/features: If-None-Match', () => {
  it('answers 304 for the exact ETag, its weak form, a list holding it, and *', async () => {
    const { etag } = await get(LARGE, {});
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, `"other",W/${etag} , "more"`, '*']) {
      const response = await get(LARGE, { 'if-none-match': value });
      expect(response.status, value).toBe(304);
      expect(response.etag).toBe(etag);
    }
  });

  it('answers 200 for other validators', async () => {
    const { etag } = await get(LARGE, {});
    for (const value of ['"other"', etag.slice(1, -1), `w/${etag}`, `"x${etag.slice(1)}`]) {
      expect((await get(LARGE, { 'if-none-match': value })).status, value).toBe(200);
    }
  });
});
