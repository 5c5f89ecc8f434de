// Connecting an SDK from the admin UI (issue 30, item 9), in Debian's Chromium against the service on the embedded
// database: the API tokens page gives the client, frontend and OpenFeature URLs with copy buttons; a token just created
// comes with a snippet per SDK of its kind, whose URL and secret the service accepts; revoking says so; a page with
// nothing on it yet says what to create first. axe-core on every state; no sideways scrolling at 800 px.
// Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts from the PostgreSQL run).
import type { Browser, Locator, Page } from 'playwright-core';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { openDialog, pick, row, visit } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

let app: TestApp;
let browser: Browser;
/** An admin: flags. */
let admin: Page;
/** A user whose root role manages client and frontend tokens only: the admin token the app starts with is not theirs to see. */
let tokenKeeper: Page;
let origin: string;

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  origin = new URL(app.url).origin;
  const permissions = ['CLIENT', 'FRONTEND'].flatMap((kind) => ['CREATE', 'READ', 'DELETE'].map((verb) => ({ name: `${verb}_${kind}_API_TOKEN` })));
  await ok(app.admin.POST('/api/admin/roles', { body: { name: 'SDK keeper', description: 'Client and frontend tokens', type: 'root-custom', permissions } }));
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  await createUser(app, { username: 'kim', rootRole: 'SDK keeper' });
  admin = await signedIn(browser, app, 'alice');
  tokenKeeper = await signedIn(browser, app, 'kim');
  await tokenKeeper.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
}, 240_000);

/** The page does not scroll sideways at 800 × 900 (then back to the tests' usual size). */
async function fitsAt800(page: Page, what: string): Promise<void> {
  const before = page.viewportSize()!;
  await page.setViewportSize({ width: 800, height: 900 });
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `${what} scrolls sideways at 800 px`).toBeLessThanOrEqual(clientWidth);
  await page.setViewportSize(before);
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** Creates a token through the New API token dialog; answers the dialog that shows its secret, and the secret shown. */
async function createToken(page: Page, name: string, kind: string): Promise<{ shown: Locator; secret: string }> {
  const dialog = await openDialog(page, 'New token', 'New API token');
  await dialog.getByLabel('Name').fill(name);
  await pick(dialog, 'Kind', kind);
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByRole('dialog', { name: 'Token created' });
  const secret = (await shown.getByTestId('token-secret').textContent())!;
  return { shown, secret };
}

/** A string property of a JavaScript object literal in a snippet: `name: 'value'`. */
function property(snippet: string, name: string): string {
  const found = new RegExp(`${name}: '([^']*)'`).exec(snippet);
  expect(found, `${name} in\n${snippet}`).not.toBeNull();
  return found![1]!;
}

describe('nothing yet: the page says what to do next', () => {
  it('shows the tokens page without tokens saying which token to create, with a button that opens New API token', async () => {
    await visit(tokenKeeper, '/api-tokens', 'API tokens');
    await tokenKeeper.getByText('No tokens yet — create a client token to connect a backend SDK, or a frontend token for a browser or mobile app.').waitFor();
    expect((await ok(app.clientWith().GET('/api/admin/api-tokens', { headers: { cookie: await cookieOf(tokenKeeper) } }))).tokens).toEqual([]);
    await expectAccessible(tokenKeeper, 'the API tokens page without tokens');
    await fitsAt800(tokenKeeper, 'the API tokens page without tokens');
    const dialog = await openDialog(tokenKeeper, 'Create your first token', 'New API token');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows the flag list without flags saying to create the first, with a button that opens New flag', async () => {
    expect((await ok(app.admin.GET('/api/admin/search/features'))).total).toBe(0);
    await visit(admin, '/flags', 'Flags');
    await admin.getByText('No flags yet — create your first flag').waitFor();
    await expectAccessible(admin, 'the flag list without flags');
    await fitsAt800(admin, 'the flag list without flags');
    await screenshot(admin, 'flags-empty');
    const dialog = await openDialog(admin, 'Create your first flag', 'New flag');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('says when no flag matches the search, and Clear the filters shows every flag again', async () => {
    await ok(app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'default' } }, body: { name: 'checkout' } }));
    await visit(admin, '/flags?q=nothing-like-this&type=release', 'Flags');
    await admin.getByText('No flag matches.').waitFor();
    expect(await admin.getByText('No flags yet').count()).toBe(0);
    await expectAccessible(admin, 'the flag list with no match');
    await admin.getByRole('button', { name: 'Clear the filters' }).click();
    await row(admin, 'Flags', 'checkout').waitFor();
    expect(new URL(admin.url()).search).toBe('');
    expect(await admin.getByRole('textbox', { name: 'Search' }).inputValue()).toBe('');
  });
});

describe('the API tokens page connects an SDK', () => {
  it('shows the client, frontend and OpenFeature URLs, and copies one to the clipboard', async () => {
    await visit(tokenKeeper, '/api-tokens', 'API tokens');
    const urls = tokenKeeper.getByRole('list', { name: 'SDK addresses' });
    expect(await urls.locator('[data-url]').allTextContents()).toEqual([`${origin}/api/`, `${origin}/api/frontend`, origin]);
    await urls.getByRole('button', { name: 'Copy the Frontend API URL' }).click();
    await urls.getByRole('button', { name: 'Copied the Frontend API URL' }).waitFor();
    expect(await clipboard(tokenKeeper)).toBe(`${origin}/api/frontend`);
    await expectAccessible(tokenKeeper, 'the API tokens page');
    await fitsAt800(tokenKeeper, 'the API tokens page');
    await screenshot(tokenKeeper, 'api-tokens');
  });

  it('creates a frontend token and shows a browser snippet whose URL and secret the frontend API accepts', async () => {
    await visit(tokenKeeper, '/api-tokens', 'API tokens');
    const { shown, secret } = await createToken(tokenKeeper, 'web-shop', 'Frontend (browser and mobile SDKs)');
    expect(secret).toMatch(/^\*:development\.\w+$/);
    const browserTab = shown.getByRole('tabpanel', { name: 'Browser' });
    const snippet = (await browserTab.locator('[data-snippet]').textContent())!;
    expect(snippet).toContain("import { UnleashClient } from 'unleash-proxy-client';");
    expect(property(snippet, 'url')).toBe(`${origin}/api/frontend`);
    expect(property(snippet, 'clientKey')).toBe(secret);
    expect(property(snippet, 'appName')).toBe('web-shop');
    // What the snippet says works: the frontend API answers its URL with its key.
    const answer = await request(property(snippet, 'url'), { headers: { authorization: property(snippet, 'clientKey') } });
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.json()).toEqual({ toggles: [] });
    await browserTab.getByRole('button', { name: 'Copy the Browser snippet' }).click();
    expect(await clipboard(tokenKeeper)).toBe(snippet);
    await expectAccessible(tokenKeeper, 'the token created dialog with its snippets');
    await fitsAt800(tokenKeeper, 'the token created dialog');
    await screenshot(tokenKeeper, 'token-created-snippets');
    await shown.getByRole('tab', { name: 'React' }).click();
    const react = (await shown.getByRole('tabpanel', { name: 'React' }).locator('[data-snippet]').textContent())!;
    expect(react).toContain("import { FlagProvider } from '@unleash/proxy-client-react';");
    expect(property(react, 'clientKey')).toBe(secret);
    await shown.getByRole('tab', { name: 'OpenFeature (web)' }).click();
    const openFeature = (await shown.getByRole('tabpanel', { name: 'OpenFeature (web)' }).locator('[data-snippet]').textContent())!;
    expect(property(openFeature, 'baseUrl')).toBe(origin);
    expect(openFeature).toContain(`['Authorization', 'Bearer ${secret}']`);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await tokenKeeper.content()).not.toContain(secret.split('.')[1]);
  });

  it("creates a client token and shows a Node snippet of unleash-client whose URL and token the client API accepts", async () => {
    await visit(tokenKeeper, '/api-tokens', 'API tokens');
    const { shown, secret } = await createToken(tokenKeeper, 'checkout-service', 'Client (backend SDKs)');
    expect(await shown.getByRole('tab').allTextContents()).toEqual(['Node', 'Java', 'Go', 'Python', 'OpenFeature (server)']);
    const snippet = (await shown.getByRole('tabpanel', { name: 'Node' }).locator('[data-snippet]').textContent())!;
    expect(snippet).toContain("import { initialize } from 'unleash-client';");
    expect(property(snippet, 'url')).toBe(`${origin}/api/`);
    expect(snippet).toContain(`customHeaders: { Authorization: '${secret}' }`);
    // unleash-client reads `client/features` under its url with the token as Authorization.
    const answer = await request(new URL('client/features', property(snippet, 'url')), { headers: { authorization: secret } });
    expect(answer.statusCode).toBe(200);
    expect(((await answer.body.json()) as { features: { name: string }[] }).features.map((f) => f.name)).toEqual(['checkout']);
    await shown.getByRole('tab', { name: 'OpenFeature (server)' }).click();
    const openFeature = (await shown.getByRole('tabpanel', { name: 'OpenFeature (server)' }).locator('[data-snippet]').textContent())!;
    expect(openFeature).toContain("import { OFREPProvider } from '@openfeature/ofrep-provider';");
    expect(property(openFeature, 'baseUrl')).toBe(origin);
    await expectAccessible(tokenKeeper, 'the client token created dialog');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
  });

  it('creates an admin token and shows a curl command that the admin API answers', async () => {
    await visit(admin, '/api-tokens', 'API tokens');
    const { shown, secret } = await createToken(admin, 'deploy-script', 'Admin (the admin API)');
    const command = (await shown.locator('[data-snippet]').textContent())!;
    const found = /^curl -H "Authorization: ([^"]+)" (\S+)$/.exec(command);
    expect(found, command).not.toBeNull();
    expect(found![1]).toBe(secret);
    expect(found![2]).toBe(`${origin}/api/admin/projects`);
    const answer = await request(found![2]!, { headers: { authorization: found![1]! } });
    expect(answer.statusCode).toBe(200);
    expect(((await answer.body.json()) as { projects: { id: string }[] }).projects.map((p) => p.id)).toContain('default');
    await expectAccessible(admin, 'the admin token created dialog');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
  });

  it('revokes a token, says so, and the service no longer lists it', async () => {
    await visit(tokenKeeper, '/api-tokens', 'API tokens');
    const dialog = await openDialog(tokenKeeper, 'Revoke', 'Revoke web-shop?', row(tokenKeeper, 'API tokens', 'web-shop'));
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await tokenKeeper.getByText('Token web-shop revoked.').waitFor();
    await row(tokenKeeper, 'API tokens', 'web-shop').waitFor({ state: 'detached' });
    await expectAccessible(tokenKeeper, 'the API tokens page after a revocation');
    const names = (await ok(app.admin.GET('/api/admin/api-tokens'))).tokens.map((t) => t.tokenName);
    expect(names).toContain('checkout-service');
    expect(names).not.toContain('web-shop');
  });
});

/** The page's session cookie as a `cookie` header value. */
async function cookieOf(page: Page): Promise<string> {
  return (await page.context().cookies(origin)).map((c) => `${c.name}=${c.value}`).join('; ');
}
