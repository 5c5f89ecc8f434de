// The admin UI in Debian's Chromium, against the service on the embedded database: the flows of issue 18, an
// axe-core check of every page visited, and screenshots into reports/ui/. Runs on PGlite only (vitest.config.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from './support/app.js';
import { expectAccessible, newContext, screenshot, signedIn, signedInOnFlags } from './support/browser.js';
import { uniqueNames } from './support/events.js';
import { envPath, fixtures, newApiToken, ok, reportMetrics, sdkMetrics, until } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { loaded } from './support/ui-dialogs.js';
import { createUser, USER_PASSWORD } from './support/users.js';

const FLAG = 'checkout-redesign';

/** The flags' names in the flag list, in its order (its other links, such as each flag's project, left out). */
const flagLinks = (page: Page) => page.getByRole('table', { name: 'Flags' }).locator('a[href*="/features/"]');

let app: TestApp;
let browser: Browser;
let clientToken: string;
let admin: Page;

const { createFlag, addStrategy } = fixtures(() => app, uniqueNames());

/** What SDKs reading development see of the flag (undefined when they do not see it). */
async function clientFlag() {
  const { data } = await app.clientWith(clientToken).GET('/api/client/features');
  return data?.features.find((f) => f.name === FLAG);
}

/** Opens a page through the navigation, as a user would, and waits until its data has loaded. */
async function visitThroughNav(page: Page, link: string, heading = link) {
  await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await loaded(page);
}

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  clientToken = await newApiToken(app, { type: 'client', environment: 'development' });
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  admin = await signedInOnFlags(browser, app, 'alice');
}, 240_000);

describe('an admin in the browser', () => {
  it('lands on the sign-in page when not signed in, and on the page asked for after signing in', async () => {
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await page.goto('/api-tokens');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).search).toBe('?next=%2Fapi-tokens');
    await expectAccessible(page, 'the sign-in page');
    await screenshot(page, '01-sign-in');
    await page.getByLabel('Username or email').fill('alice');
    await page.locator('input[type=password]').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/.+/);
    await page.locator('input[type=password]').fill(USER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
  });

  it('creates a flag, and lands on its page', async () => {
    const page = admin;
    await page.getByRole('button', { name: 'New flag' }).click();
    const dialog = page.getByRole('dialog', { name: 'New flag' });
    await dialog.getByLabel('Name').fill(FLAG);
    await dialog.getByLabel('Description').fill('The one-page checkout');
    await expectAccessible(page, 'the new flag dialog');
    await dialog.getByRole('button', { name: 'Create flag' }).click();
    await page.getByRole('heading', { level: 1, name: FLAG }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/projects/default/features/${FLAG}`);
  });

  it('adds a gradual rollout with a constraint in development', async () => {
    const page = admin;
    await page.goto(`/projects/default/features/${FLAG}`);
    const development = page.getByRole('region', { name: 'Environment development' });
    await development.getByRole('button', { name: 'Add strategy' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Rollout percentage').fill('50');
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const userId = dialog.getByRole('group', { name: 'Constraint 1' });
    await userId.getByRole('combobox', { name: 'Context field' }).click();
    await page.getByRole('option', { name: 'userId' }).click();
    const values = userId.getByLabel('Values');
    await values.fill('alice');
    await values.press('Enter');
    await values.fill('bob');
    await values.press('Enter');
    // The value input follows the operator: a number for NUM_GT, a date and time for DATE_AFTER.
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const time = dialog.getByRole('group', { name: 'Constraint 2' });
    await time.getByRole('combobox', { name: 'Context field' }).click();
    await page.getByRole('option', { name: 'currentTime' }).click();
    await time.getByRole('combobox', { name: 'Operator' }).click();
    await page.getByRole('option', { name: '> (NUM_GT)' }).click();
    await time.getByLabel('Number').fill('ten');
    await expect.poll(() => time.getByRole('status').textContent()).toBe('"ten" is not a number.');
    expect(await dialog.getByRole('button', { name: 'Save strategy' }).isDisabled()).toBe(true);
    await time.getByRole('combobox', { name: 'Operator' }).click();
    await page.getByRole('option', { name: 'is after (DATE_AFTER)' }).click();
    await time.getByLabel('Date and time').fill('2026-01-31T12:00');
    await expectAccessible(page, 'the strategy dialog');
    await screenshot(page, '04-strategy-dialog');
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'detached' });
    await development.getByText('userId is one of alice, bob').waitFor();
    await development.getByText('currentTime is after 2026-01-31T12:00:00Z').waitFor();
  });

  it('turns the flag on in development, and SDKs get it with its strategy at once', async () => {
    const page = admin;
    await page.goto(`/projects/default/features/${FLAG}`);
    expect((await clientFlag())?.enabled).toBe(false);
    await page.getByRole('switch', { name: 'development: off' }).click({ force: true });
    await page.getByRole('switch', { name: 'development: on' }).waitFor();
    const flag = await until('the client API to show the flag on', clientFlag, (f) => f?.enabled === true);
    expect(flag?.strategies).toMatchObject([
      {
        name: 'flexibleRollout',
        parameters: { rollout: '50' },
        constraints: [
          { contextName: 'userId', operator: 'IN', values: ['alice', 'bob'] },
          { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2026-01-31T12:00:00Z' },
        ],
      },
    ]);
    await loaded(page);
    await expectAccessible(page, 'the flag page');
    await screenshot(page, '03-flag');
  });

  it("shows the flag's variants with balanced weights, and its events", async () => {
    const page = admin;
    await page.goto(`/projects/default/features/${FLAG}`);
    await page.getByRole('tab', { name: 'Variants' }).click();
    await page.getByRole('button', { name: 'Add variant' }).click();
    await page.getByRole('button', { name: 'Add variant' }).click();
    await page.getByRole('button', { name: 'Add variant' }).click();
    await page.getByText('Weights: variant1 33.4 % · variant2 33.3 % · variant3 33.3 %').waitFor();
    await page.getByRole('button', { name: 'Save variants' }).click();
    await until('the variants to be stored', async () => (await clientFlag())?.variants?.map((v) => v.weight), (w) => w?.join() === '334,333,333');
    await expectAccessible(page, 'the variants tab');
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByRole('table', { name: 'Events' }).getByText('feature-environment-enabled').waitFor();
    await expectAccessible(page, 'the events tab');
    await ok(reportMetrics(app, clientToken, sdkMetrics('shop', 'i-1', new Date().toISOString(), { [FLAG]: { yes: 3, no: 1, variants: {} } })), 202);
    await until('the report to be written', async () => (await app.admin.GET('/api/admin/client-metrics/features/{featureName}/raw', { params: { path: { featureName: FLAG } } })).data?.metrics.length, (n) => n === 1);
    await page.getByRole('tab', { name: 'Usage' }).click();
    await page.getByRole('img', { name: 'Last 24 hours: 3 times on, 1 time off' }).waitFor();
    await expectAccessible(page, 'the usage tab');
    await screenshot(page, '09-flag-usage');
    await page.getByRole('tab', { name: 'Environments' }).click();
  });

  it('lists, filters and sorts flags', async () => {
    const page = admin;
    await page.goto('/api-tokens');
    for (const name of ['list-alpha', 'list-beta']) await createFlag('default', name, { type: 'experiment' });
    await visitThroughNav(page, 'Flags');
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Experiment' }).click();
    await expect.poll(() => flagLinks(page).allTextContents()).toEqual(['list-beta', 'list-alpha']);
    await page.getByRole('button', { name: 'Name' }).click();
    await page.getByRole('button', { name: 'Name' }).click();
    await expect.poll(() => flagLinks(page).allTextContents()).toEqual(['list-alpha', 'list-beta']);
    expect(new URL(page.url()).search).toBe('?type=experiment&sort=name&order=asc');
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Experiment' }).click();
    await page.getByRole('textbox', { name: 'Search' }).fill('checkout');
    await expect.poll(() => flagLinks(page).allTextContents()).toEqual([FLAG]);
    // Its project by name, a link to the project's page.
    expect(await page.getByRole('table', { name: 'Flags' }).getByRole('link', { name: 'Default', exact: true }).getAttribute('href')).toBe('/projects/default');
    await page.getByRole('textbox', { name: 'Search' }).fill('');
    await expect.poll(() => flagLinks(page).count()).toBe(3);
    await expectAccessible(page, 'the flag list');
    await screenshot(page, '02-flags');
  });

  it('archives the flag, and SDKs stop getting it', async () => {
    const page = admin;
    await page.goto('/flags');
    await page.getByRole('link', { name: FLAG }).click();
    await ok(
      app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants', {
        params: { path: envPath('list-alpha') },
        body: [{ name: 'treatment', weightType: 'variable', stickiness: 'default' }],
      }),
    );
    await page.getByRole('button', { name: 'Add dependency' }).click();
    await page.getByRole('combobox', { name: 'Parent flag' }).fill('alpha');
    await page.getByRole('option', { name: 'list-alpha' }).click();
    // The parent's variants are offered.
    await page.getByRole('combobox', { name: 'Parent variants' }).click();
    await page.getByRole('option', { name: 'treatment' }).click();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Remove dependency on list-alpha' }).waitFor();
    await page.getByRole('button', { name: 'Complete' }).click();
    const completion = page.getByRole('dialog', { name: `Complete ${FLAG}` });
    await completion.getByLabel('What was kept').fill('blue');
    await completion.getByRole('button', { name: 'Complete' }).click();
    await page.getByText('completed: kept (blue)', { exact: true }).waitFor();
    const completed = (await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: 'default', featureName: FLAG } } })).data;
    expect(completed?.dependencies).toEqual([{ feature: 'list-alpha', enabled: true, variants: ['treatment'] }]);
    expect(completed?.lifecycle).toMatchObject({ stage: 'completed', status: 'kept', statusValue: 'blue' });
    await expectAccessible(page, 'the flag page with a dependency, completed');
    await page.getByRole('button', { name: 'Undo completion' }).click();
    await page.getByRole('dialog', { name: `Undo the completion of ${FLAG}?` }).getByRole('button', { name: 'Undo completion' }).click();
    await page.getByText('pre-live', { exact: true }).waitFor();
    const lifecycle = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}/lifecycle', { params: { path: { projectId: 'default', featureName: FLAG } } });
    expect(lifecycle.data?.map((s) => s.stage)).toEqual(['initial', 'pre-live']);
    await page.getByRole('button', { name: 'Remove dependency on list-alpha' }).click();
    await page.getByRole('button', { name: 'Remove dependency on list-alpha' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog', { name: `Archive ${FLAG}?` }).getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
    await until('the client API to drop the flag', clientFlag, (f) => f === undefined);
    await expect.poll(() => flagLinks(page).allTextContents()).toEqual(['list-beta', 'list-alpha']);
  });

  it('creates a client token and shows its secret once, with a copy button', async () => {
    const page = admin;
    await page.goto('/flags');
    await visitThroughNav(page, 'API tokens');
    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByLabel('Name').fill('storefront');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Token created' });
    const secret = (await shown.getByTestId('token-secret').textContent())!;
    expect(secret).toMatch(/^\*:development\.\w+$/);
    expect((await app.clientWith(secret).GET('/api/client/features')).response.status).toBe(200);
    await shown.getByRole('button', { name: 'Copy the secret' }).waitFor();
    await expectAccessible(page, 'the token secret dialog');
    await screenshot(page, '05-token-created');
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'API tokens' }).getByText('storefront').waitFor();
    expect(await page.content()).not.toContain(secret.split('.')[1]);
    await page.reload();
    await page.getByRole('table', { name: 'API tokens' }).getByText('storefront').waitFor();
    expect(await page.content()).not.toContain(secret.split('.')[1]);
    await expectAccessible(page, 'the API tokens page');
    await screenshot(page, '06-api-tokens');
  });

  // Every page of the navigation is checked with axe-core, at 800 px, in ui-browser-pages.test.ts.
  it('removes an environment from a project and adds it back, and evaluates a context in the playground', async () => {
    const page = admin;
    await page.goto('/flags');
    await visitThroughNav(page, 'Projects');
    await page.getByRole('button', { name: 'Remove production from default' }).click();
    await page.getByRole('dialog', { name: 'Remove production from default?' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Remove production from default' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Add an environment to default' }).click();
    await page.getByRole('combobox', { name: 'Environment' }).click();
    await page.getByRole('option', { name: 'production' }).click();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Remove production from default' }).waitFor();
    await visitThroughNav(page, 'Playground');
    await page.getByRole('textbox', { name: 'userId' }).fill('alice');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.getByRole('table', { name: 'Results' }).getByRole('link', { name: 'list-alpha' }).waitFor();
    await expectAccessible(page, 'the Playground page');
    await screenshot(page, '22-playground');
  }, 60_000);
});

describe('what a user may not do is not offered', () => {
  it('shows a Viewer flags and their configuration without a single edit control', async () => {
    await createFlag('default', 'viewed-flag');
    await addStrategy('viewed-flag', { name: 'flexibleRollout', constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }] });
    await createUser(app, { username: 'victor', rootRole: 'Viewer' });
    const page = await signedInOnFlags(browser, app, 'victor');
    expect(await page.getByRole('button', { name: 'New flag' }).count()).toBe(0);
    expect(await page.getByRole('navigation').getByRole('link').allTextContents()).not.toContain('API tokens');
    await page.getByRole('link', { name: 'viewed-flag' }).click();
    await page.getByRole('heading', { level: 1, name: 'viewed-flag' }).waitFor();
    await page.getByText('appName is one of web').waitFor();
    for (const control of ['Archive', 'Add strategy', 'Edit', 'Delete', 'Add tag', 'Add dependency', 'Complete']) expect(await page.getByRole('button', { name: control }).count(), control).toBe(0);
    expect(await page.getByRole('switch').count()).toBe(0);
    await page.getByRole('tab', { name: 'Variants' }).click();
    expect(await page.getByRole('button', { name: 'Add variant' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Environments' }).click();
    await expectAccessible(page, "a Viewer's flag page");
    await screenshot(page, '07-viewer-flag');
  });

  it('shows the message of a 403 when a permission was taken away while the page was open', async () => {
    const editorId = await createUser(app, { username: 'edna', rootRole: 'Editor' });
    const page = await signedInOnFlags(browser, app, 'edna');
    await page.getByRole('link', { name: 'viewed-flag' }).click();
    const toggle = page.getByRole('switch', { name: 'production: off' });
    await toggle.waitFor();
    await ok(app.admin.PUT('/api/admin/user-admin/{id}', { params: { path: { id: editorId } }, body: { rootRole: 'Viewer' } }));
    await toggle.click({ force: true });
    await page.getByText('You need the "UPDATE_FEATURE_ENVIRONMENT" permission to perform this operation.').waitFor();
    await screenshot(page, '08-forbidden');
    // Her permissions are read again: the page stops offering what she may no longer do.
    await page.getByRole('switch').waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Add strategy' }).count()).toBe(0);
  });

  it('goes back to the sign-in page when the session ends, and returns to the page after signing in', async () => {
    const page = await signedInOnFlags(browser, app, 'alice');
    await page.getByRole('link', { name: 'viewed-flag' }).click();
    await page.getByRole('switch', { name: 'production: off' }).waitFor();
    // Every request of the page has answered: the one the click makes is the first to meet the ended session.
    await page.waitForLoadState('networkidle');
    // The session ends on the server (as at expiry, a logout elsewhere or a password change); the page still shows.
    const logout = await page.evaluate(async () => (await fetch('/logout', { method: 'POST' })).status);
    expect(logout).toBe(200);
    await page.getByRole('switch', { name: 'production: off' }).click({ force: true });
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).search).toBe(`?next=${encodeURIComponent('/projects/default/features/viewed-flag')}`);
    await page.getByLabel('Username or email').fill('alice');
    await page.locator('input[type=password]').fill(USER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'viewed-flag' }).waitFor();
  });
});

describe('the frame at any width', () => {
  /** Whether the page scrolls sideways: its content wider than the window. */
  const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

  for (const width of [375, 800]) {
    it(`at ${width} px wide shows the flags and a flag without scrolling sideways, the navigation behind a menu`, async () => {
      const flag = await createFlag('default', `narrow-${width}`);
      const page = await signedIn(browser, app, 'alice');
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/flags');
      await page.getByRole('table', { name: 'Flags' }).getByRole('link', { name: flag }).waitFor();
      await loaded(page);
      expect(await overflowsSideways(page), 'the flag list scrolls sideways').toBe(false);
      // The header keeps the flag search (an icon at the narrowest), the user and Sign out in view.
      for (const button of ['Search flags', 'Sign out']) expect(await page.getByRole('banner').getByRole('button', { name: button }).isVisible(), button).toBe(true);
      const navigation = page.getByRole('navigation', { name: 'Main' });
      // Closed, the menu lies outside the window (and takes no room).
      const inView = () => navigation.evaluate((nav) => nav.getBoundingClientRect().right > 0);
      expect(await inView(), 'the navigation is in view before the menu opens').toBe(false);
      await page.getByRole('table', { name: 'Flags' }).getByRole('link', { name: flag }).click();
      await page.getByRole('heading', { level: 1, name: flag }).waitFor();
      await page.getByRole('region', { name: 'Environment development' }).waitFor();
      await loaded(page);
      expect(await overflowsSideways(page), 'the flag page scrolls sideways').toBe(false);
      await page.getByRole('button', { name: 'Navigation' }).click();
      await expect.poll(inView).toBe(true);
      // The groups of the navigation are in the menu.
      await navigation.getByRole('list', { name: 'Operations' }).getByRole('link', { name: 'Event log', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Event log' }).waitFor();
      // The menu closes on the way to the page.
      await expect.poll(inView).toBe(false);
    });
  }

  it('shows a notification without covering the Sign out button', async () => {
    const flag = await createFlag('default', 'notified');
    const page = await signedIn(browser, app, 'alice');
    await page.goto(`/projects/default/features/${flag}`);
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog', { name: `Archive ${flag}?` }).getByRole('button', { name: 'Archive' }).click();
    await page.getByText(`${flag} is archived.`).waitFor();
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
    const signOut = page.getByRole('button', { name: 'Sign out' });
    const box = (await signOut.boundingBox())!;
    const onTop = await signOut.evaluate((button, { x, y }) => button.contains(document.elementFromPoint(x, y)), { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    expect(onTop, 'the Sign out button is what a click at its centre reaches').toBe(true);
  });

  it('names every landmark of the event log apart (axe-core landmark-unique)', async () => {
    const flag = await createFlag('default', 'logged');
    await addStrategy(flag, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: flag } });
    const page = await signedIn(browser, app, 'alice');
    await page.goto('/events');
    await page.getByRole('table', { name: 'Events' }).getByRole('cell', { name: flag }).first().waitFor();
    await loaded(page);
    await expectAccessible(page, 'the event log');
    const violations = await page.evaluate(async () => {
      type Axe = { run(options: { runOnly: string[]; resultTypes: string[] }): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
      const result = await (window as unknown as { axe: Axe }).axe.run({ runOnly: ['landmark-unique'], resultTypes: ['violations'] });
      return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
    });
    expect(violations).toEqual([]);
  });
});

describe('how the UI is served', () => {
  it('loads the first page with at most 250 KB of gzipped JavaScript, hashed assets cached for a year', async () => {
    // A new profile with the admin's cookie and an empty cache, opening the flag list directly.
    const context = await browser.newContext({ baseURL: app.url, storageState: await admin.context().storageState() });
    const page = await context.newPage();
    const scripts: { path: string; cacheControl: string | undefined }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push({ path: new URL(response.url()).pathname, cacheControl: response.headers()['cache-control'] });
    });
    const document = await page.goto('/flags');
    await page.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
    await page.getByRole('table', { name: 'Flags' }).waitFor();
    await context.close();

    expect(document?.headers()['cache-control']).toBe('no-cache');
    expect(scripts.length).toBeGreaterThan(1);
    for (const script of scripts) expect(script, script.path).toEqual({ path: expect.stringMatching(/^\/assets\//), cacheControl: 'public, max-age=31536000, immutable' });
    const gzipped = scripts.reduce((sum, { path: file }) => sum + gzipSync(readFileSync(path.join('dist', 'ui', file)), { level: 9 }).length, 0);
    console.log(`first load of /flags: ${scripts.length} scripts, ${(gzipped / 1024).toFixed(1)} KB of gzipped JavaScript`);
    expect(gzipped).toBeLessThanOrEqual(250 * 1024);
  });

  it('answers an unknown API path with the JSON 404 even to a browser', async () => {
    const response = await call(app, 'GET', '/api/admin/no-such-thing', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ name: 'NotFoundError' });
  });
});
