// OpenFeature's web SDK with its OFREP provider (@openfeature/web-sdk, @openfeature/ofrep-web-provider) in Debian's
// Chromium, on a page of another origin than the service's: ready with the flags, a context change evaluated anew,
// an admin change seen at the next poll, and the polls between changes answered 304. The packages' own ES modules
// are served as they are published, through an import map: nothing is bundled or intercepted.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { launchBrowser, newContext } from './support/browser.js';
import { newApiToken, until } from './support/fixtures.js';
import { flagWith } from './support/frontend.js';
import { uniqueNames } from './support/events.js';
import { servePage } from './support/page-server.js';

const unique = uniqueNames();

/** The ES modules the page imports, by the name it imports them with. */
const MODULES: Record<string, string> = {
  '@openfeature/core': 'node_modules/@openfeature/core/dist/esm/index.js',
  '@openfeature/web-sdk': 'node_modules/@openfeature/web-sdk/dist/esm/index.js',
  '@openfeature/ofrep-core': 'node_modules/@openfeature/ofrep-web-provider/node_modules/@openfeature/ofrep-core/index.esm.js',
  '@openfeature/ofrep-web-provider': 'node_modules/@openfeature/ofrep-web-provider/index.esm.js',
};
const moduleUrl = (name: string) => `/modules/${name.replace('/', '__')}.js`;

/** The page: `app.start()` sets the provider up as an application would, then `app` answers plain values. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script type="importmap">${JSON.stringify({ imports: Object.fromEntries(Object.keys(MODULES).map((name) => [name, moduleUrl(name)])) })}</script>
</head><body><h1>Shop</h1><script type="module">
import { OpenFeature, ProviderEvents } from '@openfeature/web-sdk';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
let client;
const changes = [];
window.app = {
  async start(baseUrl, token, context) {
    await OpenFeature.setContext(context);
    await OpenFeature.setProviderAndWait(new OFREPWebProvider({ baseUrl, headers: [['Authorization', 'Bearer ' + token]], pollInterval: 500, cacheMode: 'disabled' }));
    client = OpenFeature.getClient();
    client.addHandler(ProviderEvents.ConfigurationChanged, () => changes.push('changed'));
    return 'ready';
  },
  boolean: (key) => { const d = client.getBooleanDetails(key, false); return { value: d.value, reason: d.reason, errorCode: d.errorCode }; },
  string: (key, fallback) => client.getStringDetails(key, fallback).value,
  setContext: (context) => OpenFeature.setContext(context).then(() => null),
  changes: () => changes.length,
};
</script></body></html>`;

type AppMethod = 'start' | 'boolean' | 'string' | 'setContext' | 'changes';

/** `app.<method>(...args)` in the page, answered as a plain value. */
const inPage = <T>(page: Page, method: AppMethod, ...args: unknown[]): Promise<T> =>
  page.evaluate(([name, values]) => (window as unknown as { app: Record<string, (...a: unknown[]) => unknown> }).app[name]!(...values), [method, args] as const) as Promise<T>;

/** The page and the packages' modules, served from another origin; answers that origin. */
async function servePageWithModules(): Promise<string> {
  const modules = await Promise.all(Object.entries(MODULES).map(async ([name, file]) => [moduleUrl(name), await readFile(path.resolve(file))] as const));
  return servePage({ '/': PAGE, ...Object.fromEntries(modules) });
}

/** How many bulk evaluations the service answered with `status`, from its request log. */
function bulkAnswers(on: TestApp, status: number): number {
  const entries = on.logs.map((line) => JSON.parse(line) as { reqId?: string; msg?: string; req?: { url: string }; res?: { statusCode: number } });
  const bulk = new Set(entries.filter((entry) => entry.msg === 'incoming request' && entry.req?.url === '/ofrep/v1/evaluate/flags').map((entry) => entry.reqId));
  return entries.filter((entry) => entry.msg === 'request completed' && bulk.has(entry.reqId) && entry.res?.statusCode === status).length;
}

describe('the OFREP web provider in Chromium, from another origin', () => {
  let app: TestApp;
  let browser: Browser;
  let profile: BrowserContext;
  let page: Page;
  let pro: string;
  let greeting: string;

  beforeAll(async () => {
    const pageOrigin = await servePageWithModules();
    app = await startTestApp();
    const token = await newApiToken(app, { type: 'frontend', environment: 'development' });
    pro = await flagWith(app, unique('pro'), [{ name: 'default', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] }]);
    greeting = await flagWith(app, unique('greeting'), [{ name: 'default' }], {
      variants: [{ name: 'formal', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'Good day' } }],
    });
    browser = await launchBrowser();
    profile = await newContext(browser, app.url, { alsoAllowed: [pageOrigin] });
    page = await profile.newPage();
    await page.goto(`${pageOrigin}/`);
    expect(await inPage(page, 'start', app.url, token, { targetingKey: 'u-1', plan: 'free' })).toBe('ready');
  }, 120_000);


  it('is ready with the flags evaluated for its context', async () => {
    expect(new URL(page.url()).origin).not.toBe(new URL(app.url).origin);
    expect(await inPage(page, 'boolean', pro)).toEqual({ value: false, reason: 'DEFAULT' });
    expect(await inPage(page, 'string', greeting, 'Hello')).toBe('Good day');
  });

  it('evaluates the flags anew when the context changes', async () => {
    await inPage(page, 'setContext', { targetingKey: 'u-1', plan: 'pro' });
    expect(await inPage(page, 'boolean', pro)).toEqual({ value: true, reason: 'TARGETING_MATCH' });
  });

  it('polls with the ETag it holds, answered 304 while nothing changed', async () => {
    const before = bulkAnswers(app, 304);
    await until('a poll answered 304', async () => bulkAnswers(app, 304), (count) => count >= before + 2);
  });

  it('sees an admin change at the next poll', async () => {
    const changesBefore = await inPage<number>(page, 'changes');
    const { response } = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', {
      params: { path: { projectId: 'default', featureName: greeting, environment: 'development' } },
    });
    expect(response.status).toBe(200);
    await until('the change to reach the page', () => inPage<string>(page, 'string', greeting, 'Hello'), (value) => value === 'Hello');
    expect(await inPage<number>(page, 'changes')).toBeGreaterThan(changesBefore);
  });
});
