// Change-request fixtures: the environment requiring them, and users to propose, approve and apply.
import { expect } from 'vitest';
import { call, type RawResponse, type TestApp } from './app.js';
import { adminJson } from './fixtures.js';
import { as, userWithSession, type TestUser } from './users.js';

/** Requires change requests in the project's environment (by admin token). */
export async function requireChangeRequests(app: TestApp, project: string, environment: string, requiredApprovals = 1) {
  const response = await call(app, 'PUT', `/api/admin/projects/${project}/environments/${environment}/change-requests/config`, {
    body: { changeRequestsEnabled: true, requiredApprovals },
  });
  expect(response.status, response.text).toBe(204);
}

let roleCounter = 0;

/** A Viewer who may approve and apply change requests in the project's environment, through a custom project role. */
export async function approver(app: TestApp, project: string, environment: string, permissions = ['APPROVE_CHANGE_REQUEST', 'APPLY_CHANGE_REQUEST']): Promise<TestUser> {
  const user = await userWithSession(app, 'Viewer', 'approver');
  const role = await adminJson(app, 'POST', '/api/admin/roles', {
    name: `Approver ${++roleCounter} ${Date.now()}`,
    type: 'custom',
    permissions: permissions.map((name) => ({ name, environment })),
  });
  await adminJson(app, 'POST', `/api/admin/projects/${project}/access`, { roles: [role.id], users: [user.id] });
  return user;
}

/** An Editor: works on flags of the default project, may not skip change requests. */
export const author = (app: TestApp) => userWithSession(app, 'Editor', 'author');

/** Calls as the user; answers the raw response. */
export const asUser = (app: TestApp, user: TestUser, method: string, path: string, body?: unknown): Promise<RawResponse> =>
  call(app, method, path, { ...as(user), ...(body !== undefined && { body: body as object }) });

/** A call as the user that must succeed; answers the JSON body. */
export async function asUserJson(app: TestApp, user: TestUser, method: string, path: string, body?: unknown): Promise<any> {
  const response = await asUser(app, user, method, path, body);
  expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
  return response.json;
}
