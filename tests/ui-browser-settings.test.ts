// The Settings page in the browser, in Debian's Chromium against the service on the embedded database: the OpenID
// Connect settings saved (read back through the API, the secret never shown), refused with the service's message and
// removed; the state exported as a downloaded file and a file imported, each read back through the API; an invalid
// file's refusal shown with the place it names; axe-core on the page and its dialogs; an Editor or a Viewer offered
// no Settings link and no control. Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts from the
// PostgreSQL run).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { uniqueNames } from './support/events.js';
import { fixtures, flagPath, ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { openDialog, pick, save, textbox, visit } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

let app: TestApp;
let browser: Browser;
let admin: Page;
let files: string;

const { createFlag, flagOf, flagEnvironment } = fixtures(() => app, uniqueNames());
/** The single sign-on settings as the API answers them. */
const oidcSettings = () => ok(app.admin.GET('/api/admin/auth/oidc/settings'));
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** The client secret's field (a password input has no textbox role). */
const secretInput = (page: Page) => section(page, 'Single sign-on').locator('input[type=password]');

/** A file in the test's temporary directory; answers its path. */
async function fileWith(name: string, content: unknown): Promise<string> {
  const file = path.join(files, name);
  await writeFile(file, JSON.stringify(content));
  return file;
}

/** Chooses the file in the Import section and confirms its import. */
async function importThrough(page: Page, file: string): Promise<Locator> {
  const importing = section(page, 'Import');
  await importing.locator('input[type=file]').setInputFiles(file);
  const dialog = await openDialog(page, 'Import', `Import ${path.basename(file)}?`, importing);
  await save(dialog, 'Import');
  return importing;
}

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  files = await mkdtemp(path.join(tmpdir(), 'ui-settings-'));
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  admin = await signedIn(browser, app, 'alice');
}, 240_000);

afterAll(() => rm(files, { recursive: true, force: true }));

describe('single sign-on', () => {
  const secret = 'browser-secret-5b1e9c';

  it('saves every field an admin fills in, and the API reads them back with the secret masked', async () => {
    await visit(admin, '/settings', 'Settings');
    const sso = section(admin, 'Single sign-on');
    await textbox(sso, 'Discovery URL').fill('https://login.example.com/.well-known/openid-configuration');
    await textbox(sso, 'Client id').fill('flag-service');
    await secretInput(admin).fill(secret);
    await sso.getByRole('switch', { name: 'Create users at their first sign-in' }).check({ force: true });
    await pick(sso, 'Default root role', 'Editor');
    await textbox(sso, 'Email domains').fill('example.com');
    await sso.getByRole('switch', { name: 'Single sign-out' }).check({ force: true });
    await textbox(sso, 'ACR values').fill('mfa');
    await pick(sso, 'ID token signing algorithm', 'RS384');
    await sso.getByRole('switch', { name: 'Sync groups' }).check({ force: true });
    await textbox(sso, 'Group JSON path').fill('groups');
    await sso.getByRole('switch', { name: 'Request the groups scope' }).check({ force: true });
    await expectAccessible(admin, 'the settings page');
    await screenshot(admin, 'settings');
    await sso.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText('The single sign-on settings are saved.').waitFor();
    const stored = await oidcSettings();
    expect(stored).toEqual({
      enabled: true,
      discoverUrl: 'https://login.example.com/.well-known/openid-configuration',
      clientId: 'flag-service',
      secret: expect.stringMatching(/^\*+$/),
      autoCreate: true,
      defaultRootRole: 'Editor',
      emailDomains: 'example.com',
      enableSingleSignOut: true,
      acrValues: 'mfa',
      idTokenSigningAlgorithm: 'RS384',
      enableGroupSyncing: true,
      groupJsonPath: 'groups',
      addGroupsScope: true,
    });
  });

  it('shows the stored settings without the secret, asking for it again', async () => {
    await visit(admin, '/settings', 'Settings');
    const sso = section(admin, 'Single sign-on');
    await sso.getByText('Configured', { exact: true }).waitFor();
    expect(await textbox(sso, 'Client id').inputValue()).toBe('flag-service');
    expect(await secretInput(admin).inputValue()).toBe('');
    await sso.getByText('The stored secret is never shown: type it again to save').waitFor();
    expect(await admin.content()).not.toContain(secret);
    expect(await admin.content()).not.toContain('********');
  });

  it("shows the service's message for a discovery URL that is not a URL, and keeps the stored settings", async () => {
    const before = await oidcSettings();
    await visit(admin, '/settings', 'Settings');
    const sso = section(admin, 'Single sign-on');
    await textbox(sso, 'Discovery URL').fill('not a url');
    await secretInput(admin).fill(secret);
    await sso.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByRole('alert').filter({ hasText: 'discoverUrl' }).waitFor();
    expect(await oidcSettings()).toEqual(before);
  });

  it('removes the settings once confirmed, after which the API has none', async () => {
    await visit(admin, '/settings', 'Settings');
    const sso = section(admin, 'Single sign-on');
    const dialog = await openDialog(admin, 'Remove', 'Remove the single sign-on settings?', sso);
    await expectAccessible(admin, 'the remove settings dialog');
    await save(dialog, 'Remove settings');
    await sso.getByText('Not configured', { exact: true }).waitFor();
    expect(await oidcSettings()).toEqual({});
    expect(await sso.getByRole('button', { name: 'Remove' }).count()).toBe(0);
  });
});

describe('export', () => {
  it('downloads the flags chosen as a JSON file holding a flag created beforehand', async () => {
    await createFlag('default', 'exported-flag', { description: 'Goes out' });
    await visit(admin, '/settings', 'Settings');
    const exporting = section(admin, 'Export');
    await exporting.getByRole('checkbox', { name: 'Strategy definitions' }).uncheck();
    await screenshot(admin, 'settings-export');
    const [download] = await Promise.all([admin.waitForEvent('download'), exporting.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^export-.+\.json$/);
    const document = JSON.parse(await readFile(await download.path(), 'utf8'));
    expect(Object.keys(document).sort()).toEqual(['features', 'version']);
    expect(document.features).toContainEqual(expect.objectContaining({ name: 'exported-flag', description: 'Goes out', project: 'default' }));
    await exporting.getByText(`Saved as ${download.suggestedFilename()}`).waitFor();
  });
});

describe('import', () => {
  it('imports a chosen file, after which the API has its new flag', async () => {
    const file = await fileWith('state.json', { version: 1, features: [{ name: 'imported-flag', description: 'Came in', enabled: true }] });
    await visit(admin, '/settings', 'Settings');
    const importing = section(admin, 'Import');
    await importing.locator('input[type=file]').setInputFiles(file);
    const dialog = await openDialog(admin, 'Import', 'Import state.json?', importing);
    await expectAccessible(admin, 'the import dialog');
    await screenshot(admin, 'settings-import-confirm');
    await save(dialog, 'Import');
    await importing.getByRole('status').filter({ hasText: 'Imported state.json' }).waitFor();
    await expectAccessible(admin, 'the settings page after an import');
    expect(await flagOf('imported-flag')).toMatchObject({ name: 'imported-flag', description: 'Came in' });
    expect(await flagEnvironment('imported-flag', 'development')).toMatchObject({ enabled: true });
  });

  it("shows the service's message naming the place of an invalid file, and imports nothing", async () => {
    const file = await fileWith('broken.json', { version: 1, features: [{ name: 'valid-before-broken' }, { enabled: true }] });
    await visit(admin, '/settings', 'Settings');
    const importing = await importThrough(admin, file);
    const refusal = importing.getByRole('alert').filter({ hasText: 'broken.json was not imported' });
    await refusal.getByText('file.features.1 is missing the required field "name"').waitFor();
    // The app's failure notification is on screen too: its message is checked for contrast with the page.
    await admin.getByRole('button', { name: 'Dismiss' }).waitFor();
    await expectAccessible(admin, 'the settings page after a refused import');
    await screenshot(admin, 'settings-import-refused');
    const absent = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath('valid-before-broken') } });
    expect(absent.response.status).toBe(404);
  });
});

describe('what a user may not change is not offered', () => {
  it.each(['Editor', 'Viewer'])('offers a user whose root role is %s no Settings link, and at /settings no control', async (rootRole) => {
    const username = `settings-${rootRole.toLowerCase()}`;
    await createUser(app, { username, rootRole });
    const page = await signedIn(browser, app, username);
    await visit(page, '/flags', 'Flags');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await visit(page, '/settings', 'Settings');
    await page.getByText('You may not change any of the settings.').waitFor();
    const main = page.getByRole('main');
    expect(await main.getByRole('button').count()).toBe(0);
    expect(await main.getByRole('textbox').count()).toBe(0);
    expect(await main.getByRole('region').count()).toBe(0);
    await expectAccessible(page, `the settings page of an ${rootRole}`);
  });
});
