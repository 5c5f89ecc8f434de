// Reviewing change requests: who may approve, reject, cancel and apply, which moves each state allows, and reading them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, author, changeRequestCalls, environmentRequiring, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures, turnOnChange as turnOn } from './support/fixtures.js';
import type { TestUser } from './support/users.js';

type ChangeRequestState = components['schemas']['ChangeRequestState'];

let app: TestApp;
let reviewer: TestUser;
/** An environment of the default project where requests need two approvals. */
let twoApprovals: string;
const unique = uniqueNames();
const { newFlag, newProject, flagEnvironment } = fixtures(() => app, unique);
const events = eventReader(() => app);
const { base, propose, moveTo, read, requestIn } = changeRequestCalls(() => app);

const STATES = ['Draft', 'In review', 'Approved', 'Applied', 'Rejected', 'Cancelled', 'Scheduled'] as const;

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  reviewer = await approver(app, 'default', 'production');
  twoApprovals = await environmentRequiring(app, 'default', 'two-approvals', 2);
});

describe('two required approvals', () => {
  let environment: string;
  let first: TestUser;
  let second: TestUser;

  beforeAll(async () => {
    environment = twoApprovals;
    first = await approver(app, 'default', environment);
    second = await approver(app, 'default', environment);
  });

  it('one approval leaves the request in review', async () => {
    const request = await requestIn('In review', turnOn(await newFlag('one-of-two')), { environment });
    expect(request.minApprovals).toBe(2);
    const approved = await moveTo(first, request.id, 'Approved');
    expect(approved.response.status, JSON.stringify(approved.error)).toBe(200);
    expect(approved.data!).toMatchObject({ state: 'In review', approvals: [{ createdBy: { id: first.id } }] });
  });

  it('the same approver approving again does not count twice', async () => {
    const request = await requestIn('In review', turnOn(await newFlag('twice')), { environment });
    await moveTo(first, request.id, 'Approved');
    const again = await moveTo(first, request.id, 'Approved');
    expect(again.response.status, JSON.stringify(again.error)).toBe(200);
    expect(again.data!.state).toBe('In review');
    expect(again.data!.approvals).toHaveLength(1);
  });

  it('the same approver approving again records no second approval', async () => {
    const request = await requestIn('In review', turnOn(await newFlag('twice-events')), { environment });
    await moveTo(first, request.id, 'Approved');
    const since = await events.latestEventId();
    await moveTo(first, request.id, 'Approved');
    expect(await events.eventsSince(since)).toEqual([]);
  });

  it('a second distinct approver makes it Approved', async () => {
    const request = await requestIn('In review', turnOn(await newFlag('two-of-two')), { environment });
    await moveTo(first, request.id, 'Approved');
    const since = await events.latestEventId();
    const approved = await moveTo(second, request.id, 'Approved');
    expect(approved.response.status, JSON.stringify(approved.error)).toBe(200);
    expect(approved.data!.state).toBe('Approved');
    expect(approved.data!.approvals.map((a: { createdBy: { id: number } }) => a.createdBy.id).sort()).toEqual([first.id, second.id].sort());
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-request-approval-added', 'change-request-approved']);
  });
});

describe('who may approve', () => {
  it("refuses the author's own approval even when the author may approve", async () => {
    const both = await approver(app, 'default', 'production', ['APPROVE_CHANGE_REQUEST', 'UPDATE_FEATURE_ENVIRONMENT']);
    const request = await requestIn('In review', turnOn(await newFlag('own')), { by: both });
    const error = expectError(await moveTo(both, request.id, 'Approved'), 403, 'NoAccessError');
    expect(error.message).toContain('author');
    expect((await read(request.id)).state).toBe('In review');
  });

  it('refuses a user without APPROVE_CHANGE_REQUEST', async () => {
    const request = await requestIn('In review', turnOn(await newFlag('no-approve')));
    const error = expectError(await moveTo(await author(app), request.id, 'Approved'), 403, 'NoAccessError');
    expect(error.message).toContain('APPROVE_CHANGE_REQUEST');
    expect((await read(request.id)).approvals).toEqual([]);
  });

  it('refuses an approver of another environment', async () => {
    const elsewhere = await approver(app, 'default', 'development');
    const request = await requestIn('In review', turnOn(await newFlag('other-env')));
    expectError(await moveTo(elsewhere, request.id, 'Approved'), 403, 'NoAccessError');
  });
});

describe('rejection', () => {
  it('moves the request to Rejected and records change-request-rejected', async () => {
    const request = await requestIn('In review', turnOn(await newFlag('rejected')));
    const since = await events.latestEventId();
    const rejected = await moveTo(reviewer, request.id, 'Rejected', { comment: 'Not during the freeze' });
    expect(rejected.response.status, JSON.stringify(rejected.error)).toBe(200);
    expect(rejected.data!).toMatchObject({ state: 'Rejected', rejections: [{ createdBy: { id: reviewer.id }, comment: 'Not during the freeze' }] });
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-request-rejected']);
  });

  it('leaves no move from Rejected: each is 409 naming the state', async () => {
    const request = await requestIn('In review', turnOn(await newFlag('after-rejection')));
    await moveTo(reviewer, request.id, 'Rejected');
    for (const state of STATES) {
      const error = expectError(await moveTo(reviewer, request.id, state), 409, 'ConflictError');
      expect(error.message, `to ${state}`).toContain('"Rejected"');
    }
    expect((await read(request.id)).state).toBe('Rejected');
  });
});

describe('cancellation', () => {
  it('by the author from Draft records change-request-discarded', async () => {
    const writer = await author(app);
    const request = await requestIn('Draft', turnOn(await newFlag('discarded')), { by: writer });
    const since = await events.latestEventId();
    const cancelled = await moveTo(writer, request.id, 'Cancelled');
    expect(cancelled.response.status, JSON.stringify(cancelled.error)).toBe(200);
    expect(cancelled.data!.state).toBe('Cancelled');
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-request-discarded']);
  });

  it('by the author from In review records change-request-cancelled', async () => {
    const writer = await author(app);
    const request = await requestIn('In review', turnOn(await newFlag('cancelled')), { by: writer });
    const since = await events.latestEventId();
    const cancelled = await moveTo(writer, request.id, 'Cancelled');
    expect(cancelled.response.status, JSON.stringify(cancelled.error)).toBe(200);
    expect(cancelled.data!.state).toBe('Cancelled');
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-request-cancelled']);
  });

  it('is refused to a user who is neither the author nor an approver', async () => {
    const request = await requestIn('In review', turnOn(await newFlag('not-yours')));
    expectError(await moveTo(await author(app), request.id, 'Cancelled'), 403, 'NoAccessError');
    expect((await read(request.id)).state).toBe('In review');
  });

  it('frees the author to open a new draft', async () => {
    const writer = await author(app);
    const request = await requestIn('Draft', turnOn(await newFlag('before')), { by: writer });
    await moveTo(writer, request.id, 'Cancelled');
    const next = await propose(writer, turnOn(await newFlag('after')));
    expect(next.response.status, JSON.stringify(next.error)).toBe(200);
    expect(next.data!.id).not.toBe(request.id);
  });
});

describe('applying', () => {
  it('needs APPLY_CHANGE_REQUEST: an approver holding only APPROVE_CHANGE_REQUEST is refused', async () => {
    const approveOnly = await approver(app, 'default', 'production', ['APPROVE_CHANGE_REQUEST']);
    const flag = await newFlag('apply-permission');
    const request = await requestIn('Approved', turnOn(flag), { reviewer: approveOnly });
    const error = expectError(await moveTo(approveOnly, request.id, 'Applied'), 403, 'NoAccessError');
    expect(error.message).toContain('APPLY_CHANGE_REQUEST');
    expect((await read(request.id)).state).toBe('Approved');
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(false);
  });

  it('is refused to the author, who holds no APPLY_CHANGE_REQUEST', async () => {
    const writer = await author(app);
    const request = await requestIn('Approved', turnOn(await newFlag('author-applies')), { by: writer, reviewer });
    expectError(await moveTo(writer, request.id, 'Applied'), 403, 'NoAccessError');
  });
});

describe('moves the current state does not allow', () => {
  it('applying a Draft is 409 naming the state', async () => {
    const request = await requestIn('Draft', turnOn(await newFlag('apply-draft')));
    const error = expectError(await moveTo(reviewer, request.id, 'Applied'), 409, 'ConflictError');
    expect(error.message).toContain('"Draft"');
  });

  it('approving a Draft is 409 naming the state', async () => {
    const request = await requestIn('Draft', turnOn(await newFlag('approve-draft')));
    const error = expectError(await moveTo(reviewer, request.id, 'Approved'), 409, 'ConflictError');
    expect(error.message).toContain('"Draft"');
  });

  it('sending an Applied request to review is 409 naming the state', async () => {
    const writer = await author(app);
    const request = await requestIn('Approved', turnOn(await newFlag('applied-review')), { by: writer, reviewer });
    expect((await moveTo(reviewer, request.id, 'Applied')).response.status).toBe(200);
    const error = expectError(await moveTo(writer, request.id, 'In review'), 409, 'ConflictError');
    expect(error.message).toContain('"Applied"');
  });

  it('cancelling an Applied request is 409 naming the state', async () => {
    const request = await requestIn('Approved', turnOn(await newFlag('applied-cancel')), { reviewer });
    expect((await moveTo(reviewer, request.id, 'Applied')).response.status).toBe(200);
    const error = expectError(await moveTo(reviewer, request.id, 'Cancelled'), 409, 'ConflictError');
    expect(error.message).toContain('"Applied"');
  });

  it('moving back to Draft is 409 naming the state', async () => {
    const writer = await author(app);
    const request = await requestIn('In review', turnOn(await newFlag('back-to-draft')), { by: writer });
    const error = expectError(await moveTo(writer, request.id, 'Draft'), 409, 'ConflictError');
    expect(error.message).toContain('"In review"');
  });
});

describe('which request', () => {
  it('one of another project is 404', async () => {
    const other = await newProject('other');
    const request = await requestIn('Draft', turnOn(await newFlag('of-default')));
    const elsewhere = { params: { path: { projectId: other, changeRequestId: request.id } } };
    expectError(await app.admin.GET('/api/admin/projects/{projectId}/change-requests/{changeRequestId}', elsewhere), 404, 'NotFoundError');
    expectError(
      await app.admin.PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/state', { ...elsewhere, body: { state: 'Cancelled' } }),
      404,
      'NotFoundError',
    );
    expect((await read(request.id)).state).toBe('Draft');
  });

  it('an unknown id is 404', async () => {
    const unknown = { params: { path: { projectId: 'default', changeRequestId: 999999 } } };
    expectError(await app.admin.GET('/api/admin/projects/{projectId}/change-requests/{changeRequestId}', unknown), 404, 'NotFoundError');
    expectError(await moveTo(reviewer, 999999, 'Approved'), 404, 'NotFoundError');
  });
});

describe('listing', () => {
  const list = (projectId: string, state?: ChangeRequestState) =>
    app.admin.GET('/api/admin/projects/{projectId}/change-requests', { params: { path: { projectId }, query: state ? { state } : {} } });

  it('without a state lists every request of the project, newest first', async () => {
    const draft = await requestIn('Draft', turnOn(await newFlag('listed-draft')));
    const inReview = await requestIn('In review', turnOn(await newFlag('listed-review')));
    const listed = (await list('default')).data!;
    const ids = listed.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([draft.id, inReview.id]));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('with ?state= lists only the requests in that state', async () => {
    const draft = await requestIn('Draft', turnOn(await newFlag('filtered-draft')));
    const inReview = await requestIn('In review', turnOn(await newFlag('filtered-review')));
    const listed = (await list('default', 'In review')).data!;
    expect(listed.map((r) => r.id)).toContain(inReview.id);
    expect(listed.map((r) => r.id)).not.toContain(draft.id);
    expect(new Set(listed.map((r) => r.state))).toEqual(new Set(['In review']));
  });

  it('an unknown state is 400', async () => {
    expectError(await call(app, 'GET', `${base}/change-requests?state=Merged`), 400, 'ValidationError');
  });

  it("of another project leaves out this project's requests", async () => {
    const other = await newProject('quiet');
    await requestIn('Draft', turnOn(await newFlag('not-there')));
    expect((await list(other)).data).toEqual([]);
  });
});

describe('reading one', () => {
  it('shows its changes grouped by flag, each with its author and time', async () => {
    const writer = await author(app);
    const [a, b] = [await newFlag('grouped-a'), await newFlag('grouped-b')];
    const request = await requestIn(
      'Draft',
      [turnOn(a), { feature: b, action: 'addStrategy', payload: { name: 'default' } }, { feature: a, action: 'addStrategy', payload: { name: 'default' } }],
      { by: writer },
    );
    const read1 = await read(request.id);
    expect(read1).toMatchObject({
      id: request.id,
      title: `Change request #${request.id}`,
      project: 'default',
      environment: 'production',
      state: 'Draft',
      minApprovals: 1,
      createdBy: { id: writer.id, username: expect.any(String) },
      features: [
        { name: a, changes: [{ action: 'updateEnabled', payload: { enabled: true } }, { action: 'addStrategy' }] },
        { name: b, changes: [{ action: 'addStrategy', payload: { name: 'default' } }] },
      ],
      approvals: [],
      rejections: [],
      comments: [],
    });
    for (const change of read1.features.flatMap((f) => f.changes)) {
      expect(change).toMatchObject({ id: expect.any(Number), createdBy: { id: writer.id, username: expect.any(String) } });
      expect(Number.isNaN(Date.parse(change.createdAt))).toBe(false);
    }
    expect(read1.schedule).toBeUndefined();
  });

  it('shows approvals and rejections with who gave them, when, and their comment', async () => {
    const environment = twoApprovals;
    const [yes, no] = [await approver(app, 'default', environment), await approver(app, 'default', environment)];
    const request = await requestIn('In review', turnOn(await newFlag('reviewed')), { environment });
    await moveTo(yes, request.id, 'Approved', { comment: 'Looks right' });
    await moveTo(no, request.id, 'Rejected', { comment: 'Wait a week' });
    const shown = await read(request.id);
    expect(shown).toMatchObject({
      state: 'Rejected',
      approvals: [{ createdBy: { id: yes.id, username: expect.any(String) }, comment: 'Looks right' }],
      rejections: [{ createdBy: { id: no.id, username: expect.any(String) }, comment: 'Wait a week' }],
    });
    expect(Number.isNaN(Date.parse(shown.approvals[0]!.createdAt))).toBe(false);
    expect(Number.isNaN(Date.parse(shown.rejections[0]!.createdAt))).toBe(false);
  });
});
