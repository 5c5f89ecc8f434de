// Change requests moved by several people at the same moment: each outcome is one that the same calls made one after
// the other could have had. On PostgreSQL the calls' transactions truly run at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, author, changeRequestCalls, environmentRequiring, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures, turnOnChange } from './support/fixtures.js';
import { clientAs, type TestUser } from './support/users.js';

let app: TestApp;
let reviewer: TestUser;
let otherReviewer: TestUser;
/** An environment of the default project where requests need two approvals. */
let twoApprovals: string;
const unique = uniqueNames();
const { newFlag, flagEnvironment } = fixtures(() => app, unique);
const events = eventReader(() => app);
const { propose, moveTo, read, requestIn } = changeRequestCalls(() => app);

const addStrategy = (feature: string) => ({ feature, action: 'addStrategy' as const, payload: { name: 'default' } });

/** Exactly one of the answers succeeded and every other is a 409 ConflictError; answers the one's index. */
function oneWins(responses: { response: Response; error?: unknown }[]): number {
  const winners = responses.flatMap((r, i) => (r.response.status < 300 ? [i] : []));
  expect(winners, responses.map((r) => `${r.response.status} ${JSON.stringify(r.error)}`).join('\n')).toHaveLength(1);
  responses.filter((_, i) => i !== winners[0]).forEach((r) => expectError(r, 409, 'ConflictError'));
  return winners[0]!;
}

/** The types of the events written since `since` about the request, oldest first. */
async function typesSince(since: number, id: number): Promise<string[]> {
  const written = await events.eventsSince(since);
  const about = (e: (typeof written)[number]) => e.data?.changeRequestId ?? e.preData?.changeRequestId ?? e.data?.id ?? e.preData?.id;
  return written.filter((e) => about(e) === id).map((e) => e.type);
}

const count = (types: string[], type: string) => types.filter((t) => t === type).length;

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  reviewer = await approver(app, 'default', 'production');
  otherReviewer = await approver(app, 'default', 'production');
  twoApprovals = await environmentRequiring(app, 'default', 'two-approvals', 2);
});

describe('applying', () => {
  it('four applies at once apply the request once', async () => {
    const flag = await newFlag('applied-once');
    const request = await requestIn('Approved', addStrategy(flag), { reviewer });
    const since = await events.latestEventId();
    const responses = await Promise.all([reviewer, otherReviewer, reviewer, otherReviewer].map((user) => moveTo(user, request.id, 'Applied')));
    oneWins(responses);
    for (const refused of responses.filter((r) => r.response.status === 409)) {
      expect(expectError(refused, 409, 'ConflictError').message).toContain(`The change request ${request.id} is "Applied": it cannot be applied`);
    }
    expect(count(await typesSince(since, request.id), 'change-request-applied')).toBe(1);
    expect((await events.eventsSince(since)).filter((e) => e.type === 'feature-strategy-add')).toHaveLength(1);
    expect((await flagEnvironment(flag, 'production')).strategies).toHaveLength(1);
  });

  it('an apply and a cancellation at once: one of them happens', async () => {
    const flag = await newFlag('apply-or-cancel');
    const by = await author(app);
    const request = await requestIn('Approved', addStrategy(flag), { by, reviewer });
    const winner = oneWins(await Promise.all([moveTo(reviewer, request.id, 'Applied'), moveTo(by, request.id, 'Cancelled')]));
    expect((await read(request.id)).state).toBe(['Applied', 'Cancelled'][winner]);
    expect((await flagEnvironment(flag, 'production')).strategies).toHaveLength(winner === 0 ? 1 : 0);
  });
});

describe('reviewing', () => {
  it('two approvals at once where one is needed approve it once', async () => {
    const request = await requestIn('In review', turnOnChange(await newFlag('approved-once')));
    const since = await events.latestEventId();
    oneWins(await Promise.all([moveTo(reviewer, request.id, 'Approved'), moveTo(otherReviewer, request.id, 'Approved')]));
    const after = await read(request.id);
    expect(after.state).toBe('Approved');
    expect(after.approvals).toHaveLength(1);
    expect(count(await typesSince(since, request.id), 'change-request-approved')).toBe(1);
  });

  it('two approvals at once where two are needed approve it', async () => {
    const [first, second] = [await approver(app, 'default', twoApprovals), await approver(app, 'default', twoApprovals)];
    const request = await requestIn('In review', turnOnChange(await newFlag('both-needed')), { environment: twoApprovals });
    const since = await events.latestEventId();
    const responses = await Promise.all([moveTo(first, request.id, 'Approved'), moveTo(second, request.id, 'Approved')]);
    for (const response of responses) expect(response.response.status, JSON.stringify(response.error)).toBe(200);
    expect(await read(request.id)).toMatchObject({ state: 'Approved', approvals: [{}, {}] });
    const types = await typesSince(since, request.id);
    expect(count(types, 'change-request-approval-added')).toBe(2);
    expect(count(types, 'change-request-approved')).toBe(1);
  });

  it('an approval and a rejection at once: one of them happens', async () => {
    const request = await requestIn('In review', turnOnChange(await newFlag('approve-or-reject')));
    const since = await events.latestEventId();
    const winner = oneWins(await Promise.all([moveTo(reviewer, request.id, 'Approved'), moveTo(otherReviewer, request.id, 'Rejected')]));
    expect((await read(request.id)).state).toBe(['Approved', 'Rejected'][winner]);
    const types = await typesSince(since, request.id);
    expect(count(types, 'change-request-approved') + count(types, 'change-request-rejected')).toBe(1);
  });

  it('an approval and a cancellation at once leave it cancelled, the approval before or refused', async () => {
    const by = await author(app);
    const request = await requestIn('In review', turnOnChange(await newFlag('approve-or-cancel')), { by });
    const since = await events.latestEventId();
    const [approved, cancelled] = await Promise.all([moveTo(reviewer, request.id, 'Approved'), moveTo(by, request.id, 'Cancelled')]);
    expect(cancelled.response.status, JSON.stringify(cancelled.error)).toBe(200);
    if (approved.response.status !== 200) expectError(approved, 409, 'ConflictError');
    expect((await read(request.id)).state).toBe('Cancelled');
    expect((await typesSince(since, request.id)).at(-1)).toBe('change-request-cancelled');
  });

  it('an approval is given to the change as edited at the same moment, or the edit is refused', async () => {
    const by = await author(app);
    const flag = await newFlag('edit-or-approve');
    const request = await requestIn('In review', turnOnChange(flag), { by });
    const change = { projectId: 'default', changeRequestId: request.id, changeId: request.features[0]!.changes[0]!.id };
    const since = await events.latestEventId();
    const [edited, approved] = await Promise.all([
      clientAs(app, by).PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/changes/{changeId}', {
        params: { path: change },
        body: { feature: flag, action: 'updateEnabled', payload: { enabled: false } },
      }),
      moveTo(reviewer, request.id, 'Approved'),
    ]);
    expect(approved.response.status, JSON.stringify(approved.error)).toBe(200);
    const types = await typesSince(since, request.id);
    if (edited.response.status === 200) expect(types.indexOf('change-edited')).toBeLessThan(types.indexOf('change-request-approval-added'));
    else expectError(edited, 409, 'ConflictError');
    expect(await read(request.id)).toMatchObject({ state: 'Approved', approvals: [{ createdBy: { id: reviewer.id } }] });
  });

  it('a rename at the same moment as an approval is in the approved event, or refused', async () => {
    const by = await author(app);
    const request = await requestIn('In review', turnOnChange(await newFlag('rename-or-approve')), { by });
    const since = await events.latestEventId();
    const [renamed, approved] = await Promise.all([
      clientAs(app, by).PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/title', {
        params: { path: { projectId: 'default', changeRequestId: request.id } },
        body: { title: 'Renamed' },
      }),
      moveTo(reviewer, request.id, 'Approved'),
    ]);
    expect(approved.response.status, JSON.stringify(approved.error)).toBe(200);
    const approvedEvent = (await events.eventsSince(since)).find((e) => e.type === 'change-request-approved' && e.data?.id === request.id);
    if (renamed.response.status === 204) expect(approvedEvent?.data?.title).toBe('Renamed');
    else expectError(renamed, 409, 'ConflictError');
  });
});

describe('proposing', () => {
  it('two changes proposed at once by an author without a draft make one draft', async () => {
    const by = await author(app);
    const [flag, other] = [await newFlag('one-draft'), await newFlag('one-draft')];
    const responses = await Promise.all([propose(by, turnOnChange(flag)), propose(by, turnOnChange(other))]);
    for (const response of responses) expect(response.response.status, JSON.stringify(response.error)).toBe(200);
    expect(responses[0]!.data!.id).toBe(responses[1]!.data!.id);
    expect((await read(responses[0]!.data!.id)).features.map((f: { name: string }) => f.name).sort()).toEqual([flag, other].sort());
  });

  it('a change proposed while the draft is sent to review goes into that request before it is sent, or into a new draft', async () => {
    const by = await author(app);
    const request = await requestIn('Draft', turnOnChange(await newFlag('sent-while-adding')), { by });
    const other = await newFlag('added-while-sending');
    const since = await events.latestEventId();
    const [sent, added] = await Promise.all([moveTo(by, request.id, 'In review'), propose(by, turnOnChange(other))]);
    expect(sent.response.status, JSON.stringify(sent.error)).toBe(200);
    expect(added.response.status, JSON.stringify(added.error)).toBe(200);
    const types = await typesSince(since, request.id);
    if (added.data!.id === request.id) expect(types).toEqual(['change-added', 'change-request-sent-to-review']);
    else expect(types).toEqual(['change-request-sent-to-review']);
  });
});
