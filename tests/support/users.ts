// Users, their sessions and what they do, made through the API: the admin creates them, they log in.
import { expect } from 'vitest';
import { createClient, type components } from '../../client/index.js';
import type { TestApp } from './app.js';

type RootRoleRef = components['schemas']['RootRoleRef'];
type SignUp = components['schemas']['SignUp'];

export const USER_PASSWORD = 'Correct-Horse-42';

export interface TestUser {
  id: number;
  email: string;
  /** A `cookie` header value carrying the user's session. */
  cookie: string;
}

let counter = 0;

/** Creates a user with the root role (by admin token) and logs them in. */
export async function userWithSession(app: TestApp, rootRole: RootRoleRef, prefix = 'user'): Promise<TestUser> {
  const email = `${prefix}-${++counter}-${Date.now()}@example.com`;
  const { data, error, response } = await app.admin.POST('/api/admin/user-admin', { body: { email, password: USER_PASSWORD, rootRole } });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return { id: data!.id, email, cookie: await sessionOf(app, email) };
}

/** Creates a user who signs in as `username` with USER_PASSWORD (by admin token); answers its id. */
export async function createUser(app: TestApp, fields: { username: string; rootRole: RootRoleRef; name?: string }): Promise<number> {
  const { data, error, response } = await app.admin.POST('/api/admin/user-admin', { body: { password: USER_PASSWORD, ...fields } });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!.id;
}

/** Logs in without a token; the typed answer, its session cookie in `response`. */
export const login = (app: TestApp, username: string, password = USER_PASSWORD) =>
  app.clientWith().POST('/auth/simple/login', { body: { username, password } });

/** Logs in and answers the session cookie as a `cookie` header value. */
export async function sessionOf(app: TestApp, username: string, password = USER_PASSWORD): Promise<string> {
  const { error, response } = await login(app, username, password);
  expect(response.status, JSON.stringify(error)).toBe(200);
  return response.headers.getSetCookie()[0]!.split(';')[0]!;
}

/**
 * A name, an email and a username that no other test of the file uses (named with the file's `unique`),
 * with USER_PASSWORD; `fields` adds to them or replaces them.
 */
export function newcomer<Fields extends object = {}>(unique: (prefix: string) => string, fields: Fields = {} as Fields, prefix = 'person') {
  const username = unique(prefix);
  return { name: `Person ${username}`, email: `${username}@example.com`, username, password: USER_PASSWORD, ...fields };
}

/** Creates an account with a public signup token, as anyone (no credential); the typed answer. */
export const signUp = (app: TestApp, secret: string, body: SignUp) =>
  app.clientWith().POST('/invite/{token}/signup', { params: { path: { token: secret } }, body });

/** Options for `call` that act as the user's session. */
export const as = (user: TestUser) => ({ token: null, headers: { cookie: user.cookie } });

/** A typed client acting as the user's session (no token). */
export const clientAs = (app: TestApp, user: Pick<TestUser, 'cookie'>) => createClient(app.url, { headers: { cookie: user.cookie } });

/** Gives the user exactly these roles in the project (by admin token); the typed answer. */
export const setProjectRoles = (app: TestApp, projectId: string, userId: number, roles: number[]) =>
  app.admin.PUT('/api/admin/projects/{projectId}/users/{userId}/roles', { params: { path: { projectId, userId } }, body: { roles } });

/** Gives users or groups roles in the project, as the client (the admin's by default); the typed answer. */
export const addProjectAccess = (app: TestApp, projectId: string, body: components['schemas']['AddProjectAccess'], client = app.admin) =>
  client.POST('/api/admin/projects/{projectId}/access', { params: { path: { projectId } }, body });

/** Who holds which roles in the project, as the admin reads it (which must answer 200). */
export async function projectAccess(app: TestApp, projectId: string) {
  const { data, error, response } = await app.admin.GET('/api/admin/projects/{projectId}/access', { params: { path: { projectId } } });
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!;
}

/** Tries to create a flag named `name` in the project as the user; the typed answer. */
export const createFlagAs = (app: TestApp, user: TestUser, projectId: string, name: string) =>
  clientAs(app, user).POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId } }, body: { name } });
