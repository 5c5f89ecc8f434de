// The Applications pages in the browser, in Debian's Chromium against the service on the embedded database: an SDK's
// registration and metrics (sent as the node SDK sends them, with client tokens) appear in the list and on the
// application's own page as the API answers them; axe-core on both pages; a Viewer reads them too (getApplications
// and getApplication need no permission); an unknown application shows the service's message. Runs on PGlite only.
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn, signedInOnFlags } from './support/browser.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok, reportMetrics, sdkMetrics, until } from './support/fixtures.js';
import { registration, sdkVersion } from './support/sdk-reports.js';
import { startUiTest } from './support/ui-build.js';
import { visit } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

type Application = components['schemas']['Application'];

const APP = 'checkout-service';

let app: TestApp;
let browser: Browser;
let admin: Page;

const { createFlag } = fixtures(() => app, uniqueNames());
const appAsStored = (): Promise<Application> => ok(app.admin.GET('/api/admin/metrics/applications/{appName}', { params: { path: { appName: APP } } }));
/** A date as the page shows it (the browser's own formatting of the API's instant). */
const dateAsShown = (page: Page, iso: string) => page.evaluate((at) => new Date(at).toLocaleString(), iso);

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  const production = await newApiToken(app, { type: 'client', environment: 'production' });
  const development = await newApiToken(app, { type: 'client', environment: 'development' });
  await createFlag('default', 'new-checkout');
  const registered = await app.clientWith(production).POST('/api/client/register', { body: registration(APP, 'checkout-1') });
  expect(registered.response.status, JSON.stringify(registered.error)).toBe(202);
  // A second instance that only reports metrics, from development.
  const stop = new Date().toISOString();
  await ok(reportMetrics(app, development, sdkMetrics(APP, 'checkout-2', stop, { 'new-checkout': { yes: 3, no: 1, variants: {} } })), 202);
  await until(
    'both instances',
    () => app.admin.GET('/api/admin/metrics/applications/{appName}', { params: { path: { appName: APP } } }),
    ({ data }) => data?.instances.length === 2,
  );
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  await createUser(app, { username: 'victor', rootRole: 'Viewer' });
  admin = await signedIn(browser, app, 'alice');
}, 240_000);

describe('the applications list', () => {
  it('offers Applications first in the navigation\'s Operations group', async () => {
    await visit(admin, '/flags', 'Flags');
    const operations = admin.getByRole('navigation', { name: 'Main' }).getByRole('list', { name: 'Operations', exact: true });
    const labels = (await operations.getByRole('link').allInnerTexts()).map((label) => label.trim());
    expect(labels[0]).toBe('Applications');
  });

  it('shows a registered application with its environments, strategies, instances and when it was seen, as the API lists it', async () => {
    const { applications } = await ok(app.admin.GET('/api/admin/metrics/applications'));
    const listed = applications.find((a) => a.appName === APP)!;
    expect(listed).toMatchObject({ environments: ['development', 'production'], strategies: ['default', 'flexibleRollout'] });
    await visit(admin, '/applications', 'Applications');
    const row = admin.getByRole('table', { name: 'Applications' }).getByRole('row').filter({ hasText: APP });
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells).toEqual([APP, 'development, production', 'default, flexibleRollout', '2', await dateAsShown(admin, listed.createdAt), await dateAsShown(admin, listed.lastSeen)]);
    await expectAccessible(admin, 'the applications page');
    await screenshot(admin, 'applications');
  });
});

describe("an application's page", () => {
  it('opens from the list and shows the environments, strategies and every instance with its SDK version and last report', async () => {
    const stored = await appAsStored();
    await visit(admin, '/applications', 'Applications');
    await admin.getByRole('link', { name: APP, exact: true }).click();
    await admin.getByRole('heading', { level: 1, name: APP }).waitFor();
    expect(new URL(admin.url()).pathname).toBe(`/applications/${APP}`);
    expect(await admin.getByRole('region', { name: 'Environments' }).innerText()).toMatch(/development\s+production/);
    expect(await admin.getByRole('region', { name: 'Strategies' }).innerText()).toMatch(/default\s+flexibleRollout/);
    const rows = admin.getByRole('table', { name: 'Instances' }).getByRole('row');
    const instances = [];
    for (const instance of stored.instances) {
      instances.push([instance.instanceId, instance.environment, instance.sdkVersion ?? 'unknown', instance.clientIp ?? 'unknown', await dateAsShown(admin, instance.lastSeen)]);
    }
    expect(instances.map((i) => i.slice(0, 3))).toEqual([
      ['checkout-1', 'production', sdkVersion],
      ['checkout-2', 'development', sdkVersion],
    ]);
    expect(await rows.filter({ hasText: 'checkout-1' }).getByRole('cell').allInnerTexts()).toEqual(instances[0]);
    expect(await rows.filter({ hasText: 'checkout-2' }).getByRole('cell').allInnerTexts()).toEqual(instances[1]);
    await expectAccessible(admin, "an application's page");
    await screenshot(admin, 'application');
  });

  it("shows the service's message for an application that never registered", async () => {
    await visit(admin, '/applications/ghost-service', 'ghost-service');
    await admin.getByRole('alert').getByText('No application named "ghost-service" has registered.').waitFor();
  });
});

describe('a Viewer', () => {
  it("sees the applications and an application's instances", async () => {
    const viewer = await signedInOnFlags(browser, app, 'victor');
    await viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Applications' }).click();
    await viewer.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    await viewer.getByRole('link', { name: APP, exact: true }).click();
    await viewer.getByRole('table', { name: 'Instances' }).getByText('checkout-1').waitFor();
  });
});
