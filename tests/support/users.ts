import { expect } from 'vitest';
import { createClient } from '../../client/index.js';
import { call, type TestApp } from './app.js';

export const USER_PASSWORD = 'Correct-Horse-42';

export interface TestUser {
  id: number;
  email: string;
  /** A `cookie` header value carrying the user's session. */
  cookie: string;
}

let counter = 0;

/** Creates a user with the root role (by admin token) and logs them in. */
export async function userWithSession(app: TestApp, rootRole: string | number, prefix = 'user'): Promise<TestUser> {
  const email = `${prefix}-${++counter}-${Date.now()}@example.com`;
  const created = await call(app, 'POST', '/api/admin/user-admin', { body: { email, password: USER_PASSWORD, rootRole } });
  expect(created.status, created.text).toBe(201);
  return { id: created.json.id, email, cookie: await sessionOf(app, email) };
}

/** Creates a user who signs in as `username` with USER_PASSWORD (by admin token); answers its id. */
export async function createUser(app: TestApp, fields: { username: string; rootRole: string | number; name?: string }): Promise<number> {
  const created = await call(app, 'POST', '/api/admin/user-admin', { body: { password: USER_PASSWORD, ...fields } });
  expect(created.status, created.text).toBe(201);
  return created.json.id;
}

/** Logs in and answers the session cookie as a `cookie` header value. */
export async function sessionOf(app: TestApp, username: string, password = USER_PASSWORD): Promise<string> {
  const login = await call(app, 'POST', '/auth/simple/login', { token: null, body: { username, password } });
  expect(login.status, login.text).toBe(200);
  const setCookie = [login.headers['set-cookie']].flat()[0]!;
  return setCookie.split(';')[0]!;
}

/** Options for `call` that act as the user's session. */
export const as = (user: TestUser) => ({ token: null, headers: { cookie: user.cookie } });

/** A typed client acting as the user's session (no token). */
export const clientAs = (app: TestApp, user: Pick<TestUser, 'cookie'>) => createClient(app.url, { headers: { cookie: user.cookie } });
