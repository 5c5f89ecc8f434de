// Every page of the admin UI's navigation, in Debian's Chromium at 800 × 900 against the service on the embedded
// database: none scrolls sideways, none has an axe-core violation, and each is photographed into reports/ui/. The
// pages are read from the navigation as an Admin sees it, so a page added to it is checked here without a change.
// Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts from the PostgreSQL run).
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, newPage, screenshot, signedIn } from './support/browser.js';
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
  // Something on most pages: a project with a flag that has a constrained rollout in a segment, and a tag type.
  await ok(app.admin.POST('/api/admin/projects', { body: { id: 'payments', name: 'Payments' } }));
  const segment = await ok(app.admin.POST('/api/admin/segments', { body: { name: 'beta-testers', constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }] } }));
  const flag = { projectId: 'payments', featureName: 'checkout-v2' };
  await ok(app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'payments' } }, body: { name: 'checkout-v2', description: 'The one-page checkout' } }));
  await ok(
    app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: { ...flag, environment: 'development' } },
      body: { name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'default', groupId: 'checkout-v2' }, constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }], segments: [segment.id] },
    }),
  );
  await ok(app.admin.POST('/api/admin/tag-types', { body: { name: 'team' } }));
  admin = await signedIn(browser, app, 'alice');
  await admin.setViewportSize({ width: 800, height: 900 });
}, 240_000);

/** The links of the navigation, as the Admin sees them. */
const navigation = (page: Page) => page.getByRole('navigation', { name: 'Main' });

describe('every page of the navigation', () => {
  it('at 800 × 900 scrolls none sideways and has no axe-core violation on any', async () => {
    await admin.goto('/flags');
    await admin.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
    const entries = await navigation(admin)
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => ({ name: (link.textContent ?? '').trim(), path: link.getAttribute('href') ?? '' })));
    expect(entries.length, 'the navigation has its entries').toBeGreaterThanOrEqual(19);
    // Every page is checked, and all that fail are named together.
    const failures: string[] = [];
    for (const { name, path } of entries) {
      // As a user at this width: the menu opened, the page's entry clicked.
      await admin.getByRole('button', { name: 'Navigation' }).click();
      await navigation(admin).getByRole('link', { name, exact: true }).click();
      await admin.waitForURL((url) => url.pathname === path);
      await admin.getByRole('heading', { level: 1 }).waitFor();
      await loaded(admin);
      try {
        const { scrollWidth, clientWidth } = await admin.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
        expect(scrollWidth, `${name} (${path}) is ${scrollWidth} px wide in a window of ${clientWidth} px`).toBeLessThanOrEqual(clientWidth);
        await expectAccessible(admin, `the ${name} page at 800 px`);
      } catch (error) {
        failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      await screenshot(admin, `page-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`);
    }
    expect(failures).toEqual([]);
  }, 240_000);
});

/** Checks the page at `path` as the navigation sweep does: no sideways scroll, no axe-core violation, a screenshot. */
async function sweep(page: Page, path: string, name: string, failures: string[]): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await loaded(page);
  try {
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    expect(scrollWidth, `${path} is ${scrollWidth} px wide in a window of ${clientWidth} px`).toBeLessThanOrEqual(clientWidth);
    await expectAccessible(page, `${path} at 800 px`);
  } catch (error) {
    failures.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  await screenshot(page, `page-${name}`);
}

describe('the pages reached from others', () => {
  it("at 800 × 900 a flag's and a project's every tab, the profile and the sign-in page scroll none sideways and have no axe-core violation", async () => {
    const failures: string[] = [];
    const flag = '/projects/payments/features/checkout-v2';
    for (const tab of ['environments', 'variants', 'usage', 'events']) await sweep(admin, `${flag}?tab=${tab}`, `flag-${tab}`, failures);
    for (const tab of ['flags', 'members', 'change-requests', 'settings']) await sweep(admin, `/projects/payments?tab=${tab}`, `project-${tab}`, failures);
    await sweep(admin, '/profile', 'profile', failures);
    const signedOut = await newPage(browser, app.url);
    await signedOut.setViewportSize({ width: 800, height: 900 });
    await sweep(signedOut, '/signin', 'sign-in', failures);
    expect(failures).toEqual([]);
  }, 240_000);
});
