// Invite links (public signup tokens) on the Users page, in Debian's Chromium against the service on the embedded
// database: an admin creates one, copies its link, changes its expiry and disables it, each read back through the
// API; the link's token signs a newcomer up through the public API until it is disabled; an expiry the service
// refuses says why and leaves the dialog open; axe-core on the section and its dialogs; a Viewer is offered nothing.
// Runs on PGlite only.
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { openDialog, row as rowOf, save, textbox, visit } from './support/ui-dialogs.js';
import { createUser, signUp } from './support/users.js';

let app: TestApp;
let browser: Browser;
let admin: Page;

const tokenNamed = async (name: string) => (await ok(app.admin.GET('/api/admin/invite-link/tokens'))).tokens.find((t) => t.name === name);
/** The datetime-local field (no textbox role) of a dialog. */
const expiryField = (dialog: Locator) => dialog.getByLabel('Expires at');
const linkRow = (name: string) => rowOf(admin, 'Invite links', name);
const signUpAs = (token: string, who: string) => signUp(app, token, { email: `${who}@example.com`, name: `New ${who}`, password: 'Tr1cky-Blue-Otter' });

/** Creates an invite link through the dialog, the browser in UTC: `expiry` is a `datetime-local` value. */
async function createInviteLink(name: string, expiry: string) {
  await visit(admin, '/users', 'Users');
  const dialog = await openDialog(admin, 'New invite link', 'New invite link');
  await textbox(dialog, 'Name').fill(name);
  await expiryField(dialog).fill(expiry);
  return dialog;
}

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  await createUser(app, { username: 'victor', rootRole: 'Viewer' });
  admin = await signedIn(browser, app, 'alice');
}, 240_000);

describe('an admin manages invite links on the Users page', () => {
  it('creates an invite link, which the API lists with its name, the Viewer root role and the expiry chosen', async () => {
    const dialog = await createInviteLink('Onboarding', '2099-06-30T12:00');
    expect(await textbox(dialog, 'Root role').inputValue()).toBe('Viewer');
    await expectAccessible(admin, 'the new invite link dialog');
    await screenshot(admin, 'new-invite-link');
    await save(dialog, 'Create invite link');
    await linkRow('Onboarding').getByText('Usable').waitFor();
    expect(await tokenNamed('Onboarding')).toMatchObject({ enabled: true, expiresAt: '2099-06-30T12:00:00.000Z', role: { name: 'Viewer' }, createdBy: 'alice' });
  });

  it('shows the link the API gives and copies it', async () => {
    const { url } = (await tokenNamed('Onboarding'))!;
    expect(url).toMatch(/\/new-user\?invite=[0-9a-f]{32}$/);
    await visit(admin, '/users', 'Users');
    await linkRow('Onboarding').getByText(url!).waitFor();
    await admin.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await admin.getByRole('button', { name: 'Copy the link of Onboarding' }).click();
    await linkRow('Onboarding').getByRole('button', { name: 'Copied the link of Onboarding' }).waitFor();
    expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await expectAccessible(admin, 'the users page with its invite links');
    await screenshot(admin, 'invite-links');
  });

  it("lets a newcomer sign up through the API with the link's token, counted on the page as joined", async () => {
    const { secret } = (await tokenNamed('Onboarding'))!;
    const joined = await signUpAs(secret, 'grace');
    expect(joined.response.status, JSON.stringify(joined.error)).toBe(200);
    expect((await tokenNamed('Onboarding'))!.users!.map((u) => u.email)).toEqual(['grace@example.com']);
    await visit(admin, '/users', 'Users');
    const cells = await linkRow('Onboarding').getByRole('cell').allInnerTexts();
    expect(cells[5]).toBe('1');
  });

  it('changes the expiry of an invite link', async () => {
    await visit(admin, '/users', 'Users');
    const dialog = await openDialog(admin, 'Change expiry of Onboarding', 'Change the expiry of Onboarding');
    expect(await expiryField(dialog).inputValue()).toBe('2099-06-30T12:00');
    await expiryField(dialog).fill('2099-12-31T23:30');
    await expectAccessible(admin, 'the change expiry dialog');
    await save(dialog, 'Save expiry');
    expect((await tokenNamed('Onboarding'))!.expiresAt).toBe('2099-12-31T23:30:00.000Z');
  });

  it('disables an invite link, after which signing up with it is refused, and enables it again', async () => {
    await visit(admin, '/users', 'Users');
    const confirm = await openDialog(admin, 'Disable', 'Disable Onboarding?', linkRow('Onboarding'));
    await confirm.getByRole('button', { name: 'Disable', exact: true }).click();
    await linkRow('Onboarding').getByText('Disabled').waitFor();
    const { secret, enabled } = (await tokenNamed('Onboarding'))!;
    expect(enabled).toBe(false);
    const refused = await signUpAs(secret, 'hal');
    expect(refused.response.status).toBe(400);
    expect(refused.error?.message).toBe('The signup token is not valid: it has been disabled.');

    await linkRow('Onboarding').getByRole('button', { name: 'Enable Onboarding' }).click();
    await linkRow('Onboarding').getByText('Usable').waitFor();
    expect((await tokenNamed('Onboarding'))!.enabled).toBe(true);
  });

  it("shows the service's message for an expiry in the past, keeps the dialog open and creates nothing", async () => {
    const dialog = await createInviteLink('Too late', '2000-01-01T00:00');
    await dialog.getByRole('button', { name: 'Create invite link' }).click();
    await admin.getByText('expiresAt: the expiry must be in the future.').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(await tokenNamed('Too late')).toBeUndefined();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('what a user may not do is not offered', () => {
  it('shows a Viewer no invite links and no way to create one', async () => {
    const viewer = await signedIn(browser, app, 'victor');
    await visit(viewer, '/users', 'Users');
    expect(await viewer.getByRole('region', { name: 'Invite links' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'New invite link' }).count()).toBe(0);
    expect(await viewer.getByText('Onboarding').count()).toBe(0);
  });
});
