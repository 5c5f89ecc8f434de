// The interface's comment operation on change requests, and comments as the request shows them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../client/index.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, asUser, changeRequestCalls, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { clientAs, userWithSession, type TestUser } from './support/users.js';

let app: TestApp;
let viewer: TestUser;
let reviewer: TestUser;
const unique = uniqueNames();
const { newFlag, newProject } = fixtures(() => app, unique);
const events = eventReader(() => app);
const { moveTo, read, requestIn } = changeRequestCalls(() => app);

const comment = (client: ServiceClient, changeRequestId: number, text: string, projectId = 'default') =>
  client.POST('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/comments', { params: { path: { projectId, changeRequestId } }, body: { text } });
const asViewer = () => clientAs(app, viewer);
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
    const { response, error } = await comment(asViewer(), request.id, 'Should this wait until after the freeze?');
    expect(response.status, JSON.stringify(error)).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('shows the comment on the request, with its author and time, oldest first', async () => {
    const request = await aRequest();
    await comment(asViewer(), request.id, 'First question');
    await comment(asViewer(), request.id, 'Second question');
    const { comments } = await read(request.id);
    expect(comments).toMatchObject([
      { id: expect.any(Number), text: 'First question', createdBy: { id: viewer.id, username: expect.any(String) } },
      { text: 'Second question', createdBy: { id: viewer.id } },
    ]);
    expect(Number.isNaN(Date.parse(comments[0]!.createdAt))).toBe(false);
  });

  it('is allowed on an applied request too', async () => {
    const request = await requestIn('Approved', { feature: await newFlag('applied'), action: 'updateEnabled', payload: { enabled: true } }, { reviewer });
    expect((await moveTo(reviewer, request.id, 'Applied')).response.status).toBe(200);
    expect((await comment(asViewer(), request.id, 'Shipped')).response.status).toBe(204);
    expect((await read(request.id)).comments).toMatchObject([{ text: 'Shipped' }]);
  });

  it('by an admin API token is allowed, and shown as made by the token', async () => {
    const request = await aRequest();
    expect((await comment(app.admin, request.id, 'From automation')).response.status).toBe(204);
    expect((await read(request.id)).comments).toMatchObject([{ text: 'From automation', createdBy: { username: 'an admin API token' } }]);
  });

  it('records no event', async () => {
    const request = await aRequest();
    const since = await events.latestEventId();
    await comment(asViewer(), request.id, 'Quiet');
    expect(await events.eventsSince(since)).toEqual([]);
  });
});

describe('refused comments', () => {
  it.each(['', '   \n\t'])('an empty or blank text (%j) is 400', async (text) => {
    const request = await aRequest();
    const error = expectError(await comment(asViewer(), request.id, text), 400, 'ValidationError');
    expect(error.message).toContain('text');
    expect((await read(request.id)).comments).toEqual([]);
  });

  it('a missing text is 400', async () => {
    const request = await aRequest();
    // A body the types forbid, so sent raw.
    expectError(await asUser(app, viewer, 'POST', `/api/admin/projects/default/change-requests/${request.id}/comments`, {}), 400, 'ValidationError');
  });

  it('an unknown request is 404', async () => {
    expectError(await comment(asViewer(), 999999, 'Anyone there?'), 404, 'NotFoundError');
  });

  it('a request of another project is 404', async () => {
    const request = await aRequest();
    const other = await newProject('other');
    expectError(await comment(asViewer(), request.id, 'Wrong place', other), 404, 'NotFoundError');
    expect((await read(request.id)).comments).toEqual([]);
  });

  it('without credentials is 401', async () => {
    const request = await aRequest();
    expectError(await comment(app.clientWith(), request.id, 'Anonymous'), 401, 'AuthenticationRequired');
  });
});
