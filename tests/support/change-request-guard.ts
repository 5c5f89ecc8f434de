// Fixtures for the change-request guard's tests: flags whose state SDKs in production see, and the guard's refusal.
import { expect } from 'vitest';
import { ROLE } from '../../db/default-permissions.js';
import { call, expectError, type RawResponse, type TestApp } from './app.js';
import { adminJson, fixtures } from './fixtures.js';
import type { TestUser } from './users.js';

/** Expects the 409 that names the project's environment requiring change requests. */
export function expectRequired(response: RawResponse, project = 'default', environment = 'production') {
  const error = expectError(response, 409, 'ConflictError');
  expect(error.message).toContain(`The environment "${environment}" of the project "${project}" requires change requests`);
}

/** Flags and people of the app `current()` returns (apps start in beforeAll, after this runs), made as the admin. */
export function guardFixtures(current: () => TestApp, unique: (prefix: string) => string) {
  const { newFlag } = fixtures(current, unique);

  /** What an SDK with the client token gets, byte for byte. */
  const clientFeatures = async (token: string) => (await call(current(), 'GET', '/api/client/features', { token })).text;

  const makeOwner = (project: string, user: TestUser) =>
    adminJson(current(), 'POST', `/api/admin/projects/${project}/access`, { roles: [ROLE.Owner], users: [user.id] });

  async function onInProduction(prefix: string, project = 'default') {
    const flag = await newFlag(prefix, project);
    await adminJson(current(), 'POST', `/api/admin/projects/${project}/features/${flag}/environments/production/on`);
    return flag;
  }

  /** A parent off in production and a child on there that is on only while its parent is off; answers the parent. */
  async function parentOfChildOn(prefix: string) {
    const parent = await newFlag(`${prefix}-parent`);
    const child = await onInProduction(`${prefix}-child`);
    await adminJson(current(), 'POST', `/api/admin/projects/default/features/${child}/dependencies`, { feature: parent, enabled: false });
    return parent;
  }

  return { clientFeatures, makeOwner, onInProduction, parentOfChildOn };
}
