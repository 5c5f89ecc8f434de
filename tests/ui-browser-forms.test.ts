// Forms that say what is wrong where the user types, in Debian's Chromium against the service on the embedded
// database: a name left with a bad format is refused on the field in plain words and nothing is sent; a name another
// flag (an archived one too), project or segment has is said on the field when it is left, and the form sends
// nothing; a refusal only the service knows (a 400 naming `body.name`) is shown on its field in plain words, with no
// regex anywhere and no notification repeating it; a good name is created and confirmed. At 800 × 900, where the
// dialogs must not scroll sideways. Runs on PGlite only (vitest.config.ts).
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { fixtures, ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { openDialog, visit } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

let app: TestApp;
let browser: Browser;
let admin: Page;
const { createFlag, archiveFlag } = fixtures(() => app, (prefix) => prefix);

/** What the user must never see: the service's regex, or a notification repeating what a field says. */
const REGEX_TRACES = ['must match pattern', '^[', '^(', '$"'];

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  await createFlag('default', 'taken-flag');
  await createFlag('default', 'gone-flag');
  await archiveFlag('default', 'gone-flag');
  await ok(app.admin.POST('/api/admin/segments', { body: { name: 'taken-segment', constraints: [] } }));
  await ok(app.admin.POST('/api/admin/projects', { body: { id: 'taken-project', name: 'Taken' } }));
  admin = await signedIn(browser, app, 'alice');
  // Narrow: the dialogs must fit without scrolling sideways.
  await admin.setViewportSize({ width: 800, height: 900 });
}, 240_000);

/** The POST requests the page sends from now on (`stop()` ends the watch and answers them as "METHOD path"). */
function watchPosts(page: Page) {
  const sent: string[] = [];
  const listener = (request: Request) => {
    if (request.method() === 'POST') sent.push(`POST ${new URL(request.url()).pathname}`);
  };
  page.on('request', listener);
  return {
    sent,
    stop: () => {
      page.off('request', listener);
      return sent;
    },
  };
}

/** Types `value` into the field and leaves it (Tab), as a person moving on to the next field. */
async function typeAndLeave(field: Locator, value: string) {
  await field.fill(value);
  await field.press('Tab');
}

/** The field's error, once it shows: the text the input is described by, with aria-invalid set. */
async function errorOf(field: Locator, said: string | RegExp) {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const dialog = field.page().getByRole('dialog');
  await dialog.getByText(said).waitFor();
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
}

async function expectNoRegexOrNotification(page: Page) {
  const text = await page.locator('body').innerText();
  for (const trace of REGEX_TRACES) expect(text).not.toContain(trace);
  expect(await page.getByText('That did not work').count()).toBe(0);
}

afterEach(async () => {
  // Whatever a test left open is closed (Escape closes a dialog).
  if (await admin.getByRole('dialog').count()) await admin.keyboard.press('Escape');
});

describe('New flag', () => {
  const open = async () => {
    await visit(admin, '/flags', 'Flags');
    const dialog = await openDialog(admin, 'New flag', 'New flag');
    return { dialog, name: dialog.getByRole('textbox', { name: 'Name' }) };
  };

  it('says on leaving the name that a space is not allowed, in plain words, and Create sends nothing', async () => {
    const { dialog, name } = await open();
    const posts = watchPosts(admin);
    await typeAndLeave(name, 'has space');
    await errorOf(name, /^Use only letters, digits and/);
    await dialog.getByRole('button', { name: 'Create flag' }).click();
    await errorOf(name, /^Use only letters, digits and/);
    expect(posts.stop()).toEqual([]);
    await expectAccessible(admin, 'the New flag dialog refusing a name');
    await expectNoSidewaysScroll(admin);
    await screenshot(admin, 'new-flag-invalid-name');
  });

  it("says on leaving the name that a flag has it, an archived flag too, and Create sends nothing", async () => {
    const { dialog, name } = await open();
    const posts = watchPosts(admin);
    await typeAndLeave(name, 'taken-flag');
    await errorOf(name, 'A flag named "taken-flag" already exists in the project "default"');
    await typeAndLeave(name, 'gone-flag');
    await errorOf(name, 'A flag named "gone-flag" already exists in the archive');
    await expectAccessible(admin, 'the New flag dialog with a taken name');
    await dialog.getByRole('button', { name: 'Create flag' }).click();
    await errorOf(name, 'A flag named "gone-flag" already exists in the archive');
    // Asked once per name, when it was left; never created.
    expect(posts.stop()).toEqual(['POST /api/admin/features/validate', 'POST /api/admin/features/validate']);
  });

  it("shows a refusal only the service knows on the name field in plain words, with no regex and no notification", async () => {
    const { dialog, name } = await open();
    await admin.route('**/api/admin/projects/default/features', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ id: '9c40958a-daac-400e-98fb-3bb438567008', name: 'ValidationError', message: 'body.name must match pattern "^[A-Za-z0-9_.~-]+$"' }),
          })
        : route.fallback(),
    );
    try {
      await typeAndLeave(name, 'refused-by-service');
      await dialog.getByRole('button', { name: 'Create flag' }).click();
      await errorOf(name, /^Use only letters, digits and/);
      expect(await dialog.isVisible()).toBe(true);
      await expectNoRegexOrNotification(admin);
      await expectAccessible(admin, 'the New flag dialog showing the service’s refusal');
    } finally {
      await admin.unrouteAll();
    }
    const missing = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: 'default', featureName: 'refused-by-service' } } });
    expect(missing.response.status).toBe(404);
  });

  it('creates a flag with a free name and confirms it', async () => {
    const { dialog, name } = await open();
    await typeAndLeave(name, 'fresh-flag');
    await dialog.getByRole('button', { name: 'Create flag' }).click();
    await admin.getByRole('alert').filter({ hasText: 'Flag fresh-flag created.' }).waitFor();
    await admin.getByRole('heading', { level: 1, name: 'fresh-flag' }).waitFor();
    expect(await ok(app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: 'default', featureName: 'fresh-flag' } } }))).toMatchObject({
      name: 'fresh-flag',
      project: 'default',
    });
  });
});

describe('New project', () => {
  it('refuses a bad and a taken id when the field is left, then creates a project with a free one and confirms it', async () => {
    await visit(admin, '/projects', 'Projects');
    const dialog = await openDialog(admin, 'New project', 'New project');
    const id = dialog.getByRole('textbox', { name: 'Id' });
    await typeAndLeave(id, 'my project');
    await errorOf(id, /^Use only letters, digits and/);
    await typeAndLeave(id, 'taken-project');
    await errorOf(id, 'A project with id "taken-project" already exists.');
    const posts = watchPosts(admin);
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await errorOf(id, 'A project with id "taken-project" already exists.');
    expect(posts.stop()).toEqual([]);
    await expectAccessible(admin, 'the New project dialog with a taken id');
    await expectNoSidewaysScroll(admin);
    await typeAndLeave(id, 'new-place');
    await typeAndLeave(dialog.getByRole('textbox', { name: 'Name' }), 'New place');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByRole('alert').filter({ hasText: 'Project New place created.' }).waitFor();
    expect(await ok(app.admin.GET('/api/admin/projects/{projectId}', { params: { path: { projectId: 'new-place' } } }))).toMatchObject({ id: 'new-place', name: 'New place' });
  });
});

describe('New segment', () => {
  it('refuses a taken name when the field is left, then creates a segment with a free one and confirms it', async () => {
    await visit(admin, '/segments', 'Segments');
    const dialog = await openDialog(admin, 'New segment', 'New segment');
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await typeAndLeave(name, 'taken-segment');
    await errorOf(name, 'A segment named "taken-segment" already exists.');
    const posts = watchPosts(admin);
    await dialog.getByRole('button', { name: 'Create segment' }).click();
    await errorOf(name, 'A segment named "taken-segment" already exists.');
    expect(posts.stop()).toEqual([]);
    await expectAccessible(admin, 'the New segment dialog with a taken name');
    await expectNoSidewaysScroll(admin);
    await typeAndLeave(name, 'fresh-segment');
    await dialog.getByRole('button', { name: 'Create segment' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByRole('alert').filter({ hasText: 'Segment fresh-segment created.' }).waitFor();
    const segments = (await ok(app.admin.GET('/api/admin/segments'))).segments.map((s) => s.name);
    expect(segments.sort()).toEqual(['fresh-segment', 'taken-segment']);
  });
});

describe('New API token', () => {
  it('refuses a blank name on leaving it, and shows a refusal of the service on its field in plain words', async () => {
    await visit(admin, '/api-tokens', 'API tokens');
    const dialog = await openDialog(admin, 'New token', 'New API token');
    const name = dialog.getByRole('textbox', { name: 'Name' });
    const posts = watchPosts(admin);
    await typeAndLeave(name, '   ');
    await errorOf(name, 'Write at least one character that is not a space');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    expect(posts.stop()).toEqual([]);
    await admin.route('**/api/admin/api-tokens', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ id: '9c40958a-daac-400e-98fb-3bb438567008', name: 'ValidationError', message: 'body.tokenName must NOT have more than 100 characters' }),
          })
        : route.fallback(),
    );
    try {
      await typeAndLeave(name, 'storefront');
      await dialog.getByRole('button', { name: 'Create token' }).click();
      await errorOf(name, 'Use at most 100 characters');
      await expectNoRegexOrNotification(admin);
      await expectAccessible(admin, 'the New API token dialog showing the service’s refusal');
      await expectNoSidewaysScroll(admin);
    } finally {
      await admin.unrouteAll();
    }
  });
});
