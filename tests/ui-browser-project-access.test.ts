// A project's members in the admin UI, in Debian's Chromium against the service on the embedded database: users
// and groups given project roles, their roles changed and taken away, each change read back through the API; what
// a Viewer and a project Owner are offered. Runs on PGlite only (vitest.config.ts excludes tests/ui-* elsewhere).
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { pick, row, visit } from './support/ui-dialogs.js';
import { addProjectAccess, createUser, projectAccess } from './support/users.js';

type AddProjectAccess = components['schemas']['AddProjectAccess'];

const PROJECT = 'webshop';
const NAME = 'Web shop';
// The built-in project roles' ids (openapi.yaml, ProjectRoleIds).
const OWNER = 4;
const MEMBER = 5;
const READER = 6;

let app: TestApp;
let browser: Browser;
let admin: Page;
let mia: number;
let ops: number;

/** A user named after their username, capitalised (`mia` is Mia); answers its id. */
const userNamedAfter = (username: string, rootRole: string) => createUser(app, { username, name: username[0]!.toUpperCase() + username.slice(1), rootRole });

/** Who holds which roles in the project, as the API answers it: role ids by user id and by group id. */
async function rolesHeld() {
  const answer = await projectAccess(app, PROJECT);
  const byId = (holders: { id: number; roles: number[] }[]) => Object.fromEntries(holders.map((h) => [h.id, h.roles]));
  return { users: byId(answer.users), groups: byId(answer.groups) };
}


/** Gives users or groups roles in the project (by admin token). */
const grantInProject = (body: AddProjectAccess) => ok(addProjectAccess(app, PROJECT, body));

/** A new group (by admin token); answers its id. */
const newGroup = async (name: string, members: number[] = []) =>
  (await ok(app.admin.POST('/api/admin/groups', { body: { name, users: members.map((id) => ({ user: { id } })) } }))).id;

/** Opens the Members tab of the project's page from its row on the Projects page, and waits until they have loaded. */
async function openMembers(page: Page) {
  await page.goto('/projects');
  await page.getByRole('link', { name: `Members of ${NAME}` }).click();
  await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
  expect(await page.getByRole('tab', { name: 'Members' }).getAttribute('aria-selected')).toBe('true');
  await page.getByRole('table', { name: 'Project roles' }).waitFor();
}

/** Types `text` into the searching select named `label` and picks `option` among what the service found. */
async function find(page: Page, within: Page | Locator, label: string, text: string, option: string) {
  await within.getByRole('combobox', { name: label }).fill(text);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Adds `option` to the MultiSelect named `label`, inside `within`, and closes its list (it stays open for more). */
async function addTo(page: Page, within: Page | Locator, label: string, option: string) {
  const input = within.getByRole('combobox', { name: label });
  await input.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await input.press('Escape');
}

/** Clicks Remove in the row of `name` in the table, and confirms. */
async function removeRow(page: Page, table: string, name: string) {
  await row(page, table, name).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: `Remove ${name} from ${NAME}?` }).getByRole('button', { name: 'Remove' }).click();
}

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await ok(app.admin.POST('/api/admin/projects', { body: { id: PROJECT, name: NAME } }));
  await userNamedAfter('alice', 'Admin');
  mia = await userNamedAfter('mia', 'Viewer');
  ops = await newGroup('Ops', [mia]);
  admin = await signedIn(browser, app, 'alice');
}, 240_000);

describe("an admin edits a project's members", () => {
  it('adds a user with the Member role from the project row, and sees them listed', async () => {
    await openMembers(admin);
    await admin.getByText('No user holds a role in this project.').waitFor();
    await admin.getByRole('button', { name: 'Add members' }).click();
    const dialog = admin.getByRole('dialog', { name: `Add members to ${NAME}` });
    await find(admin, dialog, 'User', 'mi', 'Mia');
    await addTo(admin, dialog, 'Roles', 'Member');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByText(`Members added to ${NAME}.`).waitFor();
    await row(admin, 'Users', 'Mia').waitFor();
    expect(await rolesHeld()).toEqual({ users: { [mia]: [MEMBER] }, groups: {} });
  });

  it("changes the user's roles in place, keeping one at least", async () => {
    await openMembers(admin);
    const roles = row(admin, 'Users', 'Mia').getByRole('combobox', { name: 'Roles of Mia' });
    await addTo(admin, row(admin, 'Users', 'Mia'), 'Roles of Mia', 'Owner');
    await expect.poll(async () => (await rolesHeld()).users[mia]).toEqual([OWNER, MEMBER]);
    await admin.getByText(`Roles of Mia in ${NAME} saved.`).first().waitFor();
    // Backspace takes the last role picked away: Member, then nothing more.
    await roles.press('Backspace');
    await expect.poll(async () => (await rolesHeld()).users[mia]).toEqual([OWNER]);
    await roles.press('Backspace');
    await admin.getByText('One role at least: Remove takes every role away.').waitFor();
    expect((await rolesHeld()).users[mia]).toEqual([OWNER]);
  });

  it('adds a group with the Reader role', async () => {
    await openMembers(admin);
    await admin.getByRole('button', { name: 'Add members' }).click();
    const dialog = admin.getByRole('dialog', { name: `Add members to ${NAME}` });
    // Mia holds roles already: her row changes them, the dialog does not offer her again.
    const users = dialog.getByRole('combobox', { name: 'User' });
    await users.fill('i');
    await admin.getByRole('option', { name: 'Alice' }).waitFor();
    expect(await admin.getByRole('option', { name: 'Mia' }).count()).toBe(0);
    await users.press('Escape');
    await pick(dialog, 'Group', 'Ops');
    await addTo(admin, dialog, 'Roles', 'Reader');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(admin, 'Groups', 'Ops').getByText('1 member').waitFor();
    expect(await rolesHeld()).toEqual({ users: { [mia]: [OWNER] }, groups: { [ops]: [READER] } });
    await expectAccessible(admin, "a project's members");
    await screenshot(admin, 'project-members');
  });

  it("opens the project's Members tab from the old members address", async () => {
    await visit(admin, `/projects/${PROJECT}/members`, NAME);
    await admin.waitForURL((url) => url.pathname === `/projects/${PROJECT}` && url.searchParams.get('tab') === 'members');
    await row(admin, 'Groups', 'Ops').waitFor();
  });

  it("changes the group's roles in place", async () => {
    await openMembers(admin);
    await addTo(admin, row(admin, 'Groups', 'Ops'), 'Roles of Ops', 'Member');
    await expect.poll(async () => (await rolesHeld()).groups[ops]).toEqual([MEMBER, READER]);
  });

  it('removes the user, after asking', async () => {
    await openMembers(admin);
    await removeRow(admin, 'Users', 'Mia');
    await admin.getByText(`Mia removed from ${NAME}.`).waitFor();
    await admin.getByText('No user holds a role in this project.').waitFor();
    expect(await rolesHeld()).toEqual({ users: {}, groups: { [ops]: [MEMBER, READER] } });
  });

  it('removes the group, after asking', async () => {
    await openMembers(admin);
    await removeRow(admin, 'Groups', 'Ops');
    await admin.getByText('No group holds a role in this project.').waitFor();
    expect(await rolesHeld()).toEqual({ users: {}, groups: {} });
  });
});

describe('what a user may not do is not offered', () => {
  it('shows a Viewer the members without a single edit control', async () => {
    await grantInProject({ roles: [MEMBER], users: [mia] });
    await grantInProject({ roles: [READER], groups: [ops] });
    await userNamedAfter('vera', 'Viewer');
    const page = await signedIn(browser, app, 'vera');
    await openMembers(page);
    await row(page, 'Users', 'Mia').getByRole('group', { name: 'Roles of Mia' }).getByText('Member').waitFor();
    await row(page, 'Groups', 'Ops').getByText('Reader').waitFor();
    expect(await page.getByRole('button', { name: 'Add members' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    expect(await page.getByRole('combobox').count()).toBe(0);
    await expectAccessible(page, "a Viewer's view of a project's members");
  });

  it('lets a project Owner who is no admin find a user by searching, and add them with a group', async () => {
    const olga = await userNamedAfter('olga', 'Viewer');
    const pia = await userNamedAfter('pia', 'Viewer');
    await grantInProject({ roles: [OWNER], users: [olga] });
    const other = await newGroup('Support');
    const page = await signedIn(browser, app, 'olga');
    await openMembers(page);
    await page.getByRole('button', { name: 'Add members' }).click();
    const dialog = page.getByRole('dialog', { name: `Add members to ${NAME}` });
    await find(page, dialog, 'User', 'PI', 'Pia');
    await pick(dialog, 'Group', 'Support');
    await addTo(page, dialog, 'Roles', 'Member');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await row(page, 'Groups', 'Support').waitFor();
    await row(page, 'Users', 'Pia').waitFor();
    const after = await rolesHeld();
    expect(after.groups[other]).toEqual([MEMBER]);
    expect(after.users[pia]).toEqual([MEMBER]);
  });

  it('shows the message of a 403 when the Owner role was taken away while the page was open', async () => {
    const otto = await userNamedAfter('otto', 'Viewer');
    await grantInProject({ roles: [OWNER], users: [otto] });
    const page = await signedIn(browser, app, 'otto');
    await openMembers(page);
    await ok(app.admin.DELETE('/api/admin/projects/{projectId}/users/{userId}/roles', { params: { path: { projectId: PROJECT, userId: otto } } }));
    await removeRow(page, 'Groups', 'Ops');
    await page.getByText('You need one of the permissions "UPDATE_PROJECT", "PROJECT_USER_ACCESS_WRITE" to perform this operation.').waitFor();
    expect((await rolesHeld()).groups[ops]).toEqual([READER]);
    // His permissions are read again: the page stops offering what he may no longer do.
    await page.getByRole('button', { name: 'Add members' }).waitFor({ state: 'detached' });
  });
});
