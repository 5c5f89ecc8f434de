// Change requests in the admin UI, in Debian's Chromium against the service on the embedded database: an admin
// requires them in production with two approvals; an Editor's draft (proposed through the API) is renamed,
// commented on, one change edited and one discarded, then sent to review; two approvers approve it, one schedules
// it and then applies it now; a Viewer sees the configuration without its controls. Each step is read back through
// the API. Runs on PGlite only (vitest.config.ts excludes tests/ui-*.test.ts from the PostgreSQL run).
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import type { TestApp } from './support/app.js';
import { expectAccessible, screenshot, signedIn } from './support/browser.js';
import { approver, author, proposeAs } from './support/change-requests.js';
import { uniqueNames } from './support/events.js';
import { fixtures, ok, until } from './support/fixtures.js';
import { startUiTest } from './support/ui-build.js';
import { loaded, openDialog, save, visit } from './support/ui-dialogs.js';
import { clientAs, createUser, type TestUser } from './support/users.js';

type ChangeRequest = components['schemas']['ChangeRequest'];
type ChangeRequestStateUpdate = components['schemas']['UpdateChangeRequestState'];

let app: TestApp;
let browser: Browser;
let admin: Page;
let editor: TestUser;
let editorPage: Page;
let approvers: { user: TestUser; page: Page }[];
let id: number;

const projectId = 'default';
const { createFlag, flagEnvironment, archiveFlag } = fixtures(() => app, uniqueNames());
/** The change request as the admin reads it. */
const requestOf = (changeRequestId: number) =>
  ok(app.admin.GET('/api/admin/projects/{projectId}/change-requests/{changeRequestId}', { params: { path: { projectId, changeRequestId } } }));
const current = () => requestOf(id);
const changesOf = (request: ChangeRequest) => request.features.flatMap((f) => f.changes.map((c) => ({ feature: f.name, action: c.action, payload: c.payload })));
/** Proposes the changes in production as the user; answers the draft. */

/** Loads the change requests page afresh. */
const visitRequests = (page: Page) => visit(page, '/change-requests', 'Change requests');

/** The request's card on the page. */
const card = (page: Page) => page.getByRole('article', { name: `Change request ${id}` });

beforeAll(async () => {
  ({ app, browser } = await startUiTest());
  await createUser(app, { username: 'alice', rootRole: 'Admin' });
  await createFlag(projectId, 'checkout');
  admin = await signedIn(browser, app, 'alice');
}, 240_000);

describe('an admin configures change requests', () => {
  it('requires change requests in production with two approvals, and the service stores it', async () => {
    await visitRequests(admin);
    const table = admin.getByRole('table', { name: 'Change request configuration of default' });
    const dialog = await openDialog(admin, 'Edit change requests in production', 'Change requests in production', table);
    await dialog.getByRole('switch', { name: 'Require change requests' }).check({ force: true });
    await dialog.getByRole('textbox', { name: 'Required approvals' }).fill('2');
    await expectAccessible(admin, 'the change request configuration dialog');
    await save(dialog, 'Save');
    await table.getByRole('row', { name: /production/ }).getByText('Required', { exact: true }).waitFor();
    const config = await ok(app.admin.GET('/api/admin/projects/{projectId}/change-requests/config', { params: { path: { projectId } } }));
    expect(config.find((e) => e.environment === 'production')).toMatchObject({ changeRequestEnabled: true, requiredApprovals: 2 });
    expect(config.find((e) => e.environment === 'development')).toMatchObject({ changeRequestEnabled: false });
  });
});

describe("the author works on their draft in the browser", () => {
  beforeAll(async () => {
    editor = await author(app);
    const draft = await proposeAs(app, editor, [
      { feature: 'checkout', action: 'updateEnabled', payload: { enabled: false } },
      { feature: 'checkout', action: 'addStrategy', payload: { name: 'default' } },
    ]);
    id = draft.id;
    editorPage = await signedIn(browser, app, editor.email);
  }, 60_000);

  it('renames the draft', async () => {
    await visitRequests(editorPage);
    const dialog = await openDialog(editorPage, `Rename change request #${id}`, `Rename change request #${id}`, card(editorPage));
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Open the new checkout');
    await save(dialog, 'Rename');
    await card(editorPage).getByRole('heading', { name: `#${id} Open the new checkout` }).waitFor();
    expect(await current()).toMatchObject({ title: 'Open the new checkout', state: 'Draft' });
  });

  it('comments on it', async () => {
    await card(editorPage).getByRole('textbox', { name: 'Comment' }).fill('Ready once the payment team agrees.');
    await card(editorPage).getByRole('button', { name: 'Add comment' }).click();
    await card(editorPage).getByText('Ready once the payment team agrees.').waitFor();
    await expect.poll(() => card(editorPage).getByRole('textbox', { name: 'Comment' }).inputValue()).toBe('');
    expect((await current()).comments).toMatchObject([{ text: 'Ready once the payment team agrees.', createdBy: { id: editor.id } }]);
  });

  it("edits a change's payload, refusing text that is not JSON before sending it", async () => {
    const change = (await current()).features[0]!.changes.find((c) => c.action === 'updateEnabled')!;
    const name = `Edit change ${change.id} (updateEnabled of checkout)`;
    const dialog = await openDialog(editorPage, name, name, card(editorPage));
    const payload = dialog.getByRole('textbox', { name: 'Payload (JSON)' });
    expect(JSON.parse(await payload.inputValue())).toEqual({ enabled: false });
    await payload.fill('{"enabled": tru');
    await dialog.getByText(/^Not JSON/).waitFor();
    expect(await dialog.getByRole('button', { name: 'Save change' }).isDisabled()).toBe(true);
    await payload.fill('{"enabled": true}');
    await expectAccessible(editorPage, 'the edit change dialog');
    await save(dialog, 'Save change');
    await card(editorPage).getByText('{"enabled":true}').waitFor();
    expect(changesOf(await current())).toContainEqual({ feature: 'checkout', action: 'updateEnabled', payload: { enabled: true } });
  });

  it('discards one change', async () => {
    const change = (await current()).features[0]!.changes.find((c) => c.action === 'addStrategy')!;
    const group = card(editorPage).getByRole('group', { name: `Change ${change.id}: addStrategy` });
    const dialog = await openDialog(editorPage, 'Discard', `Discard change ${change.id} (addStrategy of checkout)?`, group);
    await save(dialog, 'Discard');
    await group.waitFor({ state: 'detached' });
    expect(changesOf(await current())).toEqual([{ feature: 'checkout', action: 'updateEnabled', payload: { enabled: true } }]);
  });

  it('sends it to review, after which the author may not approve it', async () => {
    await card(editorPage).getByRole('button', { name: 'Submit for review' }).click();
    await card(editorPage).getByText('In review', { exact: true }).waitFor();
    expect((await current()).state).toBe('In review');
    expect(await card(editorPage).getByRole('button', { name: 'Approve' }).count()).toBe(0);
    // Still the author's to rename and to cancel while in review.
    await card(editorPage).getByRole('button', { name: `Rename change request #${id}` }).waitFor();
    await card(editorPage).getByRole('button', { name: 'Cancel request' }).waitFor();
    await expectAccessible(editorPage, 'the change requests page with its configuration and a request in review');
  });
});

describe('approvers review, schedule and apply it', () => {
  beforeAll(async () => {
    const users = [await approver(app, 'default', 'production'), await approver(app, 'default', 'production')];
    approvers = await Promise.all(users.map(async (user) => ({ user, page: await signedIn(browser, app, user.email) })));
  }, 60_000);

  it('needs both approvals: after the first it stays in review, after the second it is approved', async () => {
    for (const [i, { user, page }] of approvers.entries()) {
      await visitRequests(page);
      await card(page).getByRole('button', { name: 'Approve', exact: true }).click();
      await card(page).getByText(`Approved by ${user.email}`).waitFor();
      const request = await current();
      expect(request.approvals.map((a) => a.createdBy.id)).toEqual(approvers.slice(0, i + 1).map((a) => a.user.id));
      expect(request.state).toBe(i === 0 ? 'In review' : 'Approved');
    }
    await card(approvers[1]!.page).getByRole('button', { name: 'Apply', exact: true }).waitFor();
  });

  it('schedules it, and its own view shows when', async () => {
    const { page } = approvers[1]!;
    const dialog = await openDialog(page, 'Schedule', `Schedule change request #${id}`, card(page));
    // The browser runs in UTC (tests/support/browser.ts), so the local time entered is the instant stored.
    await dialog.getByLabel('Apply at').fill('2031-06-01T09:30');
    await expectAccessible(page, 'the schedule dialog');
    await save(dialog, 'Schedule');
    await card(page).getByText(/^Scheduled for/).waitFor();
    expect(await current()).toMatchObject({ state: 'Scheduled', schedule: { scheduledAt: '2031-06-01T09:30:00.000Z', status: 'pending' } });

    await card(page).getByRole('link', { name: `#${id} Open the new checkout` }).click();
    await page.getByRole('heading', { level: 1, name: `Change request #${id}` }).waitFor();
    await loaded(page);
    await card(page).getByText(/^Scheduled for/).waitFor();
    await card(page).getByText('Ready once the payment team agrees.').waitFor();
    await expectAccessible(page, 'a change request on its own');
    await screenshot(page, 'change-requests-detail');
  });

  it('applies it now instead, which turns the flag on in production', async () => {
    const { page } = approvers[1]!;
    await card(page).getByRole('button', { name: 'Apply now' }).click();
    await card(page).getByText('Applied', { exact: true }).waitFor();
    expect((await current()).state).toBe('Applied');
    expect(await flagEnvironment('checkout', 'production')).toMatchObject({ enabled: true });
  });

  it('shows why a schedule was suspended', async () => {
    await createFlag(projectId, 'legacy');
    const draft = await proposeAs(app, editor, { feature: 'legacy', action: 'updateEnabled', payload: { enabled: true } });
    const state = (user: TestUser, body: ChangeRequestStateUpdate) =>
      ok(clientAs(app, user).PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/state', { params: { path: { projectId, changeRequestId: draft.id } }, body }));
    await state(editor, { state: 'In review' });
    for (const { user } of approvers) await state(user, { state: 'Approved' });
    await state(approvers[0]!.user, { state: 'Scheduled', scheduledAt: new Date(Date.now() + 1500).toISOString() });
    // Archived before its time: when due, the service suspends the schedule instead of applying it.
    await archiveFlag(projectId, 'legacy');
    const suspended = await until('the schedule to be suspended', () => requestOf(draft.id), (r) => r.schedule?.status !== 'pending', 10_000);
    expect(suspended).toMatchObject({ state: 'Scheduled', schedule: { status: 'suspended' } });
    const { page } = approvers[0]!;
    await visitRequests(page);
    const alert = page.getByRole('article', { name: `Change request ${draft.id}` }).getByRole('alert');
    await alert.getByText(/is suspended$/).waitFor();
    await alert.getByText(suspended.schedule!.reason!).waitFor();
  });
});

describe('a Viewer', () => {
  it('sees the configuration and the requests, without controls to change them but the comment box', async () => {
    await createUser(app, { username: 'vera', rootRole: 'Viewer' });
    const page = await signedIn(browser, app, 'vera');
    await visitRequests(page);
    const table = page.getByRole('table', { name: 'Change request configuration of default' });
    await table.getByRole('row', { name: /production/ }).getByText('Required', { exact: true }).waitFor();
    expect(await table.getByRole('button').count()).toBe(0);
    expect(await table.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);
    await card(page).waitFor();
    // Anyone signed in may comment (addChangeRequestComment needs no permission); nothing else is offered.
    expect(await card(page).getByRole('button').allTextContents()).toEqual(['Add comment']);
  });
});
