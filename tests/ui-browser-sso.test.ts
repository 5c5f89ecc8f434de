// Single sign-on in the admin UI, in Debian's Chromium against the service on the embedded database: the sign-in
// page (a refusal's reason shown as text, the username field focused, a button per identity provider, the password
// form behind an administrator disclosure while password sign-in is off), the SAML and password sign-in settings,
// signing out through GET /logout, and signing in with OpenID Connect through the button against a real provider
// (oidc-provider and its own login and consent pages). Runs on PGlite only (vitest.config.ts).
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { expectAccessible, launchBrowser, newContext, screenshot, signedIn } from './support/browser.js';
import { ok } from './support/fixtures.js';
import { startOidcProvider, type TestOidcProvider } from './support/oidc-provider.js';
import { selfSignedCertificate } from './support/self-signed-certificate.js';
import { buildUiIfStale } from './support/ui-build.js';
import { pick, textbox, visit } from './support/ui-dialogs.js';
import { createUser, USER_PASSWORD } from './support/users.js';

let app: TestApp;
let browser: Browser;
let admin: Page;
let provider: TestOidcProvider;

const SAML_NAME = 'Corporate SAML';
const OIDC_NAME = 'Test Identity';
const certificate = selfSignedCertificate('idp.example.com').certificate;

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const usernameField = (page: Page) => page.getByRole('textbox', { name: 'Username or email' });
const passwordSetting = () => ok(app.admin.GET('/api/admin/auth/simple/settings'));
const usersWithEmail = async (email: string) => (await ok(app.admin.GET('/api/admin/user-admin'))).users.filter((user) => user.email === email);

/**
 * A page in a browser profile of its own, nobody signed in; it may visit the identity provider too. The provider's
 * development pages ask for a web font: that request goes to the context's dead-end proxy, never off the machine.
 */
async function newVisitor(): Promise<Page> {
  const page = await (await newContext(browser, app.url, { alsoAllowed: [provider.issuer, 'https://fonts.googleapis.com'] })).newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

/** Clicks the provider's button and goes through its login and consent pages as `email`, until back at the service. */
async function signInThroughProvider(page: Page, email: string): Promise<void> {
  await page.getByRole('link', { name: `Sign in with ${OIDC_NAME}` }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name=login]').fill(email);
  await page.locator('input[name=password]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.origin === new URL(app.url).origin);
}

beforeAll(async () => {
  buildUiIfStale();
  browser = await launchBrowser();
  app = await startTestApp({ publicUrlIsOwnAddress: true });
  provider = await startOidcProvider();
  provider.registerRedirect(app.url);
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  admin = await signedIn(browser, app, 'alice');
}, 240_000);

describe('the sign-in page', () => {
  it("shows a refused sign-in's reason as plain text above the form", async () => {
    const reason = 'Accounts are created here only for <b>@example.com</b> addresses.';
    const page = await newVisitor();
    await page.goto(`/signin?error=${encodeURIComponent(reason)}`);
    const alert = page.getByRole('alert');
    await alert.getByText(reason).waitFor();
    expect(await alert.locator('b').count()).toBe(0);
    const [alertBox, fieldBox] = await Promise.all([alert.boundingBox(), usernameField(page).boundingBox()]);
    expect(alertBox!.y + alertBox!.height).toBeLessThanOrEqual(fieldBox!.y);
    await expectAccessible(page, 'the sign-in page with a refusal');
  });

  it('focuses the username field once the page has loaded', async () => {
    const page = await newVisitor();
    await page.goto('/signin');
    await usernameField(page).waitFor();
    await expect.poll(() => usernameField(page).evaluate((input) => input === document.activeElement)).toBe(true);
  });

  it('offers no provider button while no identity provider is configured', async () => {
    const page = await newVisitor();
    await page.goto('/signin');
    await usernameField(page).waitFor();
    expect(await page.getByRole('link', { name: /^Sign in with/ }).count()).toBe(0);
  });
});

describe('password sign-in without an identity provider', () => {
  it('refuses to turn password sign-in off, saying that a provider must be configured first', async () => {
    await visit(admin, '/settings', 'Settings');
    const setting = section(admin, 'Password sign-in');
    const toggle = setting.getByRole('switch', { name: 'Password sign-in' });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click({ force: true });
    await setting.getByRole('alert').getByText('Password sign-in can only be turned off once an identity provider (OpenID Connect or SAML) is configured').waitFor();
    expect(await toggle.isChecked()).toBe(true);
    expect(await passwordSetting()).toEqual({ disabled: false });
  });
});

describe('the SAML settings', () => {
  it('saves every field an admin fills in, and the API reads them back', async () => {
    await visit(admin, '/settings', 'Settings');
    const saml = section(admin, 'SAML');
    await saml.getByText('Not configured', { exact: true }).waitFor();
    await textbox(saml, 'Entity id').fill('https://idp.example.com/metadata');
    await textbox(saml, 'Single sign-on URL').fill('https://idp.example.com/sso');
    await textbox(saml, 'X.509 certificate').fill(certificate);
    await textbox(saml, 'Sign-out URL').fill('https://idp.example.com/slo');
    await textbox(saml, 'Display name').fill(SAML_NAME);
    await saml.getByRole('switch', { name: 'Create users at their first sign-in' }).check({ force: true });
    await pick(saml, 'Default root role', 'Viewer');
    await textbox(saml, 'Email domains').fill('example.com');
    await saml.getByRole('switch', { name: 'Sync groups' }).check({ force: true });
    await textbox(saml, 'Groups attribute').fill('memberOf');
    await expectAccessible(admin, 'the settings page with the SAML settings');
    await screenshot(admin, 'settings-saml');
    await saml.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText('The SAML settings are saved.').waitFor();
    expect(await ok(app.admin.GET('/api/admin/auth/saml/settings'))).toEqual({
      enabled: true,
      entityId: 'https://idp.example.com/metadata',
      signOnUrl: 'https://idp.example.com/sso',
      certificate: certificate.trim(),
      signOutUrl: 'https://idp.example.com/slo',
      displayName: SAML_NAME,
      autoCreate: true,
      defaultRootRole: 'Viewer',
      emailDomains: 'example.com',
      enableGroupSyncing: true,
      groupJsonPath: 'memberOf',
    });
  });

  it('shows the stored settings after a reload', async () => {
    await visit(admin, '/settings', 'Settings');
    const saml = section(admin, 'SAML');
    await saml.getByText('Configured', { exact: true }).waitFor();
    expect(await textbox(saml, 'Entity id').inputValue()).toBe('https://idp.example.com/metadata');
    expect(await textbox(saml, 'Single sign-on URL').inputValue()).toBe('https://idp.example.com/sso');
    expect(await textbox(saml, 'X.509 certificate').inputValue()).toBe(certificate.trim());
    expect(await textbox(saml, 'Sign-out URL').inputValue()).toBe('https://idp.example.com/slo');
    expect(await textbox(saml, 'Display name').inputValue()).toBe(SAML_NAME);
    expect(await saml.getByRole('switch', { name: 'Create users at their first sign-in' }).isChecked()).toBe(true);
    expect(await saml.getByRole('combobox', { name: 'Default root role', exact: true }).inputValue()).toBe('Viewer');
    expect(await textbox(saml, 'Email domains').inputValue()).toBe('example.com');
    expect(await saml.getByRole('switch', { name: 'Sync groups' }).isChecked()).toBe(true);
    expect(await textbox(saml, 'Groups attribute').inputValue()).toBe('memberOf');
  });

  it("shows the service's refusal on the form, and keeps the stored settings", async () => {
    const before = await ok(app.admin.GET('/api/admin/auth/saml/settings'));
    await visit(admin, '/settings', 'Settings');
    const saml = section(admin, 'SAML');
    await textbox(saml, 'Single sign-on URL').fill('not a url');
    await saml.getByRole('button', { name: 'Save settings' }).click();
    await saml.getByRole('alert').filter({ hasText: 'signOnUrl' }).waitFor();
    expect(await ok(app.admin.GET('/api/admin/auth/saml/settings'))).toEqual(before);
  });
});

describe('password sign-in turned off', () => {
  it('turns password sign-in off once an identity provider is configured, and says it is saved', async () => {
    await visit(admin, '/settings', 'Settings');
    const setting = section(admin, 'Password sign-in');
    await setting.getByText('Root Admins keep signing in with their password either way, and API tokens keep working.').waitFor();
    await setting.getByRole('switch', { name: 'Password sign-in' }).click({ force: true });
    await setting.getByRole('status').getByText('Saved').waitFor();
    expect(await passwordSetting()).toEqual({ disabled: true });
    await visit(admin, '/settings', 'Settings');
    expect(await section(admin, 'Password sign-in').getByRole('switch', { name: 'Password sign-in' }).isChecked()).toBe(false);
  });

  it('then offers on the sign-in page only the provider button and the administrator disclosure', async () => {
    const page = await newVisitor();
    await page.goto('/signin');
    const disclosure = page.getByRole('button', { name: 'Administrator sign-in with password' });
    await disclosure.waitFor();
    expect(await disclosure.getAttribute('aria-expanded')).toBe('false');
    const buttons = page.getByRole('link', { name: /^Sign in with/ });
    expect(await buttons.allTextContents()).toEqual([`Sign in with ${SAML_NAME}`]);
    expect(await buttons.first().getAttribute('href')).toBe(`/auth/saml/login?redirect=${encodeURIComponent('/flags')}`);
    expect(await usernameField(page).count()).toBe(0);
    await expectAccessible(page, 'the sign-in page with password sign-in off');
    await screenshot(page, 'sign-in-sso-only');
  });

  it('lets a root Admin sign in with a password through the disclosure', async () => {
    const page = await newVisitor();
    await page.goto('/signin');
    await page.getByRole('button', { name: 'Administrator sign-in with password' }).click();
    await expect.poll(() => usernameField(page).evaluate((input) => input === document.activeElement)).toBe(true);
    await usernameField(page).fill('alice');
    await page.locator('input[type=password]').fill(USER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
  });
});

describe('OpenID Connect through the sign-in button', () => {
  beforeAll(async () => {
    await ok(
      app.admin.POST('/api/admin/auth/oidc/settings', {
        body: {
          enabled: true,
          displayName: OIDC_NAME,
          clientId: provider.clientId,
          secret: provider.clientSecret,
          discoverUrl: provider.discoveryUrl,
          autoCreate: true,
          defaultRootRole: 'Editor',
          emailDomains: 'example.com',
        },
      }),
    );
    provider.addUser({ email: 'ada@example.com', name: 'Ada Lovelace' });
    provider.addUser({ email: 'eve@elsewhere.org', name: 'Eve Outsider' });
  });

  it("signs a new person in through the provider's pages, on the page they asked for, their name shown", async () => {
    const page = await newVisitor();
    await page.goto('/projects');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signInThroughProvider(page, 'ada@example.com');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects');
    await page.getByTestId('signed-in-as').getByText('Ada Lovelace').waitFor();
    expect(await usersWithEmail('ada@example.com')).toEqual([expect.objectContaining({ name: 'Ada Lovelace', rootRole: 2 })]);
  });

  it('signs the same person in again as the same user', async () => {
    const page = await newVisitor();
    await page.goto('/signin');
    await signInThroughProvider(page, 'ada@example.com');
    await page.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
    await page.getByTestId('signed-in-as').getByText('Ada Lovelace').waitFor();
    expect(await usersWithEmail('ada@example.com')).toHaveLength(1);
  });

  it('signs out through GET /logout to the sign-in page, the session over', async () => {
    const page = await newVisitor();
    await page.goto('/signin');
    await signInThroughProvider(page, 'ada@example.com');
    await page.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
    const [logout] = await Promise.all([page.waitForRequest((request) => new URL(request.url()).pathname === '/logout'), page.getByRole('button', { name: 'Sign out' }).click()]);
    expect(logout.method()).toBe('GET');
    expect(logout.isNavigationRequest()).toBe(true);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect(await page.evaluate(async () => (await fetch('/api/admin/user')).status)).toBe(401);
  });

  it('shows nothing of the signed-out session when the browser goes back', async () => {
    const page = await newVisitor();
    await page.goto('/signin');
    await signInThroughProvider(page, 'ada@example.com');
    await page.getByTestId('signed-in-as').getByText('Ada Lovelace').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goBack({ waitUntil: 'commit' });
    await page.waitForURL((url) => url.pathname === '/signin' && url.searchParams.get('next') === '/flags');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByText('Ada Lovelace').count()).toBe(0);
  });

  it('refuses a person outside the email domains, back on the sign-in page with the reason', async () => {
    const page = await newVisitor();
    await page.goto('/signin');
    await signInThroughProvider(page, 'eve@elsewhere.org');
    await page.getByRole('alert').getByText('not for eve@elsewhere.org').waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect(await page.getByTestId('signed-in-as').count()).toBe(0);
    expect(await usersWithEmail('eve@elsewhere.org')).toEqual([]);
    await screenshot(page, 'sign-in-sso-refused');
  });
});
