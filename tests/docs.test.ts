import { parse } from 'yaml';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const externalReference = /(?:src|href)\s*=\s*["']?(?:https?:)?\/\/(?!127\.0\.0\.1|localhost)/i;

describe('the contract and the explorer', () => {
  it('serves the contract as JSON and YAML, without a credential', async () => {
    const contract = parse(await readFile('openapi.yaml', 'utf8'));
    const json = await call(app, 'GET', '/docs/openapi.json', { token: null });
    expect(json.status).toBe(200);
    expect(json.json).toEqual(contract);
    const yaml = await call(app, 'GET', '/docs/openapi.yaml', { token: null });
    expect(yaml.status).toBe(200);
    expect(parse(yaml.text)).toEqual(contract);
  });

  it('renders the explorer from local assets only, pointed at the contract', async () => {
    const page = await call(app, 'GET', '/docs', { token: null });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).not.toMatch(externalReference);
    const assets = [...page.text.matchAll(/(?:src|href)="\.?\/?([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const url = asset.startsWith('/') ? asset : `/docs/${asset.replace(/^docs\//, '')}`;
      const response = await call(app, 'GET', url, { token: null });
      expect(response.status, url).toBe(200);
      if (url.endsWith('.html') || url.endsWith('initializer.js')) expect(response.text).not.toMatch(externalReference);
    }
    const initializer = await call(app, 'GET', '/docs/static/swagger-initializer.js', { token: null });
    expect(initializer.text).toContain('/docs/openapi.json');
  });
});
