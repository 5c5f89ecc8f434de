// Debian's Chromium driven by playwright-core, for the admin UI's tests: one browser per test worker, a fresh
// context (cookies) per user, axe-core run on every page visited, screenshots into reports/ui/ (git-ignored).
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { sessionOf, USER_PASSWORD } from './users.js';
import { afterFile } from './file-end.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve('reports', 'ui');

let launched: Promise<Browser> | undefined;

/**
 * Chromium, one per test worker: launched by the first file that asks and kept for the next ones (each file's
 * profiles are closed after it), as a launch costs about a second while the suite shares two cores. Playwright ends it
 * with the worker. Fails (never skips) when it is missing: `.ci/run` installs it.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does) or set CHROMIUM_PATH.`);
  }
  const running = await launched?.catch(() => undefined);
  if (running?.isConnected()) return running;
  launched = chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return launched;
}

export interface ContextOptions {
  /**
   * Other origins (`http://localhost:5173`) its pages may reach besides the service: a page served from an origin of
   * its own, another instance. Then no request is intercepted, only watched: while any route is set, Playwright
   * answers every CORS preflight itself (204, allowing whatever was asked), which would hide the service's CORS from a
   * cross-origin test. A request outside these origins still fails the test, and never leaves the machine: it goes to
   * a proxy that closes every connection (loopback addresses bypass it).
   */
  alsoAllowed?: string[];
}

/** A new browser profile at the service; every request it makes outside the service (and `alsoAllowed`) fails the test. */
export async function newContext(browser: Browser, baseURL: string, options: ContextOptions = {}): Promise<BrowserContext> {
  // UTC, so that dates entered in local time read the same on every machine.
  const settings = { baseURL, viewport: { width: 1280, height: 860 }, timezoneId: 'UTC', locale: 'en-GB' };
  if (options.alsoAllowed) return watchedContext(browser, settings, [baseURL, ...options.alsoAllowed]);
  const context = await browser.newContext(settings);
  const outside: string[] = [];
  await context.route(
    (url) => !url.href.startsWith(baseURL),
    (route) => {
      outside.push(route.request().url());
      return route.abort();
    },
  );
  afterFile(() => {
    expect(outside, 'requests that left the machine').toEqual([]);
    return context.close();
  });
  return context;
}

/** A profile whose requests outside `origins` go to a proxy that closes every connection, and fail the test. */
async function watchedContext(browser: Browser, settings: Parameters<Browser['newContext']>[0], origins: string[]): Promise<BrowserContext> {
  const deadEnd = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => deadEnd.listen(0, '127.0.0.1', resolve));
  const proxy = { server: `http://127.0.0.1:${(deadEnd.address() as AddressInfo).port}`, bypass: 'localhost,127.0.0.1,[::1]' };
  const context = await browser.newContext({ ...settings, proxy });
  const allowed = new Set(origins.map((origin) => new URL(origin).origin));
  const outside: string[] = [];
  context.on('request', (request) => {
    if (!allowed.has(new URL(request.url()).origin)) outside.push(request.url());
  });
  afterFile(async () => {
    await context.close();
    await new Promise((resolve) => deadEnd.close(resolve));
    expect(outside, 'requests outside the allowed origins').toEqual([]);
  });
  return context;
}

let axeSource: string | undefined;

/** Waits for the page's animations to end: a dialog's fade-in, a notification sliding in, a hover's transition. */
const settled = (page: Page) => page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));

/** axe-core's findings on the page as it is now: every violation, of any impact, fails the test. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  axeSource ??= await readFile(path.resolve('node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  // Colours are checked as they settle, not halfway through a transition.
  await settled(page);
  // Loaded once per document: the UI moves between its pages without loading another.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; help: string; nodes: { target: unknown; failureSummary?: string }[] }[] };
    type Axe = { run(options: { resultTypes: string[] }): Promise<Result> };
    // Only violations are read: axe-core then spends no time listing every node that passed.
    const result = await (window as unknown as { axe: Axe }).axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${JSON.stringify(n.target)}: ${n.failureSummary ?? ''}`),
    }));
  });
  expect(violations, `axe-core on ${what}`).toEqual([]);
}

/** Whether the page scrolls sideways at 800 × 900 (the window is put back to its size afterwards). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  const before = page.viewportSize()!;
  await page.setViewportSize({ width: 800, height: 900 });
  try {
    return await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  } finally {
    await page.setViewportSize(before);
  }
}

/** A screenshot of the whole page into reports/ui/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** A new page (no document loaded yet) in a browser profile of its own at the service. */
export async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const page = await (await newContext(browser, baseURL)).newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

/**
 * A page in a browser profile of its own holding `username`'s session, no document loaded yet: the test's first visit
 * is its first page load. The session comes from the API's sign-in, which costs two page loads less than the form
 * (its own and the flag list after it): the form is checked in ui-browser.test.ts, and where a password was just set.
 */
export async function signedIn(browser: Browser, app: TestApp, username: string, password = USER_PASSWORD): Promise<Page> {
  const cookie = await sessionOf(app, username, password);
  const page = await newPage(browser, app.url);
  const equals = cookie.indexOf('=');
  await page.context().addCookies([{ name: cookie.slice(0, equals), value: cookie.slice(equals + 1), url: app.url, httpOnly: true, sameSite: 'Lax' }]);
  return page;
}

/** A page in a browser profile of its own, signed in as `username`, on the flag list. */
export async function signedInOnFlags(browser: Browser, app: TestApp, username: string): Promise<Page> {
  const page = await signedIn(browser, app, username);
  await page.goto('/flags');
  await page.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
  return page;
}

/** A page in a browser profile of its own, signed in as `username` through the sign-in form, on the flag list. */
export async function signedInThroughForm(browser: Browser, app: TestApp, username: string, password = USER_PASSWORD): Promise<Page> {
  const page = await newPage(browser, app.url);
  await page.goto('/flags');
  await page.getByLabel('Username or email').fill(username);
  await page.locator('input[type=password]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
  return page;
}
