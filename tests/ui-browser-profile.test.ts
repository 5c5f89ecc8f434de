// The profile page in the browser, in Debian's Chromium against the service on the embedded database, as Viewers
// (every call on it needs no permission): reached from the user's name in the header; their own password changed
// (the current one given, the new one typed twice and checked equal before sending; a refusal says why and keeps the
// dialog open), after which only the new one signs in; a personal access token created, its secret shown once and
// working as the user, never shown again, and refused once deleted. Everything the UI did is read back through the
// API; axe-core on the page and its dialogs.
// Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts from the PostgreSQL run).
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn, signedInOnFlags, signedInThroughForm } from './support/browser.js';
import { ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { openDialog, save, visit } from './support/ui-dialogs.js';
import { clientAs, createUser, login, sessionOf, USER_PASSWORD } from './support/users.js';

let app: TestApp;
let browser: Browser;

const NEW_PASSWORD = 'Staple-Battery-77';

/** A Viewer signed in, on the profile page. */
async function viewerOnProfile(username: string, name?: string): Promise<Page> {
  await createUser(app, { username, rootRole: 'Viewer', ...(name && { name }) });
  const page = await signedIn(browser, app, username);
  await visit(page, '/profile', 'Your profile');
  return page;
}

/** Creates a token through the New token dialog; answers its secret, with the secret's dialog still open. */
async function createTokenInUi(page: Page, description: string, lastDay = '2099-06-15'): Promise<string> {
  const dialog = await openDialog(page, 'New token', 'New personal access token');
  await dialog.getByRole('textbox', { name: 'Description' }).fill(description);
  await dialog.getByLabel('Valid until').fill(lastDay);
  await save(dialog, 'Create token');
  const secret = (await page.getByRole('dialog', { name: 'Token created' }).getByTestId('token-secret').textContent()) ?? '';
  expect(secret).not.toBe('');
  return secret;
}

async function closeSecretDialog(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Token created' });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'detached' });
}

const signInStatus = async (username: string, password: string) => (await login(app, username, password)).response.status;
/** Who the personal access token acts as, as the API answers it. */
const me = (secret: string) => app.clientWith(secret).GET('/api/admin/user');

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
}, 240_000);

describe('who the user is', () => {
  it("leads from the user's name in the header to the profile, showing their name, username and root role", async () => {
    await createUser(app, { username: 'viola', rootRole: 'Viewer', name: 'Viola Ng' });
    const page = await signedInOnFlags(browser, app, 'viola');
    await page.getByRole('banner').getByRole('link', { name: 'Viola Ng' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your profile' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile');
    const account = page.getByRole('table', { name: 'Account' });
    await account.getByRole('row', { name: 'Root role Viewer' }).waitFor();
    expect(await account.getByRole('row', { name: 'Name Viola Ng' }).count()).toBe(1);
    expect(await account.getByRole('row', { name: 'Username viola' }).count()).toBe(1);
    await page.getByText('No personal access tokens yet — create one to call the admin API as yourself from a script.').waitFor();
    await expectAccessible(page, 'the profile page');
    await screenshot(page, 'profile');
  });
});

describe('a user changes their own password', () => {
  it('lets a Viewer change their password, after which only the new one signs in', async () => {
    const page = await viewerOnProfile('wanda');
    const dialog = await openDialog(page, 'Change password', 'Change your password');
    await dialog.getByLabel('Current password').fill(USER_PASSWORD);
    await dialog.getByLabel('New password').fill(NEW_PASSWORD);
    await dialog.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await expectAccessible(page, 'the change password dialog');
    await screenshot(page, 'profile-change-password');
    await save(dialog, 'Change password');
    await page.getByText('Your password is changed').waitFor();
    expect(await signInStatus('wanda', USER_PASSWORD), 'the old password').toBe(401);
    const fresh = await signedInThroughForm(browser, app, 'wanda', NEW_PASSWORD);
    await visit(fresh, '/profile', 'Your profile');
    await visit(page, '/profile', 'Your profile');
    expect(await page.getByRole('button', { name: 'Sign out' }).count(), 'still signed in where it was changed').toBe(1);
  });

  it('sends nothing while the two new passwords differ', async () => {
    const page = await viewerOnProfile('xena');
    const dialog = await openDialog(page, 'Change password', 'Change your password');
    await dialog.getByLabel('Current password').fill(USER_PASSWORD);
    await dialog.getByLabel('New password').fill(NEW_PASSWORD);
    await dialog.getByLabel('Confirm password').fill(`${NEW_PASSWORD}!`);
    await dialog.getByText('The two passwords differ').waitFor();
    expect(await dialog.getByRole('button', { name: 'Change password' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await signInStatus('xena', USER_PASSWORD), 'the password unchanged').toBe(200);
  });

  it("shows the service's refusal of a common password and keeps the dialog open", async () => {
    const page = await viewerOnProfile('yara');
    const dialog = await openDialog(page, 'Change password', 'Change your password');
    await dialog.getByLabel('Current password').fill(USER_PASSWORD);
    await dialog.getByLabel('New password').fill('password123');
    await dialog.getByLabel('Confirm password').fill('password123');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('password: this password is among the most common ones; choose another.').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(await signInStatus('yara', USER_PASSWORD), 'the password unchanged').toBe(200);
    expect(await signInStatus('yara', 'password123')).toBe(401);
  });

  it("shows the service's refusal of a wrong current password and keeps the dialog open", async () => {
    const page = await viewerOnProfile('yusuf');
    const dialog = await openDialog(page, 'Change password', 'Change your password');
    await dialog.getByLabel('Current password').fill(`${USER_PASSWORD}-guess`);
    await dialog.getByLabel('New password').fill(NEW_PASSWORD);
    await dialog.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('oldPassword: is not your current password.').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(await signInStatus('yusuf', USER_PASSWORD), 'the password unchanged').toBe(200);
  });
});

describe("a user's personal access tokens", () => {
  it('creates a token whose secret, shown once, acts as the user on the admin API until the day chosen', async () => {
    const page = await viewerOnProfile('zack');
    const dialog = await openDialog(page, 'New token', 'New personal access token');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Release script');
    await dialog.getByLabel('Valid until').fill('2099-06-15');
    await expectAccessible(page, 'the new personal access token dialog');
    await screenshot(page, 'profile-new-token');
    await save(dialog, 'Create token');
    const shown = page.getByRole('dialog', { name: 'Token created' });
    const secret = (await shown.getByTestId('token-secret').textContent()) ?? '';
    await expectAccessible(page, 'the personal access token secret dialog');
    await screenshot(page, 'profile-token-secret');
    const user = await me(secret);
    expect(user.response.status, JSON.stringify(user.error)).toBe(200);
    expect(user.data).toMatchObject({ user: { username: 'zack' } });
    const { pats } = await ok(app.clientWith(secret).GET('/api/admin/user/tokens'));
    // The last second of 15 June in the browser's zone (UTC).
    expect(pats).toMatchObject([{ description: 'Release script', expiresAt: '2099-06-15T23:59:59.000Z' }]);
  });

  it('copies the secret with its Copy button', async () => {
    await createUser(app, { username: 'quinn', rootRole: 'Viewer' });
    const page = await signedIn(browser, app, 'quinn');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await visit(page, '/profile', 'Your profile');
    const secret = await createTokenInUi(page, 'Copied one');
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  });

  it('never shows the secret again once its dialog is closed', async () => {
    const page = await viewerOnProfile('rosa');
    const secret = await createTokenInUi(page, 'Nightly export');
    await closeSecretDialog(page);
    const row = page.getByRole('table', { name: 'Personal access tokens' }).getByRole('row', { name: /Nightly export/ });
    await row.getByText('never').waitFor();
    expect(await page.content()).not.toContain(secret);
    await visit(page, '/profile', 'Your profile');
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);
    expect((await me(secret)).response.status, 'the token itself still works').toBe(200);
  });

  it('deletes a token after confirming, after which its secret is refused with 401', async () => {
    const page = await viewerOnProfile('sven');
    const secret = await createTokenInUi(page, 'Old laptop');
    await closeSecretDialog(page);
    const table = page.getByRole('table', { name: 'Personal access tokens' });
    const confirm = await openDialog(page, 'Delete', 'Delete Old laptop?', table);
    await save(confirm, 'Delete');
    await page.getByText('No personal access tokens yet — create one to call the admin API as yourself from a script.').waitFor();
    expect((await me(secret)).response.status).toBe(401);
    const { pats } = await ok(clientAs(app, { cookie: await sessionOf(app, 'sven') }).GET('/api/admin/user/tokens'));
    expect(pats).toEqual([]);
  });
});
