// Fixtures for the change-request guard's tests: flags whose state SDKs in production see, and the guard's refusal.
import { expect } from 'vitest';
import { ROLE } from '../../db/default-permissions.js';
import { expectError, type RawResponse, type TestApp } from './app.js';
import { fixtures, ok } from './fixtures.js';
import { addProjectAccess, type TestUser } from './users.js';

/** Expects the 409 that names the project's environment requiring change requests. */
export function expectRequired(response: RawResponse | { response: Response; error?: unknown }, project = 'default', environment = 'production') {
  const error = expectError(response, 409, 'ConflictError');
  expect(error.message).toContain(`The environment "${environment}" of the project "${project}" requires change requests`);
}

/**
 * Flags and people of the app `current()` returns (apps start in beforeAll, after this runs), made as the admin;
 * `productionToken()` is the file's client token for production.
 */
export function guardFixtures(current: () => TestApp, unique: (prefix: string) => string, productionToken: () => string = () => { throw new Error('guardFixtures was given no production token'); }) {
  const { newFlag, turnOn, addDependency } = fixtures(current, unique);

  /** What an SDK with the client token gets, byte for byte. */
  const clientFeatures = async (token: string) =>
    (await current().clientWith(token).GET('/api/client/features', { parseAs: 'text' })).data!;

  /** What an SDK in production gets, byte for byte. */
  const productionFeatures = () => clientFeatures(productionToken());

  const makeOwner = (projectId: string, user: TestUser) => ok(addProjectAccess(current(), projectId, { roles: [ROLE.Owner], users: [user.id] }));

  async function onInProduction(prefix: string, project = 'default') {
    const flag = await newFlag(prefix, project);
    await turnOn(flag, 'production', project);
    return flag;
  }

  /** A parent off in production and a child on there that is on only while its parent is off; answers the parent. */
  async function parentOfChildOn(prefix: string) {
    const parent = await newFlag(`${prefix}-parent`);
    const child = await onInProduction(`${prefix}-child`);
    await addDependency(child, parent, false);
    return parent;
  }

  return { productionFeatures, makeOwner, onInProduction, parentOfChildOn };
}
