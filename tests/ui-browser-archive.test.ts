// The archive page in the browser, in Debian's Chromium against the service on the embedded database: every project's
// archived flags by default, each with its project's name, narrowed to one project by the project filter; archived
// flags revived or deleted for good, one by one and several at once, each change read back through the API (a revived
// flag served to SDKs again); a refusal shows the service's message; a Viewer is offered no control; axe-core on the
// page and its confirmation; no sideways scroll at 800 × 900. Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts from
// the PostgreSQL run).
import type { Browser, Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, scrollsSideways, signedIn } from './support/browser.js';
import { uniqueNames } from './support/events.js';
import { fixtures, flagPath, newApiToken, ok, until } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { openDialog, pick, row as rowOf, save, visit } from './support/ui-dialogs.js';
import { createUser } from './support/users.js';

let app: TestApp;
let browser: Browser;
let admin: Page;

const { createFlag, archiveFlag } = fixtures(() => app, uniqueNames());

let projects = 0;
/** The name of a project made by projectWithArchived. */
const nameOf = (project: string) => project.replace('archive-', 'Archive ');
/** A fresh project (`archive-<n>`, named `Archive <n>`) holding the flags named, archived; answers its id. */
async function projectWithArchived(...flags: string[]): Promise<string> {
  const project = `archive-${++projects}`;
  await ok(app.admin.POST('/api/admin/projects', { body: { id: project, name: `Archive ${projects}` } }));
  for (const name of flags) {
    await createFlag(project, name);
    await archiveFlag(project, name);
  }
  return project;
}

const openArchive = (page: Page, project: string) => visit(page, `/archive?project=${project}`, 'Archive');
const table = (page: Page) => page.getByRole('table', { name: 'Archived flags' });
const row = (page: Page, flag: string) => rowOf(page, 'Archived flags', flag);

/** The flag as the admin API has it: its `archived` and `archivedAt`, or the status when it is not there. */
async function stateOf(project: string, flag: string) {
  const archived = await ok(app.admin.GET('/api/admin/archive/features/{projectId}', { params: { path: { projectId: project } } }));
  if (archived.features.some((f) => f.name === flag)) return 'archived';
  const active = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(flag, project) } });
  return active.response.status === 200 ? (active.data!.archived ? 'archived' : 'active') : active.response.status;
}

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'ada', rootRole: 'Admin' });
  admin = await signedIn(browser, app, 'ada');
}, 240_000);

describe('the archive across projects', () => {
  it("lists every project's archived flags by default, each with its project's name linking to the project", async () => {
    const first = await projectWithArchived('shelved-one');
    const second = await projectWithArchived('shelved-two');
    await visit(admin, '/archive', 'Archive');
    expect(await admin.getByRole('combobox', { name: 'Project' }).inputValue()).toBe('All projects');
    for (const [project, flag] of [
      [first, 'shelved-one'],
      [second, 'shelved-two'],
    ] as const) {
      expect(await row(admin, flag).getByRole('link', { name: nameOf(project), exact: true }).getAttribute('href')).toBe(`/projects/${project}`);
      expect(await row(admin, flag).getByRole('link', { name: flag, exact: true }).getAttribute('href')).toBe(`/projects/${project}/features/${flag}`);
    }
    await expectAccessible(admin, 'the archive of every project');
    await screenshot(admin, 'archive-all-projects');
    expect(await scrollsSideways(admin)).toBe(false);
  });

  it('narrows the list to the project picked, with the project in the address, and widens it again to all projects', async () => {
    const first = await projectWithArchived('narrowed-out');
    const second = await projectWithArchived('narrowed-in');
    await visit(admin, '/archive', 'Archive');
    await row(admin, 'narrowed-out').waitFor();
    await pick(admin.getByRole('main'), 'Project', nameOf(second));
    await admin.waitForURL((url) => url.searchParams.get('project') === second);
    await row(admin, 'narrowed-out').waitFor({ state: 'detached' });
    await row(admin, 'narrowed-in').waitFor();
    expect(await table(admin).getByRole('row').count()).toBe(2);
    expect(await table(admin).getByRole('columnheader', { name: 'Project' }).count()).toBe(0);
    await pick(admin.getByRole('main'), 'Project', 'All projects');
    await admin.waitForURL((url) => !url.searchParams.has('project'));
    await row(admin, 'narrowed-out').waitFor();
    expect(await row(admin, 'narrowed-out').getByRole('link', { name: nameOf(first), exact: true }).count()).toBe(1);
  });

  it('revives a flag from the list of every project, which the API then shows active', async () => {
    const project = await projectWithArchived('brought-back');
    await visit(admin, '/archive', 'Archive');
    await row(admin, 'brought-back').getByRole('button', { name: 'Revive brought-back' }).click();
    await admin.getByText('brought-back is revived.').waitFor();
    await row(admin, 'brought-back').waitFor({ state: 'detached' });
    expect(await stateOf(project, 'brought-back')).toBe('active');
  });

  it('revives two selected flags of two projects at once', async () => {
    const first = await projectWithArchived('twin-one');
    const second = await projectWithArchived('twin-two');
    await visit(admin, '/archive', 'Archive');
    await admin.getByRole('checkbox', { name: 'Select twin-one' }).check();
    await admin.getByRole('checkbox', { name: 'Select twin-two' }).check();
    await admin.getByRole('button', { name: 'Revive selected' }).click();
    await admin.getByText('Revived twin-one, twin-two.').waitFor();
    expect(await stateOf(first, 'twin-one')).toBe('active');
    expect(await stateOf(second, 'twin-two')).toBe('active');
  });
});

describe('an admin handles the archive in the browser', () => {
  it('is reached from the navigation, among the flags and projects, and passes axe-core', async () => {
    const project = await projectWithArchived('old-banner', 'old-footer');
    await visit(admin, '/flags', 'Flags');
    const group = admin.getByRole('navigation', { name: 'Main' }).getByRole('list', { name: 'Flags & projects' });
    const labels = (await group.getByRole('link').allInnerTexts()).map((label) => label.trim());
    expect(labels, labels.join(', ')).toEqual(expect.arrayContaining(['Flags', 'Archive']));
    await group.getByRole('link', { name: 'Archive', exact: true }).click();
    await admin.getByRole('heading', { level: 1, name: 'Archive' }).waitFor();
    expect(new URL(admin.url()).pathname).toBe('/archive');
    await row(admin, 'old-banner').waitFor();
    await openArchive(admin, project);
    await row(admin, 'old-banner').waitFor();
    await expectAccessible(admin, 'the archive page');
    await screenshot(admin, 'archive');
  });

  it('revives an archived flag, which the API shows active and the client API serves again', async () => {
    const project = await projectWithArchived('revived-one');
    const clientToken = await newApiToken(app, { type: 'client', environment: 'development', projects: [project] });
    const served = async () => (await ok(app.clientWith(clientToken).GET('/api/client/features'))).features.map((f) => f.name);
    expect(await served()).not.toContain('revived-one');
    await openArchive(admin, project);
    await row(admin, 'revived-one').getByRole('button', { name: 'Revive revived-one' }).click();
    await admin.getByText('revived-one is revived.').waitFor();
    await table(admin).waitFor({ state: 'detached' });
    await admin.getByText(`No archived flags in ${nameOf(project)}.`).waitFor();
    expect(await stateOf(project, 'revived-one')).toBe('active');
    await until('the client API to serve the revived flag', served, (names) => names.includes('revived-one'));
  });

  it('deletes an archived flag for good after a confirmation that says it cannot be undone', async () => {
    const project = await projectWithArchived('doomed-flag', 'kept-flag');
    await openArchive(admin, project);
    const dialog = await openDialog(admin, 'Delete permanently', 'Delete doomed-flag for good?', row(admin, 'doomed-flag'));
    await dialog.getByText(/cannot be undone/).waitFor();
    await expectAccessible(admin, 'the delete for good confirmation');
    await screenshot(admin, 'archive-delete');
    await save(dialog, 'Delete for good');
    await row(admin, 'doomed-flag').waitFor({ state: 'detached' });
    expect(await stateOf(project, 'doomed-flag')).toBe(404);
    expect((await app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName: 'doomed-flag' } } })).response.status).toBe(404);
    expect(await stateOf(project, 'kept-flag')).toBe('archived');
  });

  it('revives two selected flags at once, leaving the others archived', async () => {
    const project = await projectWithArchived('pair-one', 'pair-two', 'pair-left');
    await openArchive(admin, project);
    await admin.getByRole('checkbox', { name: 'Select pair-one' }).check();
    await admin.getByRole('checkbox', { name: 'Select pair-two' }).check();
    await admin.getByText('2 selected').waitFor();
    await expectAccessible(admin, 'the archive with two flags selected');
    await screenshot(admin, 'archive-selected');
    await admin.getByRole('button', { name: 'Revive selected' }).click();
    await admin.getByText('Revived pair-one, pair-two.').waitFor();
    await row(admin, 'pair-one').waitFor({ state: 'detached' });
    expect(await stateOf(project, 'pair-one')).toBe('active');
    expect(await stateOf(project, 'pair-two')).toBe('active');
    expect(await stateOf(project, 'pair-left')).toBe('archived');
    expect(await admin.getByRole('checkbox', { name: 'Select pair-left' }).isChecked()).toBe(false);
  });

  it('deletes every flag of the page for good at once, after a confirmation', async () => {
    const project = await projectWithArchived('batch-one', 'batch-two');
    await openArchive(admin, project);
    await admin.getByRole('checkbox', { name: 'Select every flag on this page' }).check();
    const dialog = await openDialog(admin, 'Delete selected', 'Delete 2 flags for good?');
    await dialog.getByText('This cannot be undone: batch-one, batch-two will be gone for good.').waitFor();
    await save(dialog, 'Delete for good');
    await admin.getByText(`No archived flags in ${nameOf(project)}.`).waitFor();
    expect(await stateOf(project, 'batch-one')).toBe(404);
    expect(await stateOf(project, 'batch-two')).toBe(404);
  });

  it("shows another project's archive when it is picked, with the project in the address", async () => {
    const first = await projectWithArchived('first-archived');
    const second = await projectWithArchived('second-archived');
    await openArchive(admin, first);
    await row(admin, 'first-archived').waitFor();
    await admin.getByRole('combobox', { name: 'Project' }).click();
    await admin.getByRole('option', { name: nameOf(second), exact: true }).click();
    await row(admin, 'second-archived').waitFor();
    expect(new URL(admin.url()).searchParams.get('project')).toBe(second);
    expect(await row(admin, 'first-archived').count()).toBe(0);
  });

  it("shows the service's message when a flag was revived elsewhere meanwhile, and keeps it out of the list", async () => {
    const project = await projectWithArchived('raced-flag');
    await openArchive(admin, project);
    await ok(app.admin.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName: 'raced-flag' } } }));
    await row(admin, 'raced-flag').getByRole('button', { name: 'Revive raced-flag' }).click();
    await admin.getByText('The flag "raced-flag" is not archived.').waitFor();
    await row(admin, 'raced-flag').waitFor({ state: 'detached' });
    expect(await stateOf(project, 'raced-flag')).toBe('active');
  });

  it("archives from the flag's page without fetching the flag again, landing on its project's flags with a confirmation", async () => {
    const project = await projectWithArchived();
    await createFlag(project, 'dropped-flag');
    await visit(admin, `/projects/${project}/features/dropped-flag`, 'dropped-flag');
    const missing: string[] = [];
    const listener = (response: Response) => {
      if (response.status() === 404) missing.push(response.url());
    };
    admin.on('response', listener);
    try {
      const dialog = await openDialog(admin, 'Archive', 'Archive dropped-flag?');
      await save(dialog, 'Archive');
      await admin.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
      await admin.getByText('dropped-flag is archived.').waitFor();
      await admin.getByText('No flag matches.').waitFor();
    } finally {
      admin.off('response', listener);
    }
    expect(missing).toEqual([]);
    expect(new URL(admin.url()).searchParams.get('project')).toBe(project);
    expect(await stateOf(project, 'dropped-flag')).toBe('archived');
  });

  it('links the archive from the confirmation of archiving a flag, which still lands on the flag list', async () => {
    const project = await projectWithArchived();
    await createFlag(project, 'to-archive');
    await visit(admin, `/projects/${project}/features/to-archive`, 'to-archive');
    const dialog = await openDialog(admin, 'Archive', 'Archive to-archive?');
    expect(await dialog.getByRole('link', { name: 'archive' }).getAttribute('href')).toBe(`/archive?project=${project}`);
    await save(dialog, 'Archive');
    await admin.getByRole('heading', { level: 1, name: 'Flags' }).waitFor();
    await openArchive(admin, project);
    await row(admin, 'to-archive').waitFor();
  });
});

describe('what a user may not change is not offered', () => {
  it('shows a Viewer the archive without any Revive, Delete or selection control', async () => {
    const project = await projectWithArchived('viewed-archived');
    await createUser(app, { username: 'vic', rootRole: 'Viewer' });
    const viewer = await signedIn(browser, app, 'vic');
    await openArchive(viewer, project);
    await row(viewer, 'viewed-archived').waitFor();
    expect(await viewer.getByRole('main').getByRole('button', { name: /Revive|Delete/ }).count()).toBe(0);
    expect(await viewer.getByRole('checkbox').count()).toBe(0);
    await expectAccessible(viewer, "the archive as a Viewer sees it");
  });
});
