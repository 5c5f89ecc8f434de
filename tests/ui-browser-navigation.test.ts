// The admin UI's frame in Debian's Chromium, against the service on the embedded database (issue 30, item 7): the
// navigation in labelled groups (only what the user may use), the product's name, the flag search (Ctrl+K or the
// header's button), and a cold page load that asks for its data without waiting for the signed-in user's answer.
// Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts from the PostgreSQL run).
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn, signedInOnFlags } from './support/browser.js';
import { ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { loaded } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

let app: TestApp;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  await createUser(app, { username: 'victor', rootRole: 'Viewer' });
  await ok(app.admin.POST('/api/admin/projects', { body: { id: 'payments', name: 'Payments' } }));
  for (const name of ['checkout-v2', 'invoice-pdf']) await ok(app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'payments' } }, body: { name } }));
  await ok(app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'default' } }, body: { name: 'dark-mode' } }));
  admin = await signedInOnFlags(browser, app, 'alice');
}, 240_000);

/** The entries of each group of the navigation, by the group's label (as a screen reader names its list). */
async function navigationGroups(page: Page): Promise<Record<string, string[]>> {
  const navigation = page.getByRole('navigation', { name: 'Main' });
  const groups: Record<string, string[]> = {};
  for (const list of await navigation.getByRole('list').all()) {
    const label = await list.evaluate((element) => document.getElementById(element.getAttribute('aria-labelledby') ?? '')?.textContent ?? '');
    expect(await navigation.getByRole('list', { name: label, exact: true }).count(), `the list named ${label}`).toBe(1);
    groups[label] = (await list.getByRole('link').allTextContents()).map((text) => text.trim());
  }
  return groups;
}

describe('the navigation', () => {
  it('shows every entry in a labelled group: flags and projects, configuration, access, operations', async () => {
    expect(await navigationGroups(admin)).toEqual({
      'Flags & projects': ['Flags', 'Projects', 'Archive'],
      Configuration: ['Environments', 'Segments', 'Context fields', 'Strategies', 'Tag types', 'Release templates', 'Integrations'],
      Access: ['Users', 'Groups', 'Roles', 'API tokens', 'Settings'],
      Operations: ['Applications', 'Event log', 'Change requests', 'Playground'],
    });
    // The labels are shown, not only announced.
    for (const label of ['Flags & projects', 'Configuration', 'Access', 'Operations']) expect(await admin.getByRole('navigation', { name: 'Main' }).getByText(label, { exact: true }).isVisible(), label).toBe(true);
    const current = admin.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');
    expect(await current.allTextContents()).toEqual(['Flags']);
    await loaded(admin);
    await expectAccessible(admin, 'the flag list with the grouped navigation');
    await screenshot(admin, 'navigation');
  });

  it('shows a Viewer only the entries they may use', async () => {
    const page = await signedInOnFlags(browser, app, 'victor');
    expect(await navigationGroups(page)).toEqual({
      'Flags & projects': ['Flags', 'Projects', 'Archive'],
      Configuration: ['Environments', 'Segments', 'Context fields', 'Strategies', 'Tag types', 'Release templates', 'Integrations'],
      Access: ['Groups', 'Roles'],
      Operations: ['Applications', 'Change requests', 'Playground'],
    });
    await page.close();
  });

  it("shows the product's name in the header and in the document's title", async () => {
    await admin.getByRole('banner').getByRole('link', { name: 'Feature flag service' }).getByText('Feature flag service', { exact: true }).waitFor();
    expect(await admin.title()).toBe('Flags · Feature flag service');
  });
});

describe('the flag search', () => {
  const dialog = () => admin.getByRole('dialog', { name: 'Search flags' });
  const field = () => dialog().getByRole('combobox', { name: 'Flag' });
  /** The flags listed, each as its name and project ("checkout-v2 in Payments"). */
  const listed = () => dialog().getByRole('option').evaluateAll((options) => options.map((option) => (option as HTMLElement).innerText.replace(/\s+/g, ' ')));

  it('opens with Ctrl+K, finds a flag by part of its name, and opens its page with ArrowDown and Enter', async () => {
    await admin.goto('/flags');
    await admin.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
    await admin.keyboard.press('Control+K');
    await expect.poll(() => field().evaluate((input) => input === document.activeElement)).toBe(true);
    await admin.keyboard.type('ckout-v');
    await expect.poll(listed).toEqual(['checkout-v2 in Payments']);
    const found = dialog().getByRole('listbox', { name: 'Flags found' }).getByRole('option');
    await expectAccessible(admin, 'the flag search with a flag found');
    await screenshot(admin, 'quick-search');
    await admin.keyboard.press('ArrowDown');
    expect(await found.first().getAttribute('aria-selected')).toBe('true');
    expect(await field().getAttribute('aria-activedescendant')).toBe(await found.first().getAttribute('id'));
    await admin.keyboard.press('Enter');
    await admin.getByRole('heading', { level: 1, name: 'checkout-v2' }).waitFor();
    expect(new URL(admin.url()).pathname).toBe('/projects/payments/features/checkout-v2');
    await dialog().waitFor({ state: 'detached' });
  });

  it("opens from the header's button, lists what matches, and closes with Escape", async () => {
    const button = admin.getByRole('banner').getByRole('button', { name: 'Search flags' });
    expect(await button.textContent()).toContain('Ctrl K');
    await button.click();
    await field().fill('-');
    await expect.poll(listed).toEqual(['checkout-v2 in Payments', 'dark-mode in Default', 'invoice-pdf in Payments']);
    await admin.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(new URL(admin.url()).pathname).toBe('/projects/payments/features/checkout-v2');
  });
});

describe('a cold page load', () => {
  /**
   * Loads `path` in a new profile of a Viewer with the answer to GET /api/admin/user held back until the page's data
   * request `dataPath` is sent (or at most 5 s): what happened first, the data request sent or the user's answer.
   */
  async function firstOnColdLoad(path: string, dataPath: string) {
    const page = await signedIn(browser, app, 'victor');
    const order: string[] = [];
    let dataSent = () => {};
    let userAnswered = () => {};
    const sent = new Promise<void>((resolve) => (dataSent = resolve));
    const answered = new Promise<void>((resolve) => (userAnswered = resolve));
    page.on('request', (request) => {
      if (new URL(request.url()).pathname !== dataPath) return;
      order.push('data request sent');
      dataSent();
    });
    page.on('requestfinished', (request) => {
      if (new URL(request.url()).pathname !== '/api/admin/user') return;
      order.push('user answered');
      userAnswered();
    });
    await page.route('**/api/admin/user', async (route) => {
      // A page that waits for this answer sends its data request only after it: held 5 s, then let through.
      await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, 5000))]);
      await route.continue();
    });
    await page.goto(path);
    await Promise.all([sent, answered]);
    return { page, first: order[0] };
  }

  it("sends the flag list's data request before the signed-in user is known, and shows a Viewer no New flag", async () => {
    const { page, first } = await firstOnColdLoad('/flags', '/api/admin/search/features');
    expect(first).toBe('data request sent');
    await page.getByRole('table', { name: 'Flags' }).getByRole('link', { name: 'checkout-v2' }).waitFor();
    await loaded(page);
    expect(await page.getByRole('button', { name: 'New flag' }).count()).toBe(0);
    await page.close();
  });

  it("sends a flag page's data request before the signed-in user is known, and shows a Viewer no edit control", async () => {
    const { page, first } = await firstOnColdLoad('/projects/payments/features/checkout-v2', '/api/admin/projects/payments/features/checkout-v2');
    expect(first).toBe('data request sent');
    await page.getByRole('heading', { level: 1, name: 'checkout-v2' }).waitFor();
    await loaded(page);
    for (const control of ['Archive', 'Add strategy', 'Edit', 'Add tag']) expect(await page.getByRole('button', { name: control }).count(), control).toBe(0);
    expect(await page.getByRole('switch').count()).toBe(0);
    await page.close();
  });
});
