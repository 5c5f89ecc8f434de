// The interface's comment operation on change requests, and comments as the request shows them.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, asUser, changeRequestCalls, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { userWithSession, type TestUser } from './support/users.js';

let app: TestApp;
let viewer: TestUser;
let reviewer: TestUser;
const unique = uniqueNames();
const { newFlag, newProject } = fixtures(() => app, unique);
const events = eventReader(() => app);
const { base, moveTo, read, requestIn } = changeRequestCalls(() => app);

const commentsOf = (id: number, project = 'default') => `/api/admin/projects/${project}/change-requests/${id}/comments`;
const aRequest = async () => requestIn('Draft', { feature: await newFlag('commented'), action: 'updateEnabled', payload: { enabled: true } });

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  viewer = await userWithSession(app, 'Viewer', 'commenter');
  reviewer = await approver(app, 'default', 'production');
});

describe('commenting', () => {
  it('answers 204 with no body', async () => {
    const request = await aRequest();
    const response = await asUser(app, viewer, 'POST', commentsOf(request.id), { text: 'Should this wait until after the freeze?' });
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe('');
  });

  it('shows the comment on the request, with its author and time, oldest first', async () => {
    const request = await aRequest();
    await asUser(app, viewer, 'POST', commentsOf(request.id), { text: 'First question' });
    await asUser(app, viewer, 'POST', commentsOf(request.id), { text: 'Second question' });
    const { comments } = await read(request.id);
    expect(comments).toMatchObject([
      { id: expect.any(Number), text: 'First question', createdBy: { id: viewer.id, username: expect.any(String) } },
      { text: 'Second question', createdBy: { id: viewer.id } },
    ]);
    expect(Number.isNaN(Date.parse(comments[0].createdAt))).toBe(false);
  });

  it('is allowed on an applied request too', async () => {
    const request = await requestIn('Approved', { feature: await newFlag('applied'), action: 'updateEnabled', payload: { enabled: true } }, { reviewer });
    expect((await moveTo(reviewer, request.id, 'Applied')).status).toBe(200);
    expect((await asUser(app, viewer, 'POST', commentsOf(request.id), { text: 'Shipped' })).status).toBe(204);
    expect((await read(request.id)).comments).toMatchObject([{ text: 'Shipped' }]);
  });

  it('by an admin API token is allowed, and shown as made by the token', async () => {
    const request = await aRequest();
    expect((await call(app, 'POST', commentsOf(request.id), { body: { text: 'From automation' } })).status).toBe(204);
    expect((await read(request.id)).comments).toMatchObject([{ text: 'From automation', createdBy: { username: 'an admin API token' } }]);
  });

  it('records no event', async () => {
    const request = await aRequest();
    const since = await events.latestEventId();
    await asUser(app, viewer, 'POST', commentsOf(request.id), { text: 'Quiet' });
    expect(await events.eventsSince(since)).toEqual([]);
  });
});

describe('refused comments', () => {
  it.each(['', '   \n\t'])('an empty or blank text (%j) is 400', async (text) => {
    const request = await aRequest();
    const error = expectError(await asUser(app, viewer, 'POST', commentsOf(request.id), { text }), 400, 'ValidationError');
    expect(error.message).toContain('text');
    expect((await read(request.id)).comments).toEqual([]);
  });

  it('a missing text is 400', async () => {
    const request = await aRequest();
    expectError(await asUser(app, viewer, 'POST', commentsOf(request.id), {}), 400, 'ValidationError');
  });

  it('an unknown request is 404', async () => {
    expectError(await asUser(app, viewer, 'POST', commentsOf(999999), { text: 'Anyone there?' }), 404, 'NotFoundError');
  });

  it('a request of another project is 404', async () => {
    const request = await aRequest();
    const other = await newProject('other');
    expectError(await asUser(app, viewer, 'POST', commentsOf(request.id, other), { text: 'Wrong place' }), 404, 'NotFoundError');
    expect((await read(request.id)).comments).toEqual([]);
  });

  it('without credentials is 401', async () => {
    const request = await aRequest();
    expectError(await call(app, 'POST', `${base}/change-requests/${request.id}/comments`, { token: null, body: { text: 'Anonymous' } }), 401, 'AuthenticationRequired');
  });
});
