// Sessions and personal access tokens, made through the API, with every answer recorded so that a test can
// show that no password, session secret or token secret is shown where it should not be.
import { expect } from 'vitest';
import type { components } from '../../client/index.js';
import { call, type RawResponse, type TestApp } from './app.js';
import { as, USER_PASSWORD, type TestUser } from './users.js';

type User = components['schemas']['User'];
type PersonalAccessToken = components['schemas']['PersonalAccessToken'];
type PersonalAccessTokenWithSecret = components['schemas']['PersonalAccessTokenWithSecret'];
type CallOptions = Parameters<typeof call>[3];

export const FAR_FUTURE = new Date(Date.UTC(2099, 0, 1)).toISOString();

export interface SessionCookie {
  value: string;
  /** Attribute names lower-cased, values as sent (`true` for flags such as HttpOnly). */
  attributes: Record<string, string | true>;
}

export function sessionCookieOf(response: RawResponse): SessionCookie | undefined {
  const header = [response.headers['set-cookie'] ?? []].flat().find((cookie) => cookie.startsWith('flag-session='));
  if (!header) return undefined;
  const [pair, ...rest] = header.split(';').map((part) => part.trim());
  const attributes: SessionCookie['attributes'] = {};
  for (const attribute of rest) {
    const at = attribute.indexOf('=');
    if (at < 0) attributes[attribute.toLowerCase()] = true;
    else attributes[attribute.slice(0, at).toLowerCase()] = attribute.slice(at + 1);
  }
  return { value: pair!.slice('flag-session='.length), attributes };
}

export interface Account extends TestUser {
  username: string;
  name: string;
}

interface Answer {
  request: string;
  text: string;
}

export const withPat = (secret: string) => ({ token: secret });

/**
 * Calls on the app `current()` returns (or another `target`) that remember every answer and the secrets
 * handed out in them; `expectNoSecretShown` then checks all of them and the given log lines.
 */
export function recordedSessions(current: () => TestApp, unique: (prefix: string) => string) {
  const answers: Answer[] = [];
  const sessionSecrets = new Set<string>();
  /** Each personal access token secret, with the one answer allowed to show it: the one that created it. */
  const patSecrets = new Map<string, Answer>();

  // Raw: every answer's text is kept as sent, refused ones too, to show that none holds a secret.
  async function send(target: TestApp, method: string, path: string, options: CallOptions = {}): Promise<RawResponse> {
    const response = await call(target, method, path, options);
    const answer = { request: `${method} ${path}`, text: response.text };
    answers.push(answer);
    const cookie = sessionCookieOf(response);
    if (cookie?.value) sessionSecrets.add(cookie.value);
    if (method === 'POST' && path === '/api/admin/user/tokens' && response.status === 201) patSecrets.set(response.json.secret, answer);
    return response;
  }

  const login = (username: string, password = USER_PASSWORD, target = current()) =>
    send(target, 'POST', '/auth/simple/login', { token: null, body: { username, password } });

  /** Logs in and answers the session as a `cookie` header value. */
  async function sessionOf(username: string, target = current()): Promise<string> {
    const response = await login(username, USER_PASSWORD, target);
    expect(response.status, response.text).toBe(200);
    return `flag-session=${sessionCookieOf(response)!.value}`;
  }

  /** Creates a user with a name, an email and a username (by admin token) and logs them in by email. */
  async function newUser(rootRole: string, target = current(), fields: { password?: string | null } = {}): Promise<Account> {
    const username = unique('person');
    const email = `${username}@example.com`;
    const name = `Person ${username}`;
    const password = fields.password === undefined ? USER_PASSWORD : fields.password;
    const created = await send(target, 'POST', '/api/admin/user-admin', {
      body: { name, email, username, rootRole, ...(password !== null && { password }) },
    });
    expect(created.status, created.text).toBe(201);
    const cookie = password === null ? '' : await sessionOf(email, target);
    return { id: created.json.id, email, username, name, cookie };
  }

  async function userById(id: number, target = current()): Promise<User> {
    const response = await send(target, 'GET', `/api/admin/user-admin/${id}`);
    expect(response.status, response.text).toBe(200);
    return response.json;
  }

  async function createPat(user: TestUser, description = unique('pat')): Promise<PersonalAccessTokenWithSecret> {
    const response = await send(current(), 'POST', '/api/admin/user/tokens', { ...as(user), body: { description, expiresAt: FAR_FUTURE } });
    expect(response.status, response.text).toBe(201);
    return response.json;
  }

  async function patsOf(user: TestUser): Promise<PersonalAccessToken[]> {
    const response = await send(current(), 'GET', '/api/admin/user/tokens', as(user));
    expect(response.status, response.text).toBe(200);
    return response.json.pats;
  }

  const createFlag = (options: CallOptions) => send(current(), 'POST', '/api/admin/projects/default/features', { ...options, body: { name: unique('flag') } });
  const listProjects = (options: CallOptions, target = current()) => send(target, 'GET', '/api/admin/projects', options);

  /** No answer and no log line shows a password, a hash, a session secret, or a token secret outside the answer that created it. */
  function expectNoSecretShown(logs: string[], passwords: string[]) {
    const texts: [string, string, Answer | undefined][] = [
      ...answers.map((answer): [string, string, Answer] => [answer.request, answer.text, answer]),
      ...logs.map((line): [string, string, undefined] => ['log line', line, undefined]),
    ];
    for (const [where, text, answer] of texts) {
      for (const password of passwords) expect(text, where).not.toContain(password);
      expect(text, where).not.toContain('scrypt$');
      for (const secret of sessionSecrets) expect(text, where).not.toContain(secret);
      for (const [secret, createdIn] of patSecrets) if (answer !== createdIn) expect(text, where).not.toContain(secret);
    }
  }

  return { send, login, sessionOf, newUser, userById, createPat, patsOf, createFlag, listProjects, expectNoSecretShown, sessionSecrets, patSecrets };
}
