// A flag's Usage tab in Debian's Chromium against the service on the embedded database (issue 30, item 5): two
// applications report yes/no and variant counts through the client API, this hour, 30 hours and 100 hours ago; the
// tab's totals, per-application and per-variant tables equal what was sent over the period chosen, the chart has
// axes and a legend, each environment says when it last saw the flag, and a flag never reported says what to do.
// axe-core on each state; no sideways scroll at 800 × 900. Runs on PGlite only (vitest.config.ts).
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok, reportMetrics, sdkMetrics, until } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { loaded } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

const HOUR = 3_600_000;
const FLAG = 'usage-checkout';
const UNREPORTED = 'usage-unreported';

interface Report {
  appName: string;
  hoursAgo: number;
  yes: number;
  no: number;
  variants: Record<string, number>;
}

/** What the SDKs send, in production: two applications this hour, one 30 hours ago, one 100 hours ago. */
const REPORTS: Report[] = [
  { appName: 'shop-web', hoursAgo: 100, yes: 0, no: 7, variants: {} },
  { appName: 'shop-web', hoursAgo: 30, yes: 50, no: 0, variants: { green: 50 } },
  { appName: 'shop-web', hoursAgo: 0, yes: 30, no: 10, variants: { blue: 25, green: 5 } },
  { appName: 'shop-ios', hoursAgo: 0, yes: 6, no: 14, variants: { blue: 4 } },
];

/** The reports the period of `hours` (the current hour included) covers. */
const within = (hours: number) => REPORTS.filter((r) => r.hoursAgo < hours);
const sum = (reports: Report[], of: (r: Report) => number) => reports.reduce((total, r) => total + of(r), 0);
const share = (part: number, whole: number) => `${Math.round((part / whole) * 1000) / 10}%`;

/** The three totals as the tab should show them for the reports. */
function totals(reports: Report[]) {
  const yes = sum(reports, (r) => r.yes);
  const requests = sum(reports, (r) => r.yes + r.no);
  return { Exposures: String(yes), 'Share on': share(yes, requests), Requests: String(requests) };
}

let app: TestApp;
let browser: Browser;
let page: Page;
const { createFlag } = fixtures(() => app, uniqueNames());

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  await createFlag('default', FLAG);
  await createFlag('default', UNREPORTED);
  const token = await newApiToken(app, { type: 'client', environment: 'production', projects: ['*'] });
  const now = Date.now();
  for (const report of REPORTS) {
    const stop = new Date(now - report.hoursAgo * HOUR).toISOString();
    await ok(reportMetrics(app, token, sdkMetrics(report.appName, 'i-1', stop, { [FLAG]: { yes: report.yes, no: report.no, variants: report.variants } })), 202);
  }
  await until(
    'the reports to be written',
    () => ok(app.admin.GET('/api/admin/client-metrics/features/{featureName}/raw', { params: { path: { featureName: FLAG }, query: { hoursBack: 168 } } })),
    (usage) => usage.metrics.length === REPORTS.length,
  );
  page = await signedIn(browser, app, 'alice');
}, 240_000);

/** Opens the flag's page and its Usage tab, as a user would. */
async function openUsage(flag: string): Promise<void> {
  await page.goto(`/projects/default/features/${flag}`);
  await page.getByRole('heading', { level: 1, name: flag }).waitFor();
  await page.getByRole('tab', { name: 'Usage' }).click();
  await loaded(page);
}

/** Picks a period (1 h, 24 h, 48 h, 7 d). */
const choosePeriod = (label: string) => page.getByRole('radiogroup', { name: 'Period' }).getByText(label, { exact: true }).click();

/** The figure a total shows (its name, then the figure, then what it means). */
const total = (name: string) => page.getByRole('group', { name, exact: true }).locator('p').nth(1).innerText();

const shownTotals = async () => ({ Exposures: await total('Exposures'), 'Share on': await total('Share on'), Requests: await total('Requests') });

/** The table's body rows, cell by cell. */
const rowsOf = (name: string) =>
  page
    .getByRole('table', { name })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell as HTMLElement).innerText.trim())));

describe("a flag's usage in the browser", () => {
  it('says what to do when no SDK has reported the flag yet, with a link to API tokens', async () => {
    await openUsage(UNREPORTED);
    await page.getByText('No SDK has reported this flag yet — connect one with a client token from').waitFor();
    expect(await page.getByRole('link', { name: 'API tokens' }).last().getAttribute('href')).toBe('/api-tokens');
    await expectAccessible(page, 'the usage tab of a flag never reported');
    await screenshot(page, 'flag-usage-empty');
  });

  it('totals the last 24 hours by default: exposures, share on and requests of what the SDKs sent', async () => {
    await openUsage(FLAG);
    await page.getByRole('img', { name: /^Last 24 hours: / }).waitFor();
    expect(await page.getByRole('radiogroup', { name: 'Environment' }).getByRole('radio', { checked: true }).getAttribute('value')).toBe('production');
    expect(await shownTotals()).toEqual(totals(within(24)));
    await expectAccessible(page, 'the usage tab, last 24 hours');
    await screenshot(page, 'flag-usage');
  });

  it('breaks the period down per application and per variant', async () => {
    expect(await rowsOf('Usage per application')).toEqual([
      ['shop-web', '30', '10', '40', '75%'],
      ['shop-ios', '6', '14', '20', '30%'],
    ]);
    expect(await rowsOf('Usage per variant')).toEqual([
      ['blue', '29', share(29, 34)],
      ['green', '5', share(5, 34)],
    ]);
  });

  it('draws the evaluations as bars with axes and a legend of on and off', async () => {
    const recent = within(24);
    const name = `Last 24 hours: ${sum(recent, (r) => r.yes)} times on, ${sum(recent, (r) => r.no)} times off`;
    const chart = page.getByRole('img', { name, exact: true });
    const svg = chart.locator('svg.recharts-surface');
    await svg.first().waitFor();
    expect(await svg.locator('.recharts-xAxis .recharts-cartesian-axis-tick').count()).toBeGreaterThan(1);
    expect(await svg.locator('.recharts-yAxis .recharts-cartesian-axis-tick').count()).toBeGreaterThan(1);
    expect(await svg.locator('text').allTextContents()).toEqual(expect.arrayContaining(['Start of each hour', 'Evaluations']));
    expect(await chart.locator('.recharts-legend-wrapper').innerText()).toMatch(/On\s+Off/);
    expect(await svg.locator('.recharts-bar-rectangle path').count()).toBeGreaterThan(0);
  });

  it('adds the report of 30 hours ago to the totals and the tables when the period goes from 24 h to 48 h', async () => {
    await choosePeriod('48 h');
    await page.getByRole('img', { name: /^Last 48 hours: / }).waitFor();
    await expect.poll(shownTotals).toEqual(totals(within(48)));
    expect(totals(within(48))).not.toEqual(totals(within(24)));
    expect(await rowsOf('Usage per application')).toEqual([
      ['shop-web', '80', '10', '90', share(80, 90)],
      ['shop-ios', '6', '14', '20', '30%'],
    ]);
    expect(await rowsOf('Usage per variant')).toEqual([
      ['green', '55', share(55, 84)],
      ['blue', '29', share(29, 84)],
    ]);
    expect(await page.getByRole('img', { name: /^Last 48 hours: / }).locator('svg.recharts-surface text').allTextContents()).toContain('Start of each 2 hours');
    await expectAccessible(page, 'the usage tab, last 48 hours');
  });

  it('adds the report of 100 hours ago over 7 days, and keeps only this hour over 1 hour', async () => {
    await choosePeriod('7 d');
    await page.getByRole('img', { name: /^Last 7 days: / }).waitFor();
    await expect.poll(shownTotals).toEqual(totals(within(168)));
    await choosePeriod('1 h');
    await page.getByRole('img', { name: /^This hour: / }).waitFor();
    await expect.poll(shownTotals).toEqual(totals(within(1)));
    await expectAccessible(page, 'the usage tab, this hour');
  });

  it('says when each environment last saw the flag', async () => {
    const flag = await ok(app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: 'default', featureName: FLAG } } }));
    const table = page.getByRole('table', { name: 'Last seen per environment' });
    for (const environment of flag.environments) {
      const row = table.locator('tbody tr').filter({ has: page.getByRole('cell', { name: environment.name, exact: true }) });
      if (environment.lastSeenAt === null) expect(await row.locator('td').nth(1).innerText()).toBe('Never');
      else expect(await row.locator('time').getAttribute('datetime')).toBe(environment.lastSeenAt);
    }
    expect(flag.environments.find((e) => e.name === 'production')?.lastSeenAt).not.toBeNull();
    expect(flag.environments.some((e) => e.lastSeenAt === null)).toBe(true);
  });

  it('does not scroll sideways at 800 × 900', async () => {
    await page.setViewportSize({ width: 800, height: 900 });
    await choosePeriod('24 h');
    await page.getByRole('img', { name: /^Last 24 hours: / }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await expectAccessible(page, 'the usage tab at 800 px');
    await screenshot(page, 'flag-usage-800');
  });
});
