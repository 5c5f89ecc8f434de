// A project's page in the admin UI, in Debian's Chromium against the service on the embedded database: reached from
// the project list by its name, with breadcrumbs, its flags, New flag creating in the project, its members, its
// change-request configuration and its settings (edited, deleted), each tab reachable by its address; every change
// read back through the API; axe-core on each tab; no sideways scroll at 800 × 900. Runs on PGlite only
// (vitest.config.ts excludes tests/ui-*.test.ts from the PostgreSQL run).
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, scrollsSideways, signedIn } from './support/browser.js';
import { uniqueNames } from './support/events.js';
import { fixtures, ok } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { openDialog, pick, row, save, textbox, visit } from './support/ui-dialogs.js';
import { createUser, projectAccess } from './support/users.js';

const PROJECT = 'webshop';
const NAME = 'Web shop';
// The built-in Member project role's id (openapi.yaml, ProjectRoleIds).
const MEMBER = 5;

let app: TestApp;
let browser: Browser;
let admin: Page;
let mia: number;

const { createFlag, turnOn } = fixtures(() => app, uniqueNames());

const projectPage = (tab?: string) => `/projects/${PROJECT}${tab ? `?tab=${tab}` : ''}`;

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await ok(app.admin.POST('/api/admin/projects', { body: { id: PROJECT, name: NAME, description: 'Everything the online shop shows' } }));
  await createFlag(PROJECT, 'checkout-v2');
  await createFlag(PROJECT, 'cart-badge', { type: 'experiment' });
  await turnOn('checkout-v2', 'development', PROJECT);
  await createFlag('default', 'elsewhere-flag');
  await createUser(app, { username: 'ada', rootRole: 'Admin' });
  mia = await createUser(app, { username: 'mia', name: 'Mia', rootRole: 'Viewer' });
  admin = await signedIn(browser, app, 'ada');
}, 240_000);

describe("a project's page", () => {
  it('opens from the project list by its name, with breadcrumbs, its description and only its own flags', async () => {
    await visit(admin, '/projects', 'Projects');
    await expectAccessible(admin, 'the project list');
    expect(await scrollsSideways(admin)).toBe(false);
    await row(admin, 'Projects', NAME).getByRole('link', { name: NAME, exact: true }).click();
    await admin.getByRole('heading', { level: 1, name: NAME }).waitFor();
    expect(new URL(admin.url()).pathname).toBe(`/projects/${PROJECT}`);
    const crumbs = admin.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(await crumbs.getByRole('link', { name: 'Projects' }).getAttribute('href')).toBe('/projects');
    await crumbs.getByText(NAME, { exact: true }).waitFor();
    await admin.getByText('Everything the online shop shows').waitFor();
    const flags = admin.getByRole('table', { name: `Flags of ${NAME}` });
    await flags.waitFor();
    expect(await flags.locator('tbody tr td:first-child a').allInnerTexts()).toEqual(['cart-badge', 'checkout-v2']);
    expect(await flags.getByRole('link', { name: 'checkout-v2' }).getAttribute('href')).toBe(`/projects/${PROJECT}/features/checkout-v2`);
    await row(admin, `Flags of ${NAME}`, 'checkout-v2').getByText('development: on').waitFor();
    await row(admin, `Flags of ${NAME}`, 'cart-badge').getByText('experiment').waitFor();
    await row(admin, `Flags of ${NAME}`, 'cart-badge').getByText('Never').waitFor();
    await admin.getByText(/^2 flags · search and filter them in the flag list$/).waitFor();
    expect(await admin.getByRole('link', { name: 'search and filter them in the flag list' }).getAttribute('href')).toBe(`/flags?project=${PROJECT}`);
    await expectAccessible(admin, "a project's page, its flags");
    await screenshot(admin, 'project-page');
    expect(await scrollsSideways(admin)).toBe(false);
  });

  it('opens a tab by its address, and puts the tab clicked in the address', async () => {
    await visit(admin, projectPage('settings'), NAME);
    expect(await admin.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    await admin.getByRole('tab', { name: 'Members' }).click();
    await admin.getByRole('table', { name: 'Project roles' }).waitFor();
    expect(new URL(admin.url()).searchParams.get('tab')).toBe('members');
  });

  it('creates a flag in the project with New flag, and lands on its page', async () => {
    await visit(admin, projectPage(), NAME);
    const dialog = await openDialog(admin, 'New flag', 'New flag');
    // The project being viewed is chosen (shown by its id, or its name).
    expect([PROJECT, NAME]).toContain(await dialog.getByRole('combobox', { name: 'Project' }).inputValue());
    await textbox(dialog, 'Name').fill('from-project-page');
    await save(dialog, 'Create flag');
    await admin.waitForURL((url) => url.pathname === `/projects/${PROJECT}/features/from-project-page`);
    const flag = await ok(app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: PROJECT, featureName: 'from-project-page' } } }));
    expect(flag).toMatchObject({ name: 'from-project-page', project: PROJECT });
  });

  it('adds a member with a role from the Members tab, and says so', async () => {
    await visit(admin, projectPage('members'), NAME);
    const dialog = await openDialog(admin, 'Add members', `Add members to ${NAME}`);
    await dialog.getByRole('combobox', { name: 'User' }).fill('mi');
    await admin.getByRole('option', { name: 'Mia', exact: true }).click();
    const roles = dialog.getByRole('combobox', { name: 'Roles' });
    await roles.click();
    await admin.getByRole('option', { name: 'Member', exact: true }).click();
    await roles.press('Escape');
    await save(dialog, 'Add');
    await admin.getByText(`Members added to ${NAME}.`).waitFor();
    await row(admin, 'Users', 'Mia').waitFor();
    const access = await projectAccess(app, PROJECT);
    expect(access.users.find((u) => u.id === mia)?.roles).toEqual([MEMBER]);
    await expectAccessible(admin, "a project's Members tab");
  });

  it('saves the change-request configuration of an environment from its tab', async () => {
    await visit(admin, projectPage('change-requests'), NAME);
    const table = admin.getByRole('table', { name: `Change request configuration of ${NAME}` });
    await table.waitFor();
    await expectAccessible(admin, "a project's Change requests tab");
    const dialog = await openDialog(admin, 'Edit change requests in production', 'Change requests in production', table);
    await dialog.getByRole('switch', { name: 'Require change requests' }).check({ force: true });
    await dialog.getByRole('textbox', { name: 'Required approvals' }).fill('2');
    await save(dialog, 'Save');
    await admin.getByText(`Change requests in production of ${NAME} saved.`).waitFor();
    const config = await ok(app.admin.GET('/api/admin/projects/{projectId}/change-requests/config', { params: { path: { projectId: PROJECT } } }));
    expect(config.find((c) => c.environment === 'production')).toMatchObject({ changeRequestEnabled: true, requiredApprovals: 2 });
    expect(config.find((c) => c.environment === 'development')).toMatchObject({ changeRequestEnabled: false });
  });

  it("renames the project in its settings, and the page's heading and breadcrumbs follow", async () => {
    await visit(admin, projectPage('settings'), NAME);
    await expectAccessible(admin, "a project's Settings tab");
    expect(await scrollsSideways(admin)).toBe(false);
    const dialog = await openDialog(admin, 'Edit project', `Edit project ${NAME}`);
    await textbox(dialog, 'Name').fill('Web store');
    await save(dialog, 'Save project');
    await admin.getByRole('heading', { level: 1, name: 'Web store' }).waitFor();
    await admin.getByRole('navigation', { name: 'Breadcrumbs' }).getByText('Web store', { exact: true }).waitFor();
    const project = await ok(app.admin.GET('/api/admin/projects/{projectId}', { params: { path: { projectId: PROJECT } } }));
    expect(project).toMatchObject({ id: PROJECT, name: 'Web store', description: 'Everything the online shop shows' });
  });

  it('adds an environment to the project in its settings, and says so', async () => {
    await ok(app.admin.POST('/api/admin/projects', { body: { id: 'dev-only', name: 'Dev only', environments: ['development'] } }));
    await visit(admin, '/projects/dev-only?tab=settings', 'Dev only');
    await admin.getByRole('button', { name: 'Add an environment to Dev only' }).click();
    await pick(admin.getByRole('dialog'), 'Environment', 'production');
    await admin.getByRole('button', { name: 'Add', exact: true }).click();
    await admin.getByText('production added to Dev only.').waitFor();
    await admin.getByRole('button', { name: 'Remove production from Dev only' }).waitFor();
    const project = await ok(app.admin.GET('/api/admin/projects/{projectId}', { params: { path: { projectId: 'dev-only' } } }));
    expect(project.environments).toEqual(['development', 'production']);
  });

  it('deletes an empty project from its settings, after asking, and goes back to the project list', async () => {
    await ok(app.admin.POST('/api/admin/projects', { body: { id: 'short-lived', name: 'Short lived' } }));
    await visit(admin, '/projects/short-lived?tab=settings', 'Short lived');
    const dialog = await openDialog(admin, 'Delete project', 'Delete Short lived?');
    await save(dialog, 'Delete project');
    await admin.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await admin.getByText('Project Short lived deleted.').waitFor();
    expect((await app.admin.GET('/api/admin/projects/{projectId}', { params: { path: { projectId: 'short-lived' } } })).response.status).toBe(404);
  });
});

describe('what a Viewer is offered', () => {
  it("shows a Viewer the project's flags and settings without New flag, Edit project or Delete project", async () => {
    await createUser(app, { username: 'vic', rootRole: 'Viewer' });
    const viewer = await signedIn(browser, app, 'vic');
    await visit(viewer, projectPage(), 'Web store');
    await viewer.getByRole('table', { name: 'Flags of Web store' }).waitFor();
    expect(await viewer.getByRole('button', { name: 'New flag' }).count()).toBe(0);
    await viewer.getByRole('tab', { name: 'Settings' }).click();
    await viewer.getByRole('table', { name: 'Details of Web store' }).waitFor();
    expect(await viewer.getByRole('main').getByRole('button', { name: /Edit project|Delete project|Add an environment|Remove/ }).count()).toBe(0);
    await expectAccessible(viewer, "a project's settings as a Viewer sees them");
  });
});
