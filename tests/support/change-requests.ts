// Change-request fixtures: the environment requiring them, and users to propose, approve and apply.
import { expect } from 'vitest';
import type { components, ServiceClient } from '../../client/index.js';
import { call, type RawResponse, type TestApp } from './app.js';
import { ok } from './fixtures.js';
import { addProjectAccess, as, clientAs, userWithSession, type TestUser } from './users.js';

/** Sets the project environment's change-request rule as the client; the typed answer. */
export const configureChangeRequests = (client: ServiceClient, projectId: string, environment: string, body: components['schemas']['UpdateChangeRequestConfig']) =>
  client.PUT('/api/admin/projects/{projectId}/environments/{environment}/change-requests/config', { params: { path: { projectId, environment } }, body });

/** Requires change requests in the project's environment (by admin token). */
export async function requireChangeRequests(app: TestApp, projectId: string, environment: string, requiredApprovals = 1) {
  await ok(configureChangeRequests(app.admin, projectId, environment, { changeRequestsEnabled: true, requiredApprovals }), 204);
}

let roleCounter = 0;

/** A Viewer who may approve and apply change requests in the project's environment, through a custom project role. */
export async function approver(app: TestApp, project: string, environment: string, permissions = ['APPROVE_CHANGE_REQUEST', 'APPLY_CHANGE_REQUEST']): Promise<TestUser> {
  const user = await userWithSession(app, 'Viewer', 'approver');
  const role = await ok(app.admin.POST('/api/admin/roles', {
    body: { name: `Approver ${++roleCounter} ${Date.now()}`, type: 'custom', permissions: permissions.map((name) => ({ name, environment })) },
  }));
  await ok(addProjectAccess(app, project, { roles: [role.id], users: [user.id] }));
  return user;
}

/** Proposes the changes as the user in the project's environment (production by default), which must succeed; answers the request. */
export const proposeAs = (app: TestApp, user: TestUser, body: components['schemas']['ChangeRequestChangesInput'], projectId = 'default', environment = 'production') =>
  ok(clientAs(app, user).POST('/api/admin/projects/{projectId}/environments/{environment}/change-requests', { params: { path: { projectId, environment } }, body }), 200);

/** An Editor: works on flags of the default project, may not skip change requests. */
export const author = (app: TestApp) => userWithSession(app, 'Editor', 'author');

/** Calls as the user; answers the raw response. */
export const asUser = (app: TestApp, user: TestUser, method: string, path: string, body?: unknown): Promise<RawResponse> =>
  call(app, method, path, { ...as(user), ...(body !== undefined && { body: body as object }) });


/** A new environment (attached to every project, Editors working there) where the project requires `requiredApprovals` approvals. */
export async function environmentRequiring(app: TestApp, project: string, name: string, requiredApprovals: number): Promise<string> {
  await ok(app.admin.POST('/api/admin/environments', { body: { name, type: 'production' } }));
  await requireChangeRequests(app, project, name, requiredApprovals);
  return name;
}

type Reachable = 'Draft' | 'In review' | 'Approved';
type UpdateChangeRequestState = components['schemas']['UpdateChangeRequestState'];
type ChangeRequestChangesInput = components['schemas']['ChangeRequestChangesInput'];

/** Change-request calls in one project of the app `current()` returns (apps start in beforeAll, after this runs). */
export function changeRequestCalls(current: () => TestApp, project = 'default') {
  const base = `/api/admin/projects/${project}`;
  /** Proposes the changes as the user in the environment; the typed answer. */
  const propose = (user: TestUser, changes: ChangeRequestChangesInput, environment = 'production') =>
    clientAs(current(), user).POST('/api/admin/projects/{projectId}/environments/{environment}/change-requests', {
      params: { path: { projectId: project, environment } },
      body: changes,
    });
  /** For changes the types forbid (unknown actions, payloads of the wrong shape): the raw answer. */
  const proposeRaw = (user: TestUser, changes: unknown, environment = 'production') =>
    asUser(current(), user, 'POST', `${base}/environments/${environment}/change-requests`, changes);
  /** Moves the request to `state` as the user; the typed answer. */
  const moveTo = (user: TestUser, changeRequestId: number, state: UpdateChangeRequestState['state'], extra: Omit<UpdateChangeRequestState, 'state'> = {}) =>
    clientAs(current(), user).PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/state', {
      params: { path: { projectId: project, changeRequestId } },
      body: { state, ...extra },
    });
  /** The request as the admin reads it. */
  const read = (changeRequestId: number) =>
    ok(current().admin.GET('/api/admin/projects/{projectId}/change-requests/{changeRequestId}', { params: { path: { projectId: project, changeRequestId } } }), 200);

  /**
   * Proposes `changes` as `by` (a new Editor unless given, so that the draft is a new one) and moves the request on
   * to `state`: sent to review by its author, approved by `reviewer`. Answers the request as it then is.
   */
  async function requestIn(state: Reachable, changes: ChangeRequestChangesInput, people: { by?: TestUser; reviewer?: TestUser; environment?: string } = {}) {
    const by = people.by ?? (await author(current()));
    const proposed = await propose(by, changes, people.environment);
    expect(proposed.response.status, JSON.stringify(proposed.error)).toBe(200);
    const id = proposed.data!.id;
    const steps: [Reachable, TestUser | undefined][] = [['In review', by], ['Approved', people.reviewer]];
    for (const [next, user] of steps.slice(0, ['Draft', 'In review', 'Approved'].indexOf(state))) {
      if (!user) throw new Error(`requestIn('${state}') needs a reviewer`);
      const moved = await moveTo(user, id, next);
      expect(moved.response.status, JSON.stringify(moved.error)).toBe(200);
      expect(moved.data!.state).toBe(next);
    }
    return read(id);
  }

  return { base, propose, proposeRaw, moveTo, read, requestIn };
}
