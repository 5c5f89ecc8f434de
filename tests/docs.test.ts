import { parse } from 'yaml';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';
import { launchBrowser, newContext } from './support/browser.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

// Raw call(): the contract's documents and the explorer's pages are served beside the API, not operations of it.
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

  it('shows the service\'s name, not the framework\'s logo, in the title, the top bar and the icon', async () => {
    const { info } = parse(await readFile('openapi.yaml', 'utf8')) as { info: { title: string } };
    const swaggerUiFolder = path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui'));
    const fastifyLogo = await readFile(path.join(swaggerUiFolder, 'static', 'logo.svg'));

    const page = await call(app, 'GET', '/docs', { token: null });
    expect(page.text).toContain(`<title>${info.title}</title>`);
    expect(page.text).not.toMatch(/favicon-(16|32)x\d+\.png|logo\.svg/);
    const icon = /<link rel="icon" type="image\/svg\+xml" href="[^"]*\/(static\/theme\/[^"]+)"/.exec(page.text);
    expect(icon).not.toBeNull();
    const favicon = await call(app, 'GET', `/docs/${icon![1]}`, { token: null });
    expect(favicon.status).toBe(200);
    expect(favicon.headers['content-type']).toContain('image/svg+xml');

    const initializer = await call(app, 'GET', '/docs/static/swagger-initializer.js', { token: null });
    expect(initializer.text).not.toContain(fastifyLogo.toString('base64'));
    const logo = /img\.src = 'data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)'/.exec(initializer.text);
    expect(logo).not.toBeNull();
    const svg = Buffer.from(logo![1]!, 'base64').toString('utf8');
    expect(svg).toContain(`>${info.title}</text>`);
    expect(svg).not.toMatch(externalReference);
  });
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the contract, as the explorer names its block: `operations-<tag>-<operationId>`. */
async function contractOperations(): Promise<{ tag: string; operationId: string }[]> {
  const { paths } = parse(await readFile('openapi.yaml', 'utf8')) as { paths: Record<string, Record<string, { tags: string[]; operationId: string }>> };
  return Object.values(paths).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([, operation]) => ({ tag: operation.tags[0]!, operationId: operation.operationId })),
  );
}

describe('the explorer in a browser', () => {
  it('turns on the filter and deep links', async () => {
    const initializer = await call(app, 'GET', '/docs/static/swagger-initializer.js', { token: null });
    expect(initializer.text).toContain('"filter":true');
    expect(initializer.text).toContain('"deepLinking":true');
  });

  it('renders every operation of the contract, not only those near the viewport; filters by tag; opens a deep link', { timeout: 90_000 }, async () => {
    const operations = await contractOperations();
    expect(operations.length).toBeGreaterThan(150);
    const page = await (await newContext(await launchBrowser(), app.url)).newPage();
    await page.goto('/docs');
    await page.locator('.opblock').first().waitFor();
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 20_000 }).toBe(operations.length);
    const last = operations.at(-1)!;
    expect(await page.locator(`[id="operations-${last.tag.replaceAll(' ', '_')}-${last.operationId}"]`).count()).toBe(1);

    await page.locator('input.operation-filter-input').fill('Health');
    await expect.poll(() => page.locator('.opblock').count()).toBe(operations.filter((op) => op.tag === 'Health').length);

    const far = operations.find((op) => op.tag === last.tag)!;
    await page.goto(`/docs#/${encodeURIComponent(far.tag)}/${far.operationId}`);
    await page.reload();
    const opened = page.locator(`[id="operations-${far.tag.replaceAll(' ', '_')}-${far.operationId}"]`);
    await expect.poll(() => opened.getAttribute('class'), { timeout: 20_000 }).toContain('is-open');
    await expect.poll(() => opened.isVisible()).toBe(true);
  });
});
