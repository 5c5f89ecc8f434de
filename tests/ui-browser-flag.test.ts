// A flag's page in Debian's Chromium, against the service on the embedded database: its metadata edited, its
// strategies reordered, and, where the project requires change requests, changes proposed into the user's draft
// instead of made; its header (breadcrumbs, creation, last seen per environment, the name copied), the confirmation
// each change shows, and an archived flag opened read-only and revived. Each change is read back through the API.
// Runs on PGlite only (vitest.config.ts).
import type { Browser, ConsoleMessage, Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { requireChangeRequests } from './support/change-requests.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok, reportMetrics, sdkMetrics, until } from './support/fixtures.js';
import { flagWith } from './support/frontend.js';
import { startUiTest } from './support/ui-build.js';
import { fitsAt800 } from './support/ui-flag-page.js';
import { openDialog, visit } from './support/ui-dialogs.js';
import { clientAs, createUser, sessionOf } from './support/users.js';

let app: TestApp;
let browser: Browser;
let admin: Page;
let editor: Page;

const { createFlag, flagOf, flagEnvironment, addStrategy, archiveFlag } = fixtures(() => app, uniqueNames());

/** Opens the flag's page and waits until it has loaded. */
async function openFlag(page: Page, name: string) {
  await page.goto(`/projects/default/features/${name}`);
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** The changes waiting in open change requests of the default project, as `action` of `feature` in `environment`. */
async function proposed() {
  const requests = await ok(app.admin.GET('/api/admin/projects/{projectId}/change-requests', { params: { path: { projectId: 'default' } } }));
  return requests.flatMap((r) => r.features.flatMap((f) => f.changes.map((c) => `${r.state}: ${c.action} of ${f.name} in ${r.environment}`)));
}

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  await createUser(app, { username: 'eddie', rootRole: 'Editor' });
  admin = await signedIn(browser, app, 'alice');
  editor = await signedIn(browser, app, 'eddie');
}, 600_000);

describe("a flag's page", () => {
  it('edits the description, type and impression data', async () => {
    await createFlag('default', 'described-flag', { description: 'Before' });
    await openFlag(admin, 'described-flag');
    await admin.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = admin.getByRole('dialog', { name: 'Edit described-flag' });
    expect(await dialog.getByRole('textbox', { name: 'Description' }).inputValue()).toBe('Before');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('After');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await admin.getByRole('option', { name: 'Operational' }).click();
    await dialog.getByRole('switch', { name: 'Impression data' }).check({ force: true });
    await expectAccessible(admin, "a flag's edit dialog");
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByText('described-flag saved.', { exact: true }).waitFor();
    await admin.getByText('impression data', { exact: true }).waitFor();
    expect(await flagOf('described-flag')).toMatchObject({ description: 'After', type: 'operational', impressionData: true });
  });

  it('moves a strategy before another, and SDKs evaluate them in the new order', async () => {
    await flagWith(app, 'ordered-flag', [
      { name: 'flexibleRollout', title: 'first', parameters: { rollout: 10, stickiness: 'default', groupId: 'ordered-flag' } },
      { name: 'flexibleRollout', title: 'second', parameters: { rollout: 20, stickiness: 'default', groupId: 'ordered-flag' } },
    ]);
    await openFlag(admin, 'ordered-flag');
    const development = admin.getByRole('region', { name: 'Environment development' });
    expect(await development.getByRole('button', { name: 'Evaluate first earlier' }).count()).toBe(0);
    await development.getByRole('button', { name: 'Evaluate second earlier' }).click();
    await expect.poll(async () => (await flagEnvironment('ordered-flag', 'development')).strategies.map((s) => s.title)).toEqual(['second', 'first']);
    await admin.getByText('Strategies of ordered-flag in development reordered.', { exact: true }).waitFor();
    await expect.poll(() => development.getByTestId('strategy').first().textContent()).toContain('second');
  });

  it('passes axe-core with no level of heading skipped', async () => {
    await createFlag('default', 'headed-flag');
    await openFlag(admin, 'headed-flag');
    await admin.getByRole('region', { name: 'Environment development' }).waitFor();
    // Loads axe-core into the page, and fails on anything serious; heading-order is only "moderate", so asked for alone.
    await expectAccessible(admin, "a flag's page");
    const skipped = await admin.evaluate(async () => {
      type Axe = { run(options: object): Promise<{ violations: { nodes: { html: string }[] }[] }> };
      const result = await (window as unknown as { axe: Axe }).axe.run({ runOnly: ['heading-order'], resultTypes: ['violations'] });
      return result.violations.flatMap((v) => v.nodes.map((n) => n.html));
    });
    expect(skipped).toEqual([]);
  });
});

describe("a flag's header", () => {
  const HEADED = 'investigated-flag';

  beforeAll(async () => {
    // Created by alice herself, so that the page can say by whom.
    await ok(clientAs(app, { cookie: await sessionOf(app, 'alice') }).POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'default' } }, body: { name: HEADED } }));
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    await ok(reportMetrics(app, token, sdkMetrics('shop', 'i-1', new Date().toISOString(), { [HEADED]: { yes: 2, no: 1, variants: {} } })), 202);
    await until('the report to be written', async () => (await flagEnvironment(HEADED, 'development')).lastSeenAt, (seen) => seen !== null);
  });

  it('shows breadcrumbs, who created the flag and when, and when SDKs last saw it in each environment', async () => {
    await openFlag(admin, HEADED);
    const crumbs = admin.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(await crumbs.getByRole('link').evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual([
      ['Projects', '/projects'],
      ['Default', '/projects/default'],
    ]);
    expect(await crumbs.getByText(HEADED).getAttribute('aria-current')).toBe('page');
    await admin.getByText(/^Created (just now|\d+ minutes? ago) by alice$/).waitFor();
    const development = admin.getByRole('region', { name: 'Environment development' });
    await development.getByText(/^Last seen (just now|\d+ minutes? ago)$/).waitFor();
    const seenAt = (await flagEnvironment(HEADED, 'development')).lastSeenAt!;
    expect(await development.locator('time').getAttribute('datetime')).toBe(seenAt);
    expect(await development.locator('time').getAttribute('title')).toBe(new Date(seenAt).toLocaleString('en-GB', { timeZone: 'UTC' }));
    await admin.getByRole('region', { name: 'Environment production' }).getByText('Last seen never', { exact: true }).waitFor();
    await expectAccessible(admin, "a flag's page with its header");
  });

  it('fits 800 × 900 without scrolling sideways', async () => {
    await openFlag(admin, HEADED);
    await admin.getByRole('region', { name: 'Environment development' }).waitFor();
    await fitsAt800(admin, "a flag's page", () => screenshot(admin, 'flag-page'));
  });

  it("copies the flag's name, and says Copied", async () => {
    await admin.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
    await openFlag(admin, HEADED);
    await admin.getByRole('button', { name: 'Copy name' }).click();
    await admin.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(HEADED);
  });
});

describe('each change on a flag page says it worked', () => {
  it('says the flag is on in development once its switch turned it on', async () => {
    await createFlag('default', 'switched-flag');
    await openFlag(admin, 'switched-flag');
    await admin.getByRole('switch', { name: 'development: off' }).click({ force: true });
    await admin.getByText('switched-flag is on in development.', { exact: true }).waitFor();
    expect((await flagEnvironment('switched-flag', 'development')).enabled).toBe(true);
  });

  it('says the flag is marked stale', async () => {
    await createFlag('default', 'aging-flag');
    await openFlag(admin, 'aging-flag');
    await admin.getByRole('switch', { name: 'Stale' }).click({ force: true });
    await admin.getByText('aging-flag is marked stale.', { exact: true }).waitFor();
    expect((await flagOf('aging-flag')).stale).toBe(true);
  });

  it('says a tag was added', async () => {
    await createFlag('default', 'tagged-flag');
    await openFlag(admin, 'tagged-flag');
    await admin.getByRole('button', { name: 'Add tag', exact: true }).click();
    await admin.getByRole('textbox', { name: 'Value' }).fill('checkout');
    await admin.getByRole('button', { name: 'Add', exact: true }).click();
    await admin.getByText('Tag simple: checkout added.', { exact: true }).waitFor();
    expect((await flagOf('tagged-flag')).tags).toEqual([{ type: 'simple', value: 'checkout' }]);
  });
});

describe('an archived flag', () => {
  const ARCHIVED = 'retired-flag';

  beforeAll(async () => {
    await createFlag('default', ARCHIVED, { description: 'The old banner' });
    await addStrategy(ARCHIVED, { name: 'flexibleRollout', parameters: { rollout: '40', stickiness: 'userId', groupId: ARCHIVED } });
    await archiveFlag('default', ARCHIVED);
  });

  it('opens read-only: its name, project, when it was archived and its last configuration, and no control to change it', async () => {
    await openFlag(admin, ARCHIVED);
    await admin.getByText(/^Archived (just now|\d+ minutes? ago)$/).waitFor();
    await admin.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Default' }).waitFor();
    const development = admin.getByRole('region', { name: 'Environment development' });
    await development.getByText('40% of users, by userId, group retired-flag', { exact: true }).waitFor();
    for (const control of ['Edit', 'Delete', 'Archive', 'Add strategy', 'Add tag', 'Add dependency', 'Complete', 'Move']) {
      expect(await admin.getByRole('main').getByRole('button', { name: control }).count(), control).toBe(0);
    }
    expect(await admin.getByRole('switch').count()).toBe(0);
    await expectAccessible(admin, 'an archived flag');
    await fitsAt800(admin, 'an archived flag', () => screenshot(admin, 'flag-archived'));
  });

  it('revives it after asking, and then shows it active', async () => {
    await openFlag(admin, ARCHIVED);
    await admin.getByRole('button', { name: 'Revive' }).click();
    const dialog = admin.getByRole('dialog', { name: `Revive ${ARCHIVED}?` });
    await expectAccessible(admin, 'the Revive dialog');
    await dialog.getByRole('button', { name: 'Revive' }).click();
    await admin.getByText(`${ARCHIVED} is revived.`, { exact: true }).waitFor();
    await admin.getByRole('switch', { name: 'development: off' }).waitFor();
    expect(await flagOf(ARCHIVED)).toMatchObject({ archived: false, description: 'The old banner' });
  });
});

describe('the New flag dialog', () => {
  /** Opens the dialog from the flag list at `path`. */
  async function openNewFlag(path = '/flags') {
    await visit(admin, path, 'Flags');
    return openDialog(admin, 'New flag', 'New flag');
  }

  it('logs no console error while a name is typed, and takes a good name', async () => {
    const errors: string[] = [];
    const listener = (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(message.text());
    };
    admin.on('console', listener);
    try {
      const dialog = await openNewFlag();
      const name = dialog.getByRole('textbox', { name: 'Name' });
      await name.fill("good_name-1.(x)!~*'");
      expect(await name.evaluate((input: HTMLInputElement) => input.checkValidity())).toBe(true);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    } finally {
      admin.off('console', listener);
    }
    expect(errors).toEqual([]);
  });

  it('says on the field, in plain words, that a name is not allowed, and sends nothing', async () => {
    const sent: string[] = [];
    const listener = (request: Request) => {
      if (request.method() === 'POST') sent.push(request.url());
    };
    const dialog = await openNewFlag();
    admin.on('request', listener);
    try {
      for (const bad of ['bad name', '..']) {
        const name = dialog.getByRole('textbox', { name: 'Name' });
        await name.fill(bad);
        await dialog.getByRole('button', { name: 'Create flag' }).click();
        await dialog.getByText(/^Use only letters, digits and/).waitFor();
        expect(await name.getAttribute('aria-invalid'), bad).toBe('true');
      }
    } finally {
      admin.off('request', listener);
    }
    expect(sent).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('preselects the project whose flags are shown', async () => {
    await ok(app.admin.POST('/api/admin/projects', { body: { id: 'viewed-project', name: 'Viewed project' } }));
    const dialog = await openNewFlag('/flags?project=viewed-project');
    expect(await dialog.getByRole('combobox', { name: 'Project' }).inputValue()).toBe('Viewed project'); // shown by its name
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('where the project requires change requests', () => {
  beforeAll(async () => {
    await requireChangeRequests(app, 'default', 'production');
    await createFlag('default', 'guarded-flag');
  });

  it('proposes turning the flag on into the Editor’s draft instead of turning it on', async () => {
    await openFlag(editor, 'guarded-flag');
    const production = editor.getByRole('region', { name: 'Environment production' });
    await production.getByText('change requests', { exact: true }).waitFor();
    await production.getByRole('switch', { name: 'production: off' }).click({ force: true });
    await editor.getByText(/Proposed in your draft change request #\d+ for production/).waitFor();
    expect(await proposed()).toEqual(['Draft: updateEnabled of guarded-flag in production']);
    expect((await flagEnvironment('guarded-flag', 'production')).enabled).toBe(false);
    await expect.poll(() => production.getByRole('switch', { name: 'production: off' }).isChecked()).toBe(false);
    await expectAccessible(editor, 'a flag page proposing changes');
    await screenshot(editor, 'flag-change-request');
  });

  it('proposes a new strategy into the same draft', async () => {
    await openFlag(editor, 'guarded-flag');
    const production = editor.getByRole('region', { name: 'Environment production' });
    await production.getByRole('button', { name: 'Add strategy' }).click();
    await editor.getByRole('dialog').getByRole('button', { name: 'Save strategy' }).click();
    await editor.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(proposed).toEqual(['Draft: updateEnabled of guarded-flag in production', 'Draft: addStrategy of guarded-flag in production']);
    expect((await flagEnvironment('guarded-flag', 'production')).strategies).toEqual([]);
  });

  it('changes development directly, where no change request is required', async () => {
    await openFlag(editor, 'guarded-flag');
    const development = editor.getByRole('region', { name: 'Environment development' });
    expect(await development.getByText('change requests', { exact: true }).count()).toBe(0);
    await development.getByRole('switch', { name: 'development: off' }).click({ force: true });
    await expect.poll(async () => (await flagEnvironment('guarded-flag', 'development')).enabled).toBe(true);
  });

  it('lets an Admin, who may skip change requests, turn production on directly', async () => {
    await openFlag(admin, 'guarded-flag');
    const production = admin.getByRole('region', { name: 'Environment production' });
    expect(await production.getByText('change requests', { exact: true }).count()).toBe(0);
    await production.getByRole('switch', { name: 'production: off' }).click({ force: true });
    await expect.poll(async () => (await flagEnvironment('guarded-flag', 'production')).enabled).toBe(true);
  });
});
