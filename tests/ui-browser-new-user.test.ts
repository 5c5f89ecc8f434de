// The page an invite link leads to (/new-user?invite=…), in Debian's Chromium against the service on the embedded
// database: a newcomer creates an account with the link the API gave and lands signed in as a Viewer; a disabled or
// unknown link says why and offers nothing to fill in; the service's refusal of a common password is shown; the two
// passwords must agree before anything is sent; axe-core on the page. Runs on PGlite only.
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, newPage, screenshot } from './support/browser.js';
import { ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';

let app: TestApp;
let browser: Browser;

const FAR_FUTURE = '2099-01-01T00:00:00.000Z';
const createInvite = (name: string) => ok(app.admin.POST('/api/admin/invite-link/tokens', { body: { name, expiresAt: FAR_FUTURE } }));
const usersNamed = async (email: string) => (await ok(app.admin.GET('/api/admin/user-admin'))).users.filter((u) => u.email === email);

/** A fresh browser profile, nobody signed in, at the invite's page (the path and query of the URL the API gave). */
async function openInvite(url: string): Promise<Page> {
  const page = await newPage(browser, app.url);
  const { pathname, search } = new URL(url);
  await page.goto(pathname + search);
  await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
  return page;
}

async function fill(page: Page, fields: { name: string; email: string; password: string; again?: string }) {
  await page.getByRole('textbox', { name: 'Name' }).fill(fields.name);
  await page.getByRole('textbox', { name: 'Email' }).fill(fields.email);
  await page.getByLabel(/^Password/).fill(fields.password);
  await page.getByLabel('Confirm password').fill(fields.again ?? fields.password);
}

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
}, 240_000);

describe('a newcomer follows an invite link', () => {
  it('creates an account with it and lands on the flags, signed in as a Viewer', async () => {
    const invite = await createInvite('welcome');
    const page = await openInvite(invite.url!);
    await fill(page, { name: 'Grace Hopper', email: 'grace@example.com', password: 'Tr1cky-Blue-Otter' });
    await expectAccessible(page, 'the new user page');
    await screenshot(page, 'new-user');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
    expect(await page.getByTestId('signed-in-as').innerText()).toContain('Grace Hopper');
    const viewer = (await ok(app.admin.GET('/api/admin/roles'))).roles.find((r) => r.name === 'Viewer')!;
    expect(await usersNamed('grace@example.com')).toMatchObject([{ rootRole: viewer.id }]);
    const token = await ok(app.admin.GET('/api/admin/invite-link/tokens/{token}', { params: { path: { token: invite.secret } } }));
    expect(token.users?.map((u) => u.email)).toEqual(['grace@example.com']);
  });

  it('refuses a disabled link with its reason and offers no form', async () => {
    const invite = await createInvite('closed');
    await ok(app.admin.PUT('/api/admin/invite-link/tokens/{token}', { params: { path: { token: invite.secret } }, body: { enabled: false } }));
    const page = await openInvite(invite.url!);
    await page.getByRole('alert').getByText('disabled').waitFor();
    expect(await page.getByRole('button', { name: 'Create account' }).count()).toBe(0);
    await expectAccessible(page, 'a refused invite');
  });

  it('refuses a link whose secret the service does not know', async () => {
    const page = await openInvite(`${app.url}/new-user?invite=nosuchsecret`);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('button', { name: 'Create account' }).count()).toBe(0);
  });

  it("shows the service's refusal of a common password and creates nobody", async () => {
    const invite = await createInvite('weak');
    const page = await openInvite(invite.url!);
    await fill(page, { name: 'Weak Walter', email: 'walter@example.com', password: 'password123' });
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toMatch(/password/i);
    expect(await usersNamed('walter@example.com')).toEqual([]);
  });

  it('sends nothing while the two passwords differ', async () => {
    const invite = await createInvite('mismatch');
    const page = await openInvite(invite.url!);
    await fill(page, { name: 'Mo', email: 'mo@example.com', password: 'Tr1cky-Blue-Otter', again: 'Tr1cky-Blue-Otters' });
    await page.getByText('The two passwords differ').waitFor();
    expect(await page.getByRole('button', { name: 'Create account' }).isDisabled()).toBe(true);
    expect(await usersNamed('mo@example.com')).toEqual([]);
  });
});
