// The real browser SDK, unleash-proxy-client 3.8.2's browser bundle, in Debian's Chromium, on a page served from
// another origin than the service's (http://localhost:<port> against http://127.0.0.1:<port>): the frontend API's
// CORS as a browser applies it, preflights included. Nothing is intercepted (Playwright would answer preflights
// itself); every preflight is checked to have reached the service.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { launchBrowser, newContext } from './support/browser.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, rollout, until } from './support/fixtures.js';
import { flagWith } from './support/frontend.js';
import { servePage } from './support/page-server.js';

const unique = uniqueNames();
const forUsers = (...userIds: string[]) => ({ ...rollout(100, 'userId'), constraints: [{ contextName: 'userId', operator: 'IN' as const, values: userIds }] });

/**
 * The page: the SDK's UMD bundle (global `unleash`) and `sdk`, which starts one client as an app would (polling and
 * sending metrics every second, the default storage in localStorage) and answers plain values about it.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title><script src="/unleash.js"></script></head>
<body><h1>Shop</h1><script>
const describeError = (detail) => [detail && detail.type, detail && detail.error && detail.error.message, detail && detail.code].filter(Boolean).join(': ');
window.sdk = {
  client: undefined,
  events: [],
  start(options) {
    const client = new unleash.UnleashClient({ refreshInterval: 1, metricsInterval: 1, metricsIntervalInitial: 0, ...options });
    sdk.client = client;
    for (const name of ['ready', 'update', 'sent']) client.on(name, () => sdk.events.push(name));
    client.on('error', (detail) => sdk.events.push('error: ' + describeError(detail)));
    const settled = new Promise((resolve) => {
      client.once('ready', () => resolve('ready'));
      client.once('error', (detail) => resolve('error: ' + describeError(detail)));
    });
    client.start();
    return settled;
  },
  isEnabled: (name) => sdk.client.isEnabled(name),
  getVariant: (name) => sdk.client.getVariant(name),
  updateContext: (context) => sdk.client.updateContext(context).then(() => null),
  isReady: () => sdk.client.isReady(),
  count: (event) => sdk.events.filter((e) => e === event).length,
  errors: () => sdk.events.filter((e) => e.startsWith('error')),
};
</script></body></html>`;

type SdkMethod = 'start' | 'isEnabled' | 'getVariant' | 'updateContext' | 'isReady' | 'count' | 'errors';

/** `sdk.<method>(...args)` in the page, answered as a plain value. */
const inPage = <T>(page: Page, method: SdkMethod, ...args: unknown[]): Promise<T> =>
  page.evaluate(([name, values]) => (window as unknown as { sdk: Record<string, (...a: unknown[]) => unknown> }).sdk[name]!(...values), [method, args] as const) as Promise<T>;

/** The page and the SDK's bundle, served from another origin; answers that origin. */
async function serveShop(): Promise<string> {
  return servePage({ '/': PAGE, '/unleash.js': await readFile(path.resolve('node_modules', 'unleash-proxy-client', 'build', 'main.min.js')) });
}

/** The preflights (OPTIONS) the service answered below `path`, from its request log. */
const preflightsTo = (on: TestApp, path: string) =>
  on.logs
    .map((line) => JSON.parse(line) as { msg?: string; req?: { method: string; url: string } })
    .filter((entry) => entry.msg === 'incoming request' && entry.req?.method === 'OPTIONS' && entry.req.url.startsWith(path)).length;

let browser: Browser;
let pageOrigin: string;
const pages: Page[] = [];

beforeAll(async () => {
  pageOrigin = await serveShop();
  browser = await launchBrowser();
});

afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
});

interface StartOptions {
  context?: Record<string, unknown>;
  appName?: string;
  customHeaders?: Record<string, string>;
}

/** A new page of the shop in `profile`, its SDK started against `on` with `token`; answers how the start settled. */
async function shopPage(profile: BrowserContext, on: TestApp, token: string, options: StartOptions = {}) {
  const page = await profile.newPage();
  pages.push(page);
  await page.goto(`${pageOrigin}/`);
  const settled = await inPage<string>(page, 'start', {
    url: `${on.url}/api/frontend`,
    clientKey: token,
    appName: options.appName ?? unique('shop'),
    context: options.context ?? { userId: 'u-1' },
    ...(options.customHeaders && { customHeaders: options.customHeaders }),
  });
  return { page, settled };
}

describe('unleash-proxy-client 3.8.2 in Chromium, from another origin', () => {
  let app: TestApp;
  let token: string;
  let profile: BrowserContext;
  const { turnOff, usageOf } = fixtures(() => app, unique);

  beforeAll(async () => {
    app = await startTestApp();
    token = await newApiToken(app, { type: 'frontend', environment: 'development' });
    profile = await newContext(browser, app.url, { alsoAllowed: [pageOrigin] });
  });

  /** A shop page whose SDK became ready. */
  async function readyPage(options: StartOptions = {}) {
    const { page, settled } = await shopPage(profile, app, token, options);
    expect(settled).toBe('ready');
    return page;
  }

  it('is ready with the flags: on and off as configured, the variant with its payload', async () => {
    const payload = { type: 'json' as const, value: '{"color":"blue"}' };
    const on = await flagWith(app, unique('on'), [rollout(100, 'userId')], { variants: [{ name: 'blue', weight: 1000, weightType: 'fix', stickiness: 'default', payload }] });
    const nobody = await flagWith(app, unique('nobody'), [rollout(0, 'userId')]);
    const off = await flagWith(app, unique('off'), [rollout(100, 'userId')], { on: false });
    const page = await readyPage();
    expect(new URL(page.url()).origin).not.toBe(new URL(app.url).origin);
    expect(await inPage(page, 'isEnabled', on)).toBe(true);
    expect(await inPage(page, 'isEnabled', nobody)).toBe(false);
    expect(await inPage(page, 'isEnabled', off)).toBe(false);
    expect(await inPage(page, 'getVariant', on)).toMatchObject({ name: 'blue', enabled: true, feature_enabled: true, payload });
    expect(await inPage(page, 'getVariant', off)).toMatchObject({ name: 'disabled', enabled: false });
    expect(await inPage(page, 'errors')).toEqual([]);
    // The browser asked the service itself before sending the token: no preflight was answered on the way.
    expect(preflightsTo(app, '/api/frontend?')).toBeGreaterThan(0);
  });

  it('gets a new answer when updateContext changes the userId', async () => {
    const flag = await flagWith(app, unique('bob'), [forUsers('bob')]);
    const page = await readyPage({ context: { userId: 'carol' } });
    expect(await inPage(page, 'isEnabled', flag)).toBe(false);
    await inPage(page, 'updateContext', { userId: 'bob' });
    expect(await inPage(page, 'isEnabled', flag)).toBe(true);
    await inPage(page, 'updateContext', { userId: 'carol' });
    expect(await inPage(page, 'isEnabled', flag)).toBe(false);
  });

  it('sees a flag switched off through the admin API at its next refresh', async () => {
    const flag = await flagWith(app, unique('switched'), [rollout(100, 'userId')]);
    const page = await readyPage();
    expect(await inPage(page, 'isEnabled', flag)).toBe(true);
    const updates = await inPage<number>(page, 'count', 'update');
    await turnOff(flag);
    await until('the page\'s next update', () => inPage<number>(page, 'count', 'update'), (count) => count > updates, 10_000);
    expect(await inPage(page, 'isEnabled', flag)).toBe(false);
    expect(await inPage(page, 'errors')).toEqual([]);
  });

  it('posts its metrics across origins, counted for the flag', async () => {
    const flag = await flagWith(app, unique('counted'), [rollout(100, 'userId')]);
    const appName = unique('counting-shop');
    const page = await readyPage({ appName });
    for (let i = 0; i < 3; i++) await inPage(page, 'isEnabled', flag);
    await inPage(page, 'getVariant', flag);
    const usage = await until(
      'the page\'s metrics',
      () => usageOf(flag),
      // Under load the SDK may send the four checks in two reports: wait for all of them, then check none is counted twice.
      (u) => u.metrics.some((m) => m.appName === appName && m.yes + m.no >= 4),
      10_000,
    );
    expect(usage.metrics).toEqual([expect.objectContaining({ appName, environment: 'development', yes: 4, no: 0 })]);
    // The SDK read the answer (`sent`), which the browser allows only when CORS lets the page see it.
    expect(await inPage<number>(page, 'count', 'sent')).toBeGreaterThan(0);
    expect(await inPage(page, 'errors')).toEqual([]);
    expect(preflightsTo(app, '/api/frontend/client/metrics')).toBeGreaterThan(0);
  });

  it('sends the app\'s custom headers, which pass the preflight, with every call', async () => {
    const flag = await flagWith(app, unique('headers'), [rollout(100, 'userId')]);
    const sent: { path: string; team: string | undefined }[] = [];
    profile.on('request', (request) => {
      if (request.url().startsWith(app.url)) sent.push({ path: new URL(request.url()).pathname, team: request.headers()['x-team'] });
    });
    const customHeaders = { 'X-Team': 'web', 'X-Shop-Release': '2024.6' };
    const page = await readyPage({ customHeaders, context: { userId: 'u-headers' } });
    expect(await inPage(page, 'isEnabled', flag)).toBe(true);
    await until('a metrics post', () => inPage<number>(page, 'count', 'sent'), (count) => count > 0, 10_000);
    expect(await inPage(page, 'errors')).toEqual([]);
    expect(sent.map((s) => s.path)).toEqual(expect.arrayContaining(['/api/frontend', '/api/frontend/client/metrics']));
    expect(sent.every((s) => s.team === 'web')).toBe(true);
  });
});

describe('UNLEASH_FRONTEND_API_ORIGINS, in the browser', () => {
  let blocked: TestApp;
  let listed: TestApp;
  let profile: BrowserContext;

  beforeAll(async () => {
    [blocked, listed] = await Promise.all([
      startTestApp({ frontendApiOrigins: ['https://shop.example.com'] }),
      startTestApp({ frontendApiOrigins: ['https://shop.example.com', pageOrigin] }),
    ]);
    profile = await newContext(browser, blocked.url, { alsoAllowed: [pageOrigin, listed.url] });
  });

  it('keeps the flags from a page of an origin not listed: the SDK fails and never becomes ready', async () => {
    const token = await newApiToken(blocked, { type: 'frontend', environment: 'development' });
    const flag = await flagWith(blocked, unique('elsewhere'), [rollout(100, 'userId')]);
    const { page, settled } = await shopPage(profile, blocked, token);
    expect(settled).toBe('error: fetch-toggles: Failed to fetch');
    // The service was asked, and refused the origin; the SDK keeps polling and keeps failing.
    expect(preflightsTo(blocked, '/api/frontend?')).toBeGreaterThan(0);
    await until('another failed refresh', () => inPage<string[]>(page, 'errors'), (errors) => errors.length > 1, 10_000);
    expect(await inPage(page, 'isReady')).toBe(false);
    expect(await inPage(page, 'isEnabled', flag)).toBe(false);
  });

  it('gives the flags to a page of a listed origin', async () => {
    const token = await newApiToken(listed, { type: 'frontend', environment: 'development' });
    const flag = await flagWith(listed, unique('listed'), [rollout(100, 'userId')]);
    const { page, settled } = await shopPage(profile, listed, token);
    expect(settled).toBe('ready');
    expect(await inPage(page, 'isEnabled', flag)).toBe(true);
  });
});
