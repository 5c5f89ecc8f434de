// The event log in Debian's Chromium against the service on the embedded database: searching, filtering by type,
// opening an event's before/after, following a flag's link, paging 50 at a time; axe-core on each state, and no
// sideways scrolling at 800 px. Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts from PostgreSQL).
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { operations } from '../generated/api.js';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { fixtures, flagPath, ok } from './support/fixtures.js';
import { uniqueNames } from './support/events.js';
import { startUiTest } from './support/ui-build.js';
import { loaded, pick, row, visit } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

let app: TestApp;
let browser: Browser;
let page: Page;

const FLAG = 'log-banner';
const TAGGED = 'log-tagged';
const { createFlag, turnOn, tagFlag } = fixtures(() => app, uniqueNames());

const searched = (query: NonNullable<operations['searchEvents']['parameters']['query']>) => ok(app.admin.GET('/api/admin/search/events', { params: { query } }));

/** The "1–50 of 312" line under the table. */
const range = () => page.getByRole('navigation', { name: 'Event pages' }).getByText(/ of \d+$/);

/** The Event column of every row the table shows (its before/after rows aside). */
const shownTypes = () => page.getByRole('table', { name: 'Events' }).locator('tbody tr:not([id]) td:nth-child(2)').allTextContents();

async function noSidewaysScroll() {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
}

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'eve', rootRole: 'Admin' });
  await createFlag('default', FLAG, { description: 'Old words' });
  await ok(app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(FLAG) }, body: { description: 'New words' } }));
  await turnOn(FLAG);
  // Enough events for two pages and more: a flag tagged sixty times.
  await createFlag('default', TAGGED);
  for (let i = 0; i < 60; i++) await tagFlag(TAGGED, `t${i}`);
  page = await signedIn(browser, app, 'eve');
}, 600_000);

describe('the event log', () => {
  it('shows the first 50 events with "1–50 of" the total, and Next shows the next 50', async () => {
    const { total } = await searched({});
    await visit(page, '/events', 'Event log');
    await expect.poll(() => range().textContent()).toBe(`1–50 of ${total}`);
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'the event log');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => range().textContent()).toBe(`51–100 of ${total}`);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    const second = await searched({ offset: '50', limit: '50' });
    expect(await shownTypes()).toEqual(second.events.map((e) => e.type));
    await expectAccessible(page, 'the second page of the event log');
  });

  it("narrows the list to a flag's events when its name is searched", async () => {
    await visit(page, '/events', 'Event log');
    await page.getByRole('textbox', { name: 'Search' }).fill(FLAG);
    await page.waitForURL((url) => url.searchParams.get('q') === FLAG);
    const { events, total } = await searched({ query: FLAG });
    // Its creation, the description changed, the strategy switching it on gave it, and switching it on.
    expect(total).toBe(4);
    expect(events.every((e) => e.featureName === FLAG)).toBe(true);
    await expect.poll(() => range().textContent()).toBe(`1–${total} of ${total}`);
    expect(await shownTypes()).toEqual(events.map((e) => e.type));
    await expectAccessible(page, 'the event log searched');
  });

  it('shows only the events of the type chosen', async () => {
    await visit(page, '/events', 'Event log');
    await pick(page.locator('main'), 'Type', 'feature-environment-enabled');
    await page.waitForURL((url) => url.searchParams.get('type') === 'feature-environment-enabled');
    const { total } = await searched({ type: 'IS:feature-environment-enabled' });
    await expect.poll(() => range().textContent()).toBe(`1–${total} of ${total}`);
    expect(new Set(await shownTypes())).toEqual(new Set(['feature-environment-enabled']));
    await expectAccessible(page, 'the event log filtered by type');
  });

  it("opens an update event to show the flag's old description removed and the new one added", async () => {
    await visit(page, `/events?q=${FLAG}`, 'Event log');
    const update = row(page, 'Events', 'feature-metadata-updated');
    await update.getByRole('button', { name: /change/ }).click();
    const changes = page.getByRole('list', { name: /^Changes of event/ });
    await expect.poll(() => changes.getByRole('listitem').allTextContents()).toEqual(['− removed: description: "Old words"', '+ added: description: "New words"']);
    await page.getByRole('button', { name: /Show \d+ unchanged fields?/ }).click();
    await page.getByRole('list', { name: /^Unchanged fields of event/ }).getByText(`name: "${FLAG}"`).waitFor();
    await expectAccessible(page, "the event log with an event's changes open");
    await page.setViewportSize({ width: 800, height: 900 });
    await noSidewaysScroll();
    await screenshot(page, 'event-log');
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it("opens the flag's page from its name", async () => {
    await visit(page, `/events?q=${FLAG}`, 'Event log');
    await row(page, 'Events', 'feature-created').getByRole('link', { name: FLAG }).click();
    await page.getByRole('heading', { level: 1, name: FLAG }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/projects/default/features/${FLAG}`);
  });

  it("opens the project's page from its name", async () => {
    await visit(page, `/events?q=${FLAG}`, 'Event log');
    await row(page, 'Events', 'feature-created').getByRole('link', { name: 'Default' }).click();
    await page.waitForURL((url) => url.pathname === '/projects/default');
    await page.getByRole('heading', { level: 1, name: /Default/ }).waitFor();
  });

  it("shows the same before and after in the Events tab of the flag's page", async () => {
    await visit(page, `/projects/default/features/${FLAG}?tab=events`, FLAG);
    await loaded(page);
    await row(page, 'Events', 'feature-metadata-updated').getByRole('button', { name: /change/ }).click();
    await page.getByRole('list', { name: /^Changes of event/ }).getByText('description: "Old words"').waitFor();
    await expectAccessible(page, "a flag's events with an event's changes open");
  });

  it('does not scroll sideways at 800 × 900', async () => {
    await page.setViewportSize({ width: 800, height: 900 });
    await visit(page, '/events', 'Event log');
    await noSidewaysScroll();
    await page.setViewportSize({ width: 1280, height: 860 });
  });
});
