// Favourites and moving a flag in the browser, in Debian's Chromium against the service on the embedded database:
// stars on the flag list, the flag page and the project list, the "Favourites first" switch, and a flag moved to
// another project (or refused, with the service's message). Each change is read back through the API as the user
// who made it (favourites are a user's own); axe-core on the list with a star and on the move dialog; a Viewer is
// offered stars (favourites need no permission) but no Move. Runs on PGlite only (vitest.config.ts).
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../client/index.js';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { uniqueNames } from './support/events.js';
import { fixtures, flagPath, ok } from './support/fixtures.js';
import { searchProject } from './support/search.js';
import { startUiTest } from './support/ui-build.js';
import { openDialog, pick, save, visit } from './support/ui-dialogs.js';
import { clientAs, createUser, sessionOf } from './support/users.js';


let app: TestApp;
let browser: Browser;
let admin: Page;
/** alice's session, to read her favourites through the API. */
let alice: ServiceClient;

const { createFlag, flagOf } = fixtures(() => app, uniqueNames());
const flagPage = (project: string, name: string) => `/projects/${project}/features/${name}`;

/** The project's flags as alice's search answers them, in its order. */

/** Stars the flag as alice. */
const favour = (projectId: string, featureName: string) =>
  ok(alice.POST('/api/admin/projects/{projectId}/features/{featureName}/favorites', { params: { path: flagPath(featureName, projectId) } }));

async function newProject(id: string, environments?: string[]) {
  await ok(app.admin.POST('/api/admin/projects', { body: { id, name: id, ...(environments && { environments }) } }));
}

async function newFlags(project: string, ...names: string[]) {
  for (const name of names) await createFlag(project, name);
}

/** The star button of `name`, whichever way it points; `pressed` once it shows that state. */
async function star(scope: Page | Locator, name: string, favorite: boolean): Promise<Locator> {
  const button = scope.getByRole('button', { name: favorite ? `Remove ${name} from favourites` : `Add ${name} to favourites`, exact: true });
  await button.waitFor();
  expect(await button.getAttribute('aria-pressed')).toBe(String(favorite));
  return button;
}

/** The flag names of the list, top to bottom. */
const listedFlags = (page: Page) => page.getByRole('table', { name: 'Flags' }).locator('tbody tr td:first-child a').allInnerTexts();

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  admin = await signedIn(browser, app, 'alice');
  alice = clientAs(app, { cookie: await sessionOf(app, 'alice') });
}, 240_000);

describe('favourite flags and projects', () => {
  it('stars a flag in the list, after which the search with favoritesFirst ranks it first as a favourite', async () => {
    await newProject('starring');
    await newFlags('starring', 'star-older', 'star-newer');
    await visit(admin, '/flags?project=starring&sort=name&order=desc', 'Flags');
    expect(await listedFlags(admin)).toEqual(['star-older', 'star-newer']);
    await (await star(admin, 'star-newer', false)).click();
    await star(admin, 'star-newer', true);
    await admin.getByText('star-newer added to favourites.').waitFor();
    await expectAccessible(admin, 'the flag list with a starred flag');
    await screenshot(admin, 'flag-list-favourite');
    const ranked = await searchProject(alice, 'starring', { favoritesFirst: 'true', sortBy: 'name', sortOrder: 'desc' });
    expect(ranked.map((f) => [f.name, f.favorite])).toEqual([
      ['star-newer', true],
      ['star-older', false],
    ]);
  });

  it("unstars a flag from its page's header", async () => {
    await newProject('unstarring');
    await newFlags('unstarring', 'unstar-me');
    await favour('unstarring', 'unstar-me');
    await visit(admin, flagPage('unstarring', 'unstar-me'), 'unstar-me');
    await (await star(admin, 'unstar-me', true)).click();
    await star(admin, 'unstar-me', false);
    await admin.getByText('unstar-me removed from favourites.').waitFor();
    expect(await searchProject(alice, 'unstarring')).toMatchObject([{ name: 'unstar-me', favorite: false }]);
  });

  it('stars a project in the project list', async () => {
    await newProject('starred-project');
    await visit(admin, '/projects', 'Projects');
    const row = admin.getByRole('row').filter({ hasText: 'starred-project' });
    await (await star(row, 'starred-project', false)).click();
    await star(row, 'starred-project', true);
    await admin.getByText('starred-project added to favourites.').waitFor();
    const { projects } = await ok(alice.GET('/api/admin/projects'));
    expect(projects.find((p) => p.id === 'starred-project')).toMatchObject({ favorite: true });
  });

  it('ranks the favourite flags first while "Favourites first" is on, and keeps the switch in the address', async () => {
    await newProject('ordering');
    await newFlags('ordering', 'order-a', 'order-b', 'order-c');
    await favour('ordering', 'order-c');
    await visit(admin, '/flags?project=ordering&sort=name&order=asc', 'Flags');
    expect(await listedFlags(admin)).toEqual(['order-a', 'order-b', 'order-c']);
    // The switch follows the address, which changes a moment after the click: click, then wait for both.
    await admin.getByRole('switch', { name: 'Favourites first' }).click({ force: true });
    await admin.waitForURL((url) => url.searchParams.get('favoritesFirst') === 'true');
    await expect.poll(() => admin.getByRole('switch', { name: 'Favourites first' }).isChecked()).toBe(true);
    await expect.poll(() => listedFlags(admin)).toEqual(['order-c', 'order-a', 'order-b']);
    await admin.reload();
    await admin.getByRole('table', { name: 'Flags' }).waitFor();
    expect(await admin.getByRole('switch', { name: 'Favourites first' }).isChecked()).toBe(true);
    expect(await listedFlags(admin)).toEqual(['order-c', 'order-a', 'order-b']);
  });
});

describe('moving a flag to another project', () => {
  it("moves a flag to a second project and lands on the flag's new page", async () => {
    await newProject('origin');
    await newProject('destination', ['development']);
    await newFlags('origin', 'moving-flag');
    await visit(admin, flagPage('origin', 'moving-flag'), 'moving-flag');
    const dialog = await openDialog(admin, 'Move', 'Move moving-flag');
    await pick(dialog, 'Target project', 'destination');
    await dialog.getByText('Dropped with their strategies: production (not in destination).').waitFor();
    await expectAccessible(admin, 'the move flag dialog');
    await screenshot(admin, 'move-flag');
    await save(dialog, 'Move flag');
    await admin.waitForURL((url) => url.pathname === flagPage('destination', 'moving-flag'));
    await admin.getByRole('heading', { level: 1, name: 'moving-flag' }).waitFor();
    await admin.getByRole('link', { name: 'destination', exact: true }).waitFor();
    const moved = await flagOf('moving-flag', 'destination');
    expect(moved).toMatchObject({ project: 'destination' });
    expect(moved.environments.map((e) => e.name)).toEqual(['development']);
  });

  it("shows the service's refusal to move a flag with a parent, and keeps the dialog open", async () => {
    await newProject('family');
    await newProject('elsewhere');
    await newFlags('family', 'parent-flag', 'child-flag');
    await ok(app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', { params: { path: flagPath('child-flag', 'family') }, body: { feature: 'parent-flag' } }));
    await visit(admin, flagPage('family', 'child-flag'), 'child-flag');
    const dialog = await openDialog(admin, 'Move', 'Move child-flag');
    await pick(dialog, 'Target project', 'elsewhere');
    await dialog.getByRole('button', { name: 'Move flag', exact: true }).click();
    await admin.getByText('The flag "child-flag" has dependencies; remove them before moving it, since parents and children share a project.').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(new URL(admin.url()).pathname).toBe(flagPage('family', 'child-flag'));
    expect(await flagOf('child-flag', 'family')).toMatchObject({ project: 'family' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('what a Viewer is offered', () => {
  it('offers a Viewer stars, since favourites need no permission, but no Move', async () => {
    await newProject('viewed');
    await newFlags('viewed', 'viewed-flag');
    await createUser(app, { username: 'victor', rootRole: 'Viewer' });
    const viewer = await signedIn(browser, app, 'victor');
    await visit(viewer, '/flags?project=viewed', 'Flags');
    await star(viewer, 'viewed-flag', false);
    await visit(viewer, flagPage('viewed', 'viewed-flag'), 'viewed-flag');
    await star(viewer, 'viewed-flag', false);
    expect(await viewer.getByRole('button', { name: 'Move', exact: true }).count()).toBe(0);
    await visit(viewer, '/projects', 'Projects');
    await star(viewer.getByRole('row').filter({ hasText: 'viewed' }).first(), 'viewed', false);
  });
});
