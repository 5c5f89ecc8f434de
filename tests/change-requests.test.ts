// Change requests from proposal to application: the four-eyes rule, approvals, rejection, cancellation.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, asUser, asUserJson, author, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { adminJson, fixtures, newApiToken } from './support/fixtures.js';
import type { TestUser } from './support/users.js';

let app: TestApp;
let writer: TestUser;
let reviewer: TestUser;
const unique = uniqueNames();
const { newFlag, flagEnvironment } = fixtures(() => app, unique);
const events = eventReader(() => app);
const base = '/api/admin/projects/default';

const propose = (user: TestUser, body: unknown) => asUserJson(app, user, 'POST', `${base}/environments/production/change-requests`, body);
const moveTo = (user: TestUser, id: number, state: string, extra: object = {}) => asUser(app, user, 'PUT', `${base}/change-requests/${id}/state`, { state, ...extra });

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  writer = await author(app);
  reviewer = await approver(app, 'default', 'production');
});

describe('a full cycle', () => {
  it('two changes proposed, approved by another user and applied reach SDKs with their events', async () => {
    const flag = await newFlag('cycle');
    const draft = await propose(writer, [
      { feature: flag, action: 'addStrategy', payload: { name: 'flexibleRollout', parameters: { rollout: 25 } } },
      { feature: flag, action: 'updateEnabled', payload: { enabled: true } },
    ]);
    expect(draft).toMatchObject({ state: 'Draft', environment: 'production', minApprovals: 1, features: [{ name: flag, changes: [{ action: 'addStrategy' }, { action: 'updateEnabled' }] }] });
    expect((await moveTo(writer, draft.id, 'In review')).json.state).toBe('In review');
    expectError(await moveTo(writer, draft.id, 'Approved'), 403, 'NoAccessError');
    expect((await moveTo(reviewer, draft.id, 'Approved')).json.state).toBe('Approved');
    const since = await events.latestEventId();
    const applied = await moveTo(reviewer, draft.id, 'Applied');
    expect(applied.status, applied.text).toBe(200);
    expect(applied.json.state).toBe('Applied');
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['feature-strategy-add', 'feature-environment-enabled', 'change-request-applied']);
    const token = await newApiToken(app, { type: 'client', environment: 'production' });
    const served = (await call(app, 'GET', `/api/client/features/${flag}`, { token })).json;
    expect(served).toMatchObject({ enabled: true, strategies: [{ name: 'flexibleRollout', parameters: { rollout: '25' } }] });
  });
});

describe('direct writes', () => {
  it('are refused with 409 in the environment that requires change requests', async () => {
    const flag = await newFlag('direct');
    const error = expectError(await asUser(app, writer, 'POST', `${base}/features/${flag}/environments/production/on`), 409, 'ConflictError');
    expect(error.message).toContain('requires change requests');
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(false);
  });

  it('are allowed in other environments', async () => {
    const flag = await newFlag('elsewhere');
    expect((await asUser(app, writer, 'POST', `${base}/features/${flag}/environments/development/on`)).status).toBe(200);
  });

  it('are allowed for a caller who holds SKIP_CHANGE_REQUEST there, and for admin tokens', async () => {
    const skipper = await approver(app, 'default', 'production', ['SKIP_CHANGE_REQUEST', 'UPDATE_FEATURE_ENVIRONMENT', 'CREATE_FEATURE_STRATEGY']);
    const flag = await newFlag('skipped');
    expect((await asUser(app, skipper, 'POST', `${base}/features/${flag}/environments/production/on`)).status).toBe(200);
    const other = await newFlag('admin-token');
    expect((await call(app, 'POST', `${base}/features/${other}/environments/production/on`)).status).toBe(200);
  });
});
