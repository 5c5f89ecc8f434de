// The playground explains, in Debian's Chromium against the service on the embedded database: a result row opens to
// show each strategy in words with its segments and constraints (the context's value, met or not) and the variant
// chosen; the context may be entered as JSON (checked in the browser before anything is sent); several environments
// are evaluated at once, a column each. axe-core on each state; at 800 px wide nothing scrolls sideways.
// Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts from the PostgreSQL run).
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { ok } from './support/fixtures.js';
import { flagWith } from './support/frontend.js';
import { startUiTest } from './support/ui-build.js';
import { row, visit } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

let app: TestApp;
let page: Page;
/** The bodies of the playground requests the page sent, in order. */
const sent: ({ environments?: string[] } & Record<string, unknown>)[] = [];

beforeAll(async () => {
  let browser;
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'ada', rootRole: 'Admin' });
  const segment = await ok(app.admin.POST('/api/admin/segments', { body: { name: 'pro-plan', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] } }));
  await flagWith(app, 'new-checkout', [
    {
      name: 'flexibleRollout',
      parameters: { rollout: '100', stickiness: 'userId', groupId: 'new-checkout' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }],
      segments: [segment.id],
      variants: [{ name: 'treatment', weight: 1000, weightType: 'variable', stickiness: 'userId' }],
    },
  ]);
  await flagWith(app, 'old-banner', [{ name: 'default' }], { on: false });
  page = await signedIn(browser, app, 'ada');
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/admin/playground')) sent.push(request.postDataJSON());
  });
  await visit(page, '/playground', 'Playground');
}, 240_000);

const results = () => page.getByRole('table', { name: 'Results' });
/** The explanation of `flag` in `environment`, once opened. */
const explanation = (flag: string, environment = 'development') => page.getByRole('region', { name: `How ${flag} was decided in ${environment}` });
/** The items of the list named `list` in `within`. */
const items = (within: Locator, list: string) => within.getByRole('list', { name: list, exact: true }).getByRole('listitem');
const met = (item: Locator) => item.getByRole('img', { name: 'met', exact: true });
const notMet = (item: Locator) => item.getByRole('img', { name: 'not met', exact: true });

/** Chooses the way the context is entered (Form or JSON): a click on the choice's label, as a user does. */
async function enterAs(mode: 'Form' | 'JSON'): Promise<void> {
  const id = await page.getByRole('radio', { name: mode, exact: true }).getAttribute('id');
  await page.locator(`label[for="${id}"]`).click();
}

/** Back to the form, when a test before left the JSON shown. */
async function inForm(): Promise<void> {
  if (await page.getByRole('radio', { name: 'Form', exact: true }).isChecked()) return;
  await page.getByRole('textbox', { name: 'Context (JSON)' }).fill('{"appName": "playground"}');
  await enterAs('Form');
}

/** Evaluates and waits for the answer to show (the request counted). */
async function evaluate(): Promise<void> {
  const before = sent.length;
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/admin/playground/advanced');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  expect((await answered).status()).toBe(200);
  expect(sent.length).toBe(before + 1);
  await row(page, 'Results', 'new-checkout').first().waitFor();
}

describe('the playground explains each result', () => {
  it('opens a row to show the constraint bob does not meet, with his value, and the segment whose field he lacks', async () => {
    await inForm();
    await page.getByRole('textbox', { name: 'userId' }).fill('bob');
    await evaluate();
    const flag = row(page, 'Results', 'new-checkout');
    expect(await flag.getByRole('cell').nth(1).textContent()).toBe('off');
    const why = flag.getByRole('button', { name: 'no strategy matched for this context' });
    expect(await why.getAttribute('aria-expanded')).toBe('false');
    await why.click();
    expect(await why.getAttribute('aria-expanded')).toBe('true');
    const region = explanation('new-checkout');
    expect(await why.getAttribute('aria-controls')).toBe(await region.getAttribute('id'));
    const strategy = region.getByRole('list', { name: 'Strategies in development, in order' }).locator(':scope > li');
    await expect.poll(() => strategy.count()).toBe(1);
    expect(await strategy.first().textContent()).toContain('Gradual rollout: 100% of users, by userId, group new-checkout');
    expect(await strategy.first().textContent()).toContain('not matched');
    const constraint = items(region, 'Constraints of strategy 1');
    expect(await constraint.textContent()).toBe('✗userId is one of alice· context value: bob');
    expect(await notMet(constraint).count()).toBe(1);
    const segmentConstraint = items(region, 'Constraints of segment pro-plan');
    expect(await segmentConstraint.textContent()).toBe('✗plan is one of pro· context value: not set');
    expect(await notMet(segmentConstraint).count()).toBe(1);
    expect(await region.textContent()).toContain('Segment pro-plan');
    await expectAccessible(page, 'the playground with a result explained');
    await screenshot(page, 'playground-explained');
  });

  it("shows every constraint met for alice on the pro plan, and the flag on with its strategy's variant", async () => {
    await inForm();
    await page.getByRole('textbox', { name: 'userId' }).fill('alice');
    await page.getByRole('textbox', { name: 'Other context fields' }).fill('plan=pro');
    await evaluate();
    const flag = row(page, 'Results', 'new-checkout');
    const cells = flag.getByRole('cell');
    expect([await cells.nth(1).textContent(), await cells.nth(2).textContent(), await cells.nth(3).textContent()]).toEqual(['on', 'treatment', '1 strategy matched']);
    await flag.getByRole('button', { name: '1 strategy matched' }).click();
    const region = explanation('new-checkout');
    const constraint = items(region, 'Constraints of strategy 1');
    expect(await constraint.textContent()).toBe('✓userId is one of alice· context value: alice');
    expect(await met(constraint).count()).toBe(1);
    const segmentConstraint = items(region, 'Constraints of segment pro-plan');
    expect(await segmentConstraint.textContent()).toBe('✓plan is one of pro· context value: pro');
    expect(await notMet(region).count()).toBe(0);
    expect(await region.textContent()).toContain('Variant chosen: treatment');
    expect(await row(page, 'Results', 'old-banner').getByRole('cell').nth(3).textContent()).toBe('off in this environment');
  });

  it('evaluates a context entered as JSON, carried over from the form and back', async () => {
    await inForm();
    await page.getByRole('textbox', { name: 'userId' }).fill('alice');
    await page.getByRole('textbox', { name: 'Other context fields' }).fill('plan=pro');
    await enterAs('JSON');
    const json = page.getByRole('textbox', { name: 'Context (JSON)' });
    expect(JSON.parse(await json.inputValue())).toEqual({ appName: 'playground', userId: 'alice', properties: { plan: 'pro' } });
    await json.fill('{"appName": "web", "userId": "bob, the builder", "properties": {"plan": "pro"}}');
    await expectAccessible(page, 'the playground with the context as JSON');
    await evaluate();
    // Each value as a list of one: a comma stays inside the value instead of making two contexts.
    expect(sent.at(-1)).toEqual({ environments: ['development'], projects: '*', context: { appName: ['web'], userId: ['bob, the builder'], properties: { plan: ['pro'] } } });
    const flag = row(page, 'Results', 'new-checkout');
    expect(await flag.getByRole('cell').nth(1).textContent()).toBe('off');
    await flag.getByRole('button', { name: 'no strategy matched for this context' }).click();
    const region = explanation('new-checkout');
    expect(await items(region, 'Constraints of strategy 1').textContent()).toBe('✗userId is one of alice· context value: bob, the builder');
    expect(await items(region, 'Constraints of segment pro-plan').textContent()).toBe('✓plan is one of pro· context value: pro');
    await enterAs('Form');
    expect(await page.getByRole('textbox', { name: 'appName' }).inputValue()).toBe('web');
    expect(await page.getByRole('textbox', { name: 'userId' }).inputValue()).toBe('bob, the builder');
    expect(await page.getByRole('textbox', { name: 'Other context fields' }).inputValue()).toBe('plan=pro');
  });

  it('says on the field when the JSON is not JSON or not an object, and sends nothing', async () => {
    await enterAs('JSON');
    const json = page.getByRole('textbox', { name: 'Context (JSON)' });
    const before = sent.length;
    await json.fill('{"appName": "web", "userId": ');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.getByText(/^This is not valid JSON \(.*\)\. Check the quotes, commas and braces\.$/).waitFor();
    expect(await json.getAttribute('aria-invalid')).toBe('true');
    await json.fill('["alice"]');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.getByText('The context must be a JSON object, in braces: {"appName": "web", "userId": "alice"}.').waitFor();
    // Nor does it switch to the form with the context unread.
    await enterAs('Form');
    expect(await json.isVisible()).toBe(true);
    await expectAccessible(page, 'the playground with a JSON error');
    expect(sent.length).toBe(before);
  });

  it('evaluates two environments at once, a column each, and each cell opens its own explanation', async () => {
    await inForm();
    await page.getByRole('textbox', { name: 'userId' }).fill('alice');
    await page.getByRole('textbox', { name: 'Other context fields' }).fill('plan=pro');
    await page.getByRole('combobox', { name: 'Environments' }).click();
    await page.getByRole('option', { name: 'production' }).click();
    await page.keyboard.press('Escape');
    await evaluate();
    expect(sent.at(-1)?.environments).toEqual(['development', 'production']);
    expect(await results().getByRole('columnheader').allTextContents()).toEqual(['Flag', 'development', 'production']);
    const flag = row(page, 'Results', 'new-checkout');
    const cells = flag.getByRole('cell');
    expect([await cells.nth(1).textContent(), await cells.nth(2).textContent()]).toEqual(['on variant treatment', 'off']);
    await cells.nth(2).getByRole('button').click();
    expect(await explanation('new-checkout', 'production').getByText('Off: the flag is switched off in production, whatever its strategies say.').count()).toBe(1);
    // Another environment's cell opens that environment's explanation instead.
    await cells.nth(1).getByRole('button').click();
    const development = explanation('new-checkout', 'development');
    expect(await development.getByText('On: a strategy matched; variant treatment.').count()).toBe(1);
    expect(await explanation('new-checkout', 'production').count()).toBe(0);
    expect(await cells.nth(2).getByRole('button').getAttribute('aria-expanded')).toBe('false');
    await expectAccessible(page, 'the playground with two environments');
    await screenshot(page, 'playground-environments');
  });

  it('does not scroll sideways at 800 × 900 with two environments and an explanation open', async () => {
    await page.setViewportSize({ width: 800, height: 900 });
    await explanation('new-checkout', 'development').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 860 });
  });
});
