// The session cookie is Secure when the login came over HTTPS as a trusted proxy says (TRUST_PROXY), or always with
// SECURE_COOKIES; X-Forwarded-Proto from a client that is no trusted proxy changes nothing (without TRUST_PROXY: in
// login.test.ts).
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../kernel/config.js';
import { startTestApp, type TestApp } from './support/app.js';
import { sessionCookieOf } from './support/sessions.js';
import { createUser, USER_PASSWORD } from './support/users.js';

const USERNAME = 'cookie-person';
/** The proxy's address: connections from it are trusted; the tests' usual 127.0.0.1 is not. */
const PROXY_ADDRESS = '127.0.0.2';
const fromProxy = new Agent({ localAddress: PROXY_ADDRESS });
afterAll(() => fromProxy.close());

let trusting: TestApp;
let forced: TestApp;

beforeAll(async () => {
  // One after the other: starts at once can outlast a plugin's start timeout on a busy machine.
  trusting = await startTestApp({ trustProxy: ['10.0.0.0/8', PROXY_ADDRESS] });
  forced = await startTestApp({ secureCookies: true, ownDatabase: true });
  await Promise.all([trusting, forced].map((app) => createUser(app, { username: USERNAME, rootRole: 'Viewer' })));
});

interface Sent {
  /** X-Forwarded-Proto, when sent. */
  proto?: string;
  /** Whether the connection comes from the trusted proxy's address. */
  viaProxy?: boolean;
}

async function sessionCookieFrom(app: TestApp, path: '/auth/simple/login' | '/logout', { proto, viaProxy = false }: Sent = {}) {
  const login = path === '/auth/simple/login';
  const response = await request(`${app.url}${path}`, {
    method: 'POST',
    headers: { ...(login && { 'content-type': 'application/json' }), ...(proto && { 'x-forwarded-proto': proto }) },
    ...(login && { body: JSON.stringify({ username: USERNAME, password: USER_PASSWORD }) }),
    ...(viaProxy && { dispatcher: fromProxy }),
  });
  const text = await response.body.text();
  expect(response.statusCode, text).toBe(200);
  return sessionCookieOf({ status: response.statusCode, headers: response.headers, text, json: undefined })!;
}

const loginCookie = (app: TestApp, sent?: Sent) => sessionCookieFrom(app, '/auth/simple/login', sent);
const logoutCookie = (app: TestApp, sent?: Sent) => sessionCookieFrom(app, '/logout', sent);

describe('the session cookie', () => {
  it('is not Secure over plain HTTP, from a trusted proxy or not', async () => {
    expect((await loginCookie(trusting)).attributes.secure).toBeUndefined();
    expect((await loginCookie(trusting, { viaProxy: true })).attributes.secure).toBeUndefined();
    expect((await loginCookie(trusting, { viaProxy: true, proto: 'http' })).attributes.secure).toBeUndefined();
  });

  it('is Secure, when set and when cleared, when a trusted proxy says the request came over HTTPS', async () => {
    const cookie = await loginCookie(trusting, { viaProxy: true, proto: 'https' });
    expect(cookie.attributes.secure).toBe(true);
    expect(cookie.attributes.httponly).toBe(true);
    expect((await logoutCookie(trusting, { viaProxy: true, proto: 'https' })).attributes.secure).toBe(true);
  });

  it('follows the proxy nearest the service when proxies are chained', async () => {
    expect((await loginCookie(trusting, { viaProxy: true, proto: 'http, https' })).attributes.secure).toBe(true);
    expect((await loginCookie(trusting, { viaProxy: true, proto: 'https, http' })).attributes.secure).toBeUndefined();
  });

  it('is not Secure for X-Forwarded-Proto from a client that is not among the trusted proxies', async () => {
    expect((await loginCookie(trusting, { proto: 'https' })).attributes.secure).toBeUndefined();
    expect((await logoutCookie(trusting, { proto: 'https' })).attributes.secure).toBeUndefined();
  });

  it('is always Secure with SECURE_COOKIES, set and cleared, even over plain HTTP', async () => {
    expect((await loginCookie(forced)).attributes.secure).toBe(true);
    expect((await logoutCookie(forced)).attributes.secure).toBe(true);
  });
});

describe('TRUST_PROXY and SECURE_COOKIES', () => {
  it('trust no proxy and leave cookies to the protocol by default', () => {
    expect(configFromEnv({})).toMatchObject({ trustProxy: false, secureCookies: false });
    expect(configFromEnv({ TRUST_PROXY: 'false', SECURE_COOKIES: 'false' })).toMatchObject({ trustProxy: false, secureCookies: false });
  });

  it('read true, or proxy addresses and CIDR ranges, and SECURE_COOKIES=true', () => {
    expect(configFromEnv({ TRUST_PROXY: 'true', SECURE_COOKIES: 'true' })).toMatchObject({ trustProxy: true, secureCookies: true });
    expect(configFromEnv({ TRUST_PROXY: ' 10.0.0.0/8, 192.0.2.7 ,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuse a hop count and anything that is no address, naming the setting', () => {
    expect(() => configFromEnv({ TRUST_PROXY: '1' })).toThrow(/^TRUST_PROXY must be .*got "1"/);
    expect(() => configFromEnv({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/^TRUST_PROXY must be .*got "10\.0\.0\.0\/33"/);
    expect(() => configFromEnv({ TRUST_PROXY: 'proxy.internal' })).toThrow(/^TRUST_PROXY must be .*got "proxy\.internal"/);
    expect(() => configFromEnv({ SECURE_COOKIES: 'yes' })).toThrow('SECURE_COOKIES must be true or false, got "yes"');
  });
});
