// A flag's strategies in Debian's Chromium, against the service on the embedded database: a gradual rollout with
// variants added through the strategy form (read back through the API), and its card read as a sentence (human
// name, segment AND constraint AND rollout, a segment's contents previewed, the variants' weight bar).
// Runs on PGlite only (vitest.config.ts).
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { uniqueNames } from './support/events.js';
import { fixtures, ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { fitsAt800 } from './support/ui-flag-page.js';
import { visit } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

let app: TestApp;
let browser: Browser;
let admin: Page;

const { createFlag, flagEnvironment, addStrategy } = fixtures(() => app, uniqueNames());

const FLAG = 'striped-flag';
let segmentId: number;

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  admin = await signedIn(browser, app, 'alice');
  const segment = await ok(
    app.admin.POST('/api/admin/segments', {
      body: { name: 'beta-testers', description: 'People in the beta', constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann', 'bob'] }] },
    }),
  );
  segmentId = segment.id;
  await createFlag('default', FLAG);
}, 600_000);

describe("a strategy's variants", () => {
  it('adds a gradual rollout with two variants through the strategy form, and the service stores them', async () => {
    await visit(admin, `/projects/default/features/${FLAG}`, FLAG);
    const development = admin.getByRole('region', { name: 'Environment development' });
    await development.getByRole('button', { name: 'Add strategy' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Add a strategy in development' });
    await dialog.getByLabel('Rollout percentage').fill('25');
    await dialog.getByRole('button', { name: 'Add variant' }).click();
    await dialog.getByRole('button', { name: 'Add variant' }).click();
    const first = dialog.getByRole('group', { name: 'Strategy variant 1' });
    const second = dialog.getByRole('group', { name: 'Strategy variant 2' });
    await first.getByRole('textbox', { name: 'Variant name' }).fill('blue');
    await second.getByRole('textbox', { name: 'Variant name' }).fill('green');
    // Weights are percentages: a fixed 30 % leaves 70 % to the variable one.
    await second.getByRole('checkbox', { name: 'Fixed weight' }).check();
    await second.getByRole('textbox', { name: 'Weight' }).fill('30');
    await expect.poll(() => first.getByRole('textbox', { name: 'Weight' }).inputValue()).toBe('70 %');
    await expect.poll(() => dialog.getByRole('list', { name: 'Variant weights' }).getByRole('listitem').allTextContents()).toEqual(['blue 70 %', 'green 30 %']);
    await pickIn(second, 'Payload', 'string');
    await second.getByRole('textbox', { name: 'Payload value' }).fill('go');
    await expectAccessible(admin, 'the strategy form with variants');
    await screenshot(admin, 'strategy-form-variants');
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByText('Strategy Gradual rollout added to development.').waitFor();
    const [strategy] = (await flagEnvironment(FLAG)).strategies;
    expect(strategy).toMatchObject({ name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'default', groupId: FLAG } });
    expect(strategy!.variants).toEqual([
      { name: 'blue', weight: 700, weightType: 'variable', stickiness: 'default' },
      { name: 'green', weight: 300, weightType: 'fix', stickiness: 'default', payload: { type: 'string', value: 'go' } },
    ]);
    // The first page load of the file (cold chunks, axe-core loaded) on a machine shared with other test runs.
  }, 90_000);

  it("shows the strategy's variants as a weight bar on its card", async () => {
    const card = admin.getByRole('region', { name: 'Environment development' }).getByTestId('strategy');
    await expect.poll(() => card.getByRole('list', { name: 'Variants of Gradual rollout' }).getByRole('listitem').allTextContents()).toEqual(['blue 70 %', 'green 30 %']);
  });

  it('removes a variant in the form, and the service gives the one left all of the weight', async () => {
    const card = admin.getByRole('region', { name: 'Environment development' }).getByTestId('strategy');
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Edit a strategy in development' });
    await dialog.getByRole('button', { name: 'Remove variant green' }).click();
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByText('Strategy Gradual rollout saved in development.').waitFor();
    expect((await flagEnvironment(FLAG)).strategies[0]!.variants).toEqual([{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }]);
  });
});

describe("a strategy's card", () => {
  const SENTENCE_FLAG = 'sentence-flag';

  beforeAll(async () => {
    await createFlag('default', SENTENCE_FLAG);
    await addStrategy(SENTENCE_FLAG, {
      name: 'flexibleRollout',
      parameters: { rollout: '25', stickiness: 'userId', groupId: SENTENCE_FLAG },
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
      segments: [segmentId],
    });
    await addStrategy(SENTENCE_FLAG, { name: 'default', title: 'everyone' });
  });

  it('reads as a sentence: its human name, then segment AND constraint AND rollout', async () => {
    await visit(admin, `/projects/default/features/${SENTENCE_FLAG}`, SENTENCE_FLAG);
    const cards = admin.getByRole('region', { name: 'Environment development' }).getByTestId('strategy');
    await expect
      .poll(() => clauses(cards.nth(0)))
      .toEqual(['Segment beta-testers', 'AND', 'appName is one of web', 'AND', '25% of users, by userId, group sentence-flag']);
    expect(await cards.nth(0).getByText('Gradual rollout', { exact: true }).count()).toBe(1);
    // The Standard strategy with a title: its title, its kind beside it, and what it does.
    expect(await cards.nth(1).getByText('Standard', { exact: true }).count()).toBe(1);
    expect(await clauses(cards.nth(1))).toEqual(['On for everyone']);
    await expectAccessible(admin, 'strategy cards read as sentences');
    await fitsAt800(admin, 'a flag page with strategy cards', () => screenshot(admin, 'strategy-cards'));
  });

  it("previews a segment's constraints on the card", async () => {
    const card = admin.getByRole('region', { name: 'Environment development' }).getByTestId('strategy').first();
    await card.getByRole('button', { name: 'Segment beta-testers' }).click();
    const preview = admin.getByRole('dialog', { name: 'Segment beta-testers' });
    await preview.getByText('People in the beta').waitFor();
    await preview.getByText('userId is one of ann, bob').waitFor();
    await expectAccessible(admin, "a segment's preview on a strategy card");
    await screenshot(admin, 'strategy-segment-preview');
    await admin.keyboard.press('Escape');
    await preview.waitFor({ state: 'hidden' });
  });
});

describe('deleting a strategy', () => {
  it('asks first, says it is deleted, and the service no longer has it', async () => {
    const name = 'pruned-flag';
    await createFlag('default', name);
    await addStrategy(name, { name: 'default', title: 'everyone' });
    await visit(admin, `/projects/default/features/${name}`, name);
    const card = admin.getByRole('region', { name: 'Environment development' }).getByTestId('strategy');
    await card.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('dialog', { name: 'Delete this strategy?' }).getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('Strategy everyone deleted from development.', { exact: true }).waitFor();
    expect((await flagEnvironment(name)).strategies).toEqual([]);
  });
});

/** The clauses of a strategy card's sentence, the ANDs between them included. */
const clauses = (card: Locator) => card.getByTestId('strategy-sentence').locator(':scope > *').allTextContents();

/** Opens the Select named `field` in `within` and picks `option`. */
async function pickIn(within: Locator, field: string, option: string) {
  await within.getByRole('combobox', { name: field }).click();
  await within.page().getByRole('option', { name: option, exact: true }).click();
}
