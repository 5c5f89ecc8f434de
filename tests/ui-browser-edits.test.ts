// Editing in the admin UI, in Debian's Chromium against the service on the embedded database: a segment, a context
// field and a user changed through their Edit dialogs (and a user's password set), each change read back through
// the API; a change the service refuses says why and leaves the dialog open; axe-core on every edit dialog.
// Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts from the PostgreSQL run).
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn, signedInThroughForm } from './support/browser.js';
import { ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { openDialog, row, save, textbox, visit } from './support/ui-dialogs.js';
import { createUser, login, USER_PASSWORD } from './support/users.js';
import { flagWith } from './support/frontend.js';

let app: TestApp;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  admin = await signedIn(browser, app, 'alice');
}, 240_000);

describe('an admin edits in the browser', () => {
  it('renames a segment and adds a constraint to it, and the service stores both', async () => {
    const segment = await ok(app.admin.POST('/api/admin/segments', { body: { name: 'beta-testers', constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }] } }));
    await visit(admin, '/segments', 'Segments');
    const dialog = await openDialog(admin, 'Edit beta-testers', 'Edit segment beta-testers');
    expect(await textbox(dialog, 'Name').inputValue()).toBe('beta-testers');
    await dialog.getByRole('group', { name: 'Constraint 1' }).getByText('a', { exact: true }).waitFor();
    await textbox(dialog, 'Name').fill('beta-users');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Users who joined the beta');
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const added = dialog.getByRole('group', { name: 'Constraint 2' });
    await added.getByRole('combobox', { name: 'Context field' }).click();
    await admin.getByRole('option', { name: 'appName' }).click();
    await added.getByLabel('Values').fill('web');
    await added.getByLabel('Values').press('Enter');
    await expectAccessible(admin, 'the edit segment dialog');
    await screenshot(admin, 'edit-segment');
    await save(dialog, 'Save segment');
    await admin.getByRole('table', { name: 'Segments' }).getByText('appName is one of web').waitFor();
    expect(await ok(app.admin.GET('/api/admin/segments/{segmentId}', { params: { path: { segmentId: segment.id } } }))).toMatchObject({
      name: 'beta-users',
      description: 'Users who joined the beta',
      project: null,
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['a'] },
        { contextName: 'appName', operator: 'IN', values: ['web'] },
      ],
    });
  });

  it("shows the service's message when a segment is renamed to another segment's name, and keeps the dialog open", async () => {
    await ok(app.admin.POST('/api/admin/segments', { body: { name: 'internal', constraints: [] } }));
    await visit(admin, '/segments', 'Segments');
    const dialog = await openDialog(admin, 'Edit beta-users', 'Edit segment beta-users');
    await textbox(dialog, 'Name').fill('internal');
    await dialog.getByRole('button', { name: 'Save segment' }).click();
    await admin.getByText('A segment named "internal" already exists.').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(await textbox(dialog, 'Name').inputValue()).toBe('internal');
    const names = (await ok(app.admin.GET('/api/admin/segments'))).segments.map((s) => s.name);
    expect(names).toEqual(['beta-users', 'internal']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("changes a context field's description and legal values, adding one and removing one", async () => {
    await ok(app.admin.POST('/api/admin/context', { body: { name: 'country', legalValues: [{ value: 'NO', description: 'Norway' }, { value: 'SE' }] } }));
    await visit(admin, '/context-fields', 'Context fields');
    const dialog = await openDialog(admin, 'Edit country', 'Edit context field country');
    expect(await textbox(dialog, 'Name').getAttribute('readonly')).not.toBeNull();
    expect(await dialog.getByRole('textbox', { name: 'Description of legal value 1' }).inputValue()).toBe('Norway');
    await textbox(dialog, 'Description').fill("The user's country");
    await dialog.getByRole('button', { name: 'Remove legal value SE' }).click();
    await dialog.getByRole('button', { name: 'Add legal value' }).click();
    await textbox(dialog, 'Legal value 2').fill('DK');
    await dialog.getByRole('textbox', { name: 'Description of legal value 2' }).fill('Denmark');
    await expectAccessible(admin, 'the edit context field dialog');
    await save(dialog, 'Save context field', 'Context field country saved.');
    await admin.getByRole('table', { name: 'Context fields' }).getByText('NO, DK').waitFor();
    expect(await ok(app.admin.GET('/api/admin/context/{contextField}', { params: { path: { contextField: 'country' } } }))).toMatchObject({
      name: 'country',
      description: "The user's country",
      stickiness: false,
      legalValues: [
        { value: 'NO', description: 'Norway' },
        { value: 'DK', description: 'Denmark' },
      ],
    });
  });

  it("changes a user's name and root role", async () => {
    const id = await createUser(app, { username: 'uma', rootRole: 'Viewer' });
    const { rootRoles } = await ok(app.admin.GET('/api/admin/user-admin'));
    const editor = rootRoles.find((r) => r.name === 'Editor')!;
    await visit(admin, '/users', 'Users');
    const dialog = await openDialog(admin, 'Edit uma', 'Edit user uma');
    expect(await dialog.getByRole('textbox', { name: 'Username' }).inputValue()).toBe('uma');
    await textbox(dialog, 'Name').fill('Uma Lind');
    await dialog.getByRole('combobox', { name: 'Root role' }).click();
    await admin.getByRole('option', { name: 'Editor' }).click();
    await expectAccessible(admin, 'the edit user dialog');
    await save(dialog, 'Save user', 'Uma Lind saved.');
    await admin.getByRole('table', { name: 'Users' }).getByText('Uma Lind').waitFor();
    expect(await ok(app.admin.GET('/api/admin/user-admin/{id}', { params: { path: { id } } }))).toMatchObject({ id, username: 'uma', name: 'Uma Lind', rootRole: editor.id });
  });

  it('sets a user password, with which they sign in (and no longer with the old one)', async () => {
    const newPassword = 'Another-Horse-77';
    await visit(admin, '/users', 'Users');
    const dialog = await openDialog(admin, 'Set password for Uma Lind', 'Set password for Uma Lind');
    await dialog.getByLabel('New password').fill(newPassword);
    await expectAccessible(admin, 'the set password dialog');
    await save(dialog, 'Set password', 'Password set for Uma Lind.');
    expect((await login(app, 'uma', USER_PASSWORD)).response.status).toBe(401);
    const uma = await signedInThroughForm(browser, app, 'uma', newPassword);
    // Signed in as an Editor: she may create flags.
    await uma.getByRole('button', { name: 'New flag' }).waitFor();
  });

  it("shows the service's message when a password is refused, and keeps the dialog open", async () => {
    await visit(admin, '/users', 'Users');
    const dialog = await openDialog(admin, 'Set password for Uma Lind', 'Set password for Uma Lind');
    await dialog.getByLabel('New password').fill('short');
    await dialog.getByRole('button', { name: 'Set password' }).click();
    await admin.getByText('password: a password needs at least 10 characters.').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('the playground', () => {
  it('says in a sentence why each flag came out as it did', async () => {
    const unmatched = (groupId: string) => ({
      name: 'flexibleRollout',
      parameters: { rollout: '100', stickiness: 'default', groupId },
      constraints: [{ contextName: 'userId', operator: 'IN' as const, values: ['someone-else'] }],
    });
    await flagWith(app, 'why-matched', [{ name: 'default' }]);
    await flagWith(app, 'why-unmatched', [unmatched('why-unmatched')]);
    await flagWith(app, 'why-two-unmatched', [unmatched('why-two-unmatched'), unmatched('why-two-unmatched')]);
    await flagWith(app, 'why-switched-off', [{ name: 'default' }], { on: false });
    await visit(admin, '/playground', 'Playground');
    await admin.getByRole('textbox', { name: 'userId' }).fill('alice');
    await admin.getByRole('button', { name: 'Evaluate' }).click();
    const why = (flag: string) => row(admin, 'Results', flag).getByRole('cell').nth(3).textContent();
    await row(admin, 'Results', 'why-matched').waitFor();
    expect(await why('why-matched')).toBe('1 strategy matched');
    expect(await why('why-unmatched')).toBe('no strategy matched for this context');
    expect(await why('why-two-unmatched')).toBe('2 strategies, none matched');
    expect(await why('why-switched-off')).toBe('off in this environment');
  });
});

describe('what a user may not change is not offered', () => {
  it('shows a Viewer segments and context fields without Edit buttons', async () => {
    await ok(app.admin.POST('/api/admin/segments', { body: { name: 'viewed-segment', constraints: [] } }));
    await createUser(app, { username: 'victor', rootRole: 'Viewer' });
    const page = await signedIn(browser, app, 'victor');
    for (const [path, heading] of [['/segments', 'Segments'], ['/context-fields', 'Context fields']] as const) {
      await visit(page, path, heading);
      await page.getByRole('table', { name: heading }).waitFor();
      expect(await page.getByRole('button', { name: /^Edit / }).count(), heading).toBe(0);
    }
  });
});
