// Editing the admin lists in the browser, in Debian's Chromium against the service on the embedded database: a
// project, an environment, a group, a role, a strategy and a tag type changed through their Edit dialogs, each change
// read back through the API; a change the service refuses says why and leaves the dialog open; axe-core on every
// edit dialog; a Viewer is offered no Edit button. Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts
// from the PostgreSQL run).
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { confirmed, openDialog, pick, row, save, textbox, visit } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

let app: TestApp;
let browser: Browser;
let admin: Page;

/** The list pages with Edit buttons, by path and heading. */
const PAGES = [
  ['/projects', 'Projects'],
  ['/environments', 'Environments'],
  ['/groups', 'Groups'],
  ['/roles', 'Roles'],
  ['/strategies', 'Strategies'],
  ['/tag-types', 'Tag types'],
] as const;

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  admin = await signedIn(browser, app, 'alice');
}, 240_000);

describe('an admin edits the admin lists in the browser', () => {
  it("changes a project's name, description, mode and default stickiness, keeping its id", async () => {
    await ok(app.admin.POST('/api/admin/projects', { body: { id: 'payments', name: 'Payments' } }));
    await visit(admin, '/projects', 'Projects');
    const dialog = await openDialog(admin, 'Edit Payments', 'Edit project Payments');
    expect(await textbox(dialog, 'Id').getAttribute('readonly')).not.toBeNull();
    expect(await textbox(dialog, 'Name').inputValue()).toBe('Payments');
    await textbox(dialog, 'Name').fill('Payments and billing');
    await textbox(dialog, 'Description').fill('Flags of the payment flows');
    await pick(dialog, 'Mode', 'Private');
    await pick(dialog, 'Default stickiness', 'userId');
    await expectAccessible(admin, 'the edit project dialog');
    await screenshot(admin, 'edit-project');
    await save(dialog, 'Save project');
    await admin.getByRole('table', { name: 'Projects' }).getByText('Payments and billing').waitFor();
    expect(await ok(app.admin.GET('/api/admin/projects/{projectId}', { params: { path: { projectId: 'payments' } } }))).toMatchObject({
      id: 'payments',
      name: 'Payments and billing',
      description: 'Flags of the payment flows',
      mode: 'private',
      defaultStickiness: 'userId',
    });
  });

  it("changes an environment's type and sort order, keeping its name", async () => {
    await ok(app.admin.POST('/api/admin/environments', { body: { name: 'staging', type: 'test' } }));
    await visit(admin, '/environments', 'Environments');
    const dialog = await openDialog(admin, 'Edit staging', 'Edit environment staging');
    expect(await textbox(dialog, 'Name').getAttribute('readonly')).not.toBeNull();
    expect(await dialog.getByRole('combobox', { name: 'Type' }).inputValue()).toBe('test');
    await pick(dialog, 'Type', 'preproduction');
    await textbox(dialog, 'Sort order').fill('5');
    await expectAccessible(admin, 'the edit environment dialog');
    await save(dialog, 'Save environment', 'Environment staging saved.');
    await admin.getByRole('table', { name: 'Environments' }).getByText('preproduction').waitFor();
    expect(await ok(app.admin.GET('/api/admin/environments/{environment}', { params: { path: { environment: 'staging' } } }))).toMatchObject({ name: 'staging', type: 'preproduction', sortOrder: 5 });
  });

  it("renames a group, gives it a root role, and replaces a member with another", async () => {
    const gina = await createUser(app, { username: 'gina', rootRole: 'Viewer', name: 'Gina Berg' });
    const hal = await createUser(app, { username: 'hal', rootRole: 'Viewer', name: 'Hal Moe' });
    const group = await ok(app.admin.POST('/api/admin/groups', { body: { name: 'checkout', mappingsSSO: ['sso-checkout'], users: [{ user: { id: gina } }] } }));
    const { rootRoles } = await ok(app.admin.GET('/api/admin/user-admin'));
    const editor = rootRoles.find((r) => r.name === 'Editor')!;
    await visit(admin, '/groups', 'Groups');
    const dialog = await openDialog(admin, 'Edit checkout', 'Edit group checkout');
    await dialog.getByText('Gina Berg').waitFor();
    await dialog.getByText('sso-checkout').waitFor();
    await textbox(dialog, 'Name').fill('checkout-team');
    await textbox(dialog, 'Description').fill('Checkout and payments');
    await pick(dialog, 'Root role', 'Editor');
    await pick(dialog, 'Members', 'Gina Berg');
    await admin.getByRole('option', { name: 'Hal Moe', exact: true }).click();
    await textbox(dialog, 'Description').click();
    await expectAccessible(admin, 'the edit group dialog');
    await save(dialog, 'Save group', 'Group checkout-team saved.');
    await admin.getByRole('table', { name: 'Groups' }).getByText('checkout-team').waitFor();
    const stored = await ok(app.admin.GET('/api/admin/groups/{groupId}', { params: { path: { groupId: group.id } } }));
    expect(stored).toMatchObject({ name: 'checkout-team', description: 'Checkout and payments', rootRole: editor.id, mappingsSSO: ['sso-checkout'] });
    expect(stored.users.map((m) => m.user.id)).toEqual([hal]);
  });

  it("changes a custom role's name, description and permissions, an environment's one among them", async () => {
    const role = await ok(app.admin.POST('/api/admin/roles', { body: { name: 'Flag editor', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE' }] } }));
    await visit(admin, '/roles', 'Roles');
    expect(await admin.getByRole('button', { name: 'Edit Admin', exact: true }).count(), 'a built-in role').toBe(0);
    const dialog = await openDialog(admin, 'Edit Flag editor', 'Edit role Flag editor');
    await dialog.getByText('Update feature flags').waitFor();
    await textbox(dialog, 'Name').fill('Flag maker');
    await textbox(dialog, 'Description').fill('Creates and edits flags');
    const permissions = dialog.getByRole('combobox', { name: 'Permissions' });
    await permissions.fill('Create feature');
    await admin.getByRole('option', { name: 'Create feature flags', exact: true }).click();
    await permissions.fill('Enable/disable');
    await admin.getByRole('option', { name: 'Enable/disable flags in development', exact: true }).click();
    await textbox(dialog, 'Description').click();
    await expectAccessible(admin, 'the edit role dialog');
    await screenshot(admin, 'edit-role');
    await save(dialog, 'Save role', 'Role Flag maker saved.');
    await admin.getByRole('table', { name: 'Roles' }).getByText('Flag maker').waitFor();
    const stored = await ok(app.admin.GET('/api/admin/roles/{roleId}', { params: { path: { roleId: role.id } } }));
    expect(stored).toMatchObject({ name: 'Flag maker', description: 'Creates and edits flags', type: 'custom' });
    expect(stored.permissions.map((p) => [p.name, p.environment])).toEqual([
      ['CREATE_FEATURE', undefined],
      ['UPDATE_FEATURE', undefined],
      ['UPDATE_FEATURE_ENVIRONMENT', 'development'],
    ]);
  });

  it("changes a custom strategy's title, description and parameters, and offers no Edit for built-in ones", async () => {
    await ok(app.admin.POST('/api/admin/strategies', { body: { name: 'tenantIds', parameters: [{ name: 'tenants', type: 'list' }] } }));
    await visit(admin, '/strategies', 'Strategies');
    expect(await admin.getByRole('button', { name: 'Edit flexibleRollout', exact: true }).count(), 'a built-in strategy').toBe(0);
    const dialog = await openDialog(admin, 'Edit tenantIds', 'Edit strategy tenantIds');
    expect(await textbox(dialog, 'Name').getAttribute('readonly')).not.toBeNull();
    const first = dialog.getByRole('group', { name: 'Parameter 1' });
    expect(await textbox(first, 'Parameter').inputValue()).toBe('tenants');
    await textbox(dialog, 'Title').fill('Tenants');
    await textbox(dialog, 'Description').fill('On for the tenants listed, by id');
    await textbox(first, 'Parameter description').fill('Tenant ids');
    await dialog.getByRole('button', { name: 'Add parameter' }).click();
    const second = dialog.getByRole('group', { name: 'Parameter 2' });
    await textbox(second, 'Parameter').fill('region');
    await second.getByRole('checkbox', { name: 'Required' }).check();
    await expectAccessible(admin, 'the edit strategy dialog');
    await screenshot(admin, 'edit-strategy');
    await save(dialog, 'Save strategy', 'Strategy tenantIds saved.');
    await admin.getByRole('table', { name: 'Strategies' }).getByText('region (string)').waitFor();
    expect(await ok(app.admin.GET('/api/admin/strategies/{strategyName}', { params: { path: { strategyName: 'tenantIds' } } }))).toMatchObject({
      name: 'tenantIds',
      title: 'Tenants',
      description: 'On for the tenants listed, by id',
      parameters: [
        { name: 'tenants', type: 'list', description: 'Tenant ids', required: false },
        { name: 'region', type: 'string', required: true },
      ],
    });
  });

  it("changes a tag type's description, icon and colour, keeping its name", async () => {
    await ok(app.admin.POST('/api/admin/tag-types', { body: { name: 'team', description: 'Owner' } }));
    await visit(admin, '/tag-types', 'Tag types');
    const dialog = await openDialog(admin, 'Edit team', 'Edit tag type team');
    expect(await textbox(dialog, 'Name').getAttribute('readonly')).not.toBeNull();
    expect(await textbox(dialog, 'Description').inputValue()).toBe('Owner');
    await textbox(dialog, 'Description').fill('The team that owns the flag');
    await textbox(dialog, 'Icon').fill('people');
    await textbox(dialog, 'Colour').fill('#E8710A');
    await textbox(dialog, 'Icon').click();
    await expectAccessible(admin, 'the edit tag type dialog');
    await save(dialog, 'Save tag type', 'Tag type team saved.');
    await admin.getByRole('table', { name: 'Tag types' }).getByText('The team that owns the flag').waitFor();
    const { tagType } = await ok(app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'team' } } }));
    expect(tagType).toMatchObject({ name: 'team', description: 'The team that owns the flag', icon: 'people' });
    expect(tagType.color?.toUpperCase()).toBe('#E8710A');
  });

  it("shows the service's message when a group is renamed to another group's name, and keeps the dialog open", async () => {
    await ok(app.admin.POST('/api/admin/groups', { body: { name: 'platform' } }));
    await visit(admin, '/groups', 'Groups');
    const dialog = await openDialog(admin, 'Edit checkout-team', 'Edit group checkout-team');
    await textbox(dialog, 'Name').fill('Platform');
    await dialog.getByRole('button', { name: 'Save group' }).click();
    await admin.getByText('A group named "platform" already exists.').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(await textbox(dialog, 'Name').inputValue()).toBe('Platform');
    const names = (await ok(app.admin.GET('/api/admin/groups'))).groups.map((g) => g.name);
    expect(names).toEqual(['checkout-team', 'platform']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('says an environment was turned off once the service took it', async () => {
    await visit(admin, '/environments', 'Environments');
    await admin.getByRole('switch', { name: 'staging enabled' }).click({ force: true });
    await confirmed(admin, 'staging disabled.');
    const { environments } = await ok(app.admin.GET('/api/admin/environments'));
    expect(environments.find((e) => e.name === 'staging')?.enabled).toBe(false);
    await expectAccessible(admin, 'the environments page with a confirmation');
  });

  it('says a tag type was deleted once confirmed, and the service has it no more', async () => {
    await ok(app.admin.POST('/api/admin/tag-types', { body: { name: 'short-lived' } }));
    await visit(admin, '/tag-types', 'Tag types');
    await row(admin, 'Tag types', 'short-lived').getByRole('button', { name: 'Delete' }).click();
    await save(admin.getByRole('dialog', { name: 'Delete short-lived?' }), 'Delete', 'short-lived deleted.');
    const { tagTypes } = await ok(app.admin.GET('/api/admin/tag-types'));
    expect(tagTypes.map((t) => t.name)).not.toContain('short-lived');
  });
});

describe('what a user may not change is not offered', () => {
  it('shows a Viewer projects, environments, groups, roles, strategies and tag types without Edit buttons', async () => {
    await createUser(app, { username: 'victor', rootRole: 'Viewer' });
    const page = await signedIn(browser, app, 'victor');
    for (const [path, heading] of PAGES) {
      await visit(page, path, heading);
      await page.getByRole('table', { name: heading }).waitFor();
      expect(await page.getByRole('button', { name: /^Edit / }).count(), heading).toBe(0);
    }
  });
});
