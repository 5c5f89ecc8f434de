// Change requests from proposal to application: the four-eyes rule, approvals, rejection, cancellation.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, author, proposeAs, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { envPath, fixtures, newApiToken } from './support/fixtures.js';
import { clientAs, type TestUser } from './support/users.js';

type UpdateChangeRequestState = components['schemas']['UpdateChangeRequestState'];

let app: TestApp;
let writer: TestUser;
let reviewer: TestUser;
const unique = uniqueNames();
const { newFlag, flagEnvironment } = fixtures(() => app, unique);
const events = eventReader(() => app);

const moveTo = (user: TestUser, changeRequestId: number, state: UpdateChangeRequestState['state']) =>
  clientAs(app, user).PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/state', {
    params: { path: { projectId: 'default', changeRequestId } },
    body: { state },
  });

/** Turns the flag on in the environment of the default project as `user`. */
const turnOnAs = (user: TestUser, featureName: string, environment: string) =>
  clientAs(app, user).POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', {
    params: { path: envPath(featureName, environment) },
  });

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  writer = await author(app);
  reviewer = await approver(app, 'default', 'production');
});

describe('a full cycle', () => {
  it('two changes proposed, approved by another user and applied reach SDKs with their events', async () => {
    const flag = await newFlag('cycle');
    const draft = await proposeAs(app, writer, [
      { feature: flag, action: 'addStrategy', payload: { name: 'flexibleRollout', parameters: { rollout: 25 } } },
      { feature: flag, action: 'updateEnabled', payload: { enabled: true } },
    ]);
    expect(draft).toMatchObject({ state: 'Draft', environment: 'production', minApprovals: 1, features: [{ name: flag, changes: [{ action: 'addStrategy' }, { action: 'updateEnabled' }] }] });
    expect((await moveTo(writer, draft.id, 'In review')).data!.state).toBe('In review');
    expectError(await moveTo(writer, draft.id, 'Approved'), 403, 'NoAccessError');
    expect((await moveTo(reviewer, draft.id, 'Approved')).data!.state).toBe('Approved');
    const since = await events.latestEventId();
    const applied = await moveTo(reviewer, draft.id, 'Applied');
    expect(applied.response.status, JSON.stringify(applied.error)).toBe(200);
    expect(applied.data!.state).toBe('Applied');
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['feature-strategy-add', 'feature-environment-enabled', 'change-request-applied']);
    const token = await newApiToken(app, { type: 'client', environment: 'production' });
    const served = (await app.clientWith(token).GET('/api/client/features/{featureName}', { params: { path: { featureName: flag } } })).data;
    expect(served).toMatchObject({ enabled: true, strategies: [{ name: 'flexibleRollout', parameters: { rollout: '25' } }] });
  });
});

describe('direct writes', () => {
  it('are refused with 409 in the environment that requires change requests', async () => {
    const flag = await newFlag('direct');
    const error = expectError(await turnOnAs(writer, flag, 'production'), 409, 'ConflictError');
    expect(error.message).toContain('requires change requests');
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(false);
  });

  it('are allowed in other environments', async () => {
    const flag = await newFlag('elsewhere');
    expect((await turnOnAs(writer, flag, 'development')).response.status).toBe(200);
  });

  it('are allowed for a caller who holds SKIP_CHANGE_REQUEST there, and for admin tokens', async () => {
    const skipper = await approver(app, 'default', 'production', ['SKIP_CHANGE_REQUEST', 'UPDATE_FEATURE_ENVIRONMENT', 'CREATE_FEATURE_STRATEGY']);
    const flag = await newFlag('skipped');
    expect((await turnOnAs(skipper, flag, 'production')).response.status).toBe(200);
    const other = await newFlag('admin-token');
    const byToken = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', {
      params: { path: envPath(other, 'production') },
    });
    expect(byToken.response.status).toBe(200);
  });
});
