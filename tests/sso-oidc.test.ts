// OpenID Connect sign-in against a real OpenID provider (oidc-provider), configured through the admin API and
// driven through the provider's own login and consent pages.
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { call, expectError, startTestApp, type RawResponse, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { afterFile } from './support/file-end.js';
import { ok } from './support/fixtures.js';
import { signInWithOidc, startOidcProvider, TestBrowser, untilCallback, type SeenResponse, type TestOidcProvider } from './support/oidc-provider.js';

type SetOidcSettings = components['schemas']['SetOidcSettings'];

const SETTINGS = '/api/admin/auth/oidc/settings';

let app: TestApp;
let provider: TestOidcProvider;
beforeAll(async () => {
  app = await startTestApp({ publicUrlIsOwnAddress: true });
  provider = await startOidcProvider();
  provider.registerRedirect(app.url);
});

const unique = uniqueNames();

const configure = (overrides: Partial<SetOidcSettings> = {}, by: TestOidcProvider = provider) =>
  ok(
    app.admin.POST(SETTINGS, {
      body: {
        enabled: true,
        clientId: by.clientId,
        secret: by.clientSecret,
        discoverUrl: by.discoveryUrl,
        autoCreate: true,
        defaultRootRole: 'Editor',
        enableGroupSyncing: true,
        addGroupsScope: true,
        ...overrides,
      },
    }),
    200,
  );

/** A person the provider knows, whom this service has not seen. */
function newPerson(fields: { groups?: string[]; domain?: string } = {}, by: TestOidcProvider = provider) {
  const name = unique('person');
  const email = `${name}@${fields.domain ?? 'example.com'}`;
  by.addUser({ email, name: `Person ${name}`, ...(fields.groups && { groups: fields.groups }) });
  return email;
}

const signIn = (email: string, redirect?: string) => signInWithOidc(app.url, { email, ...(redirect !== undefined && { redirect }) });

async function usersEnvelope() {
  return ok(app.admin.GET('/api/admin/user-admin'), 200);
}

async function userWithEmail(email: string) {
  return (await usersEnvelope()).users.filter((user) => user.email?.toLowerCase() === email.toLowerCase());
}

/** The reason a refused sign-in's redirect to the sign-in page gives. */
function refusal(response: SeenResponse): string {
  expect(response.status, response.body).toBe(302);
  const location = new URL(response.location!);
  expect(`${location.origin}${location.pathname}`).toBe(`${app.url}/signin`);
  expect(response.setCookies.some((cookie) => cookie.startsWith('flag-session=') && !cookie.startsWith('flag-session=;'))).toBe(false);
  expect(response.setCookies).toContainEqual(expect.stringMatching(/^flag-sso-oidc=;.*Max-Age=0/));
  return location.searchParams.get('error')!;
}

const asSession = (cookie: string) => ({ token: null, headers: { cookie } });

describe('signing in', () => {
  beforeEach(() => configure());

  it('starts at the provider with PKCE (S256), state, nonce and the groups scope, binding the browser by a short-lived HttpOnly cookie', async () => {
    const response = await new TestBrowser().send(`${app.url}/auth/oidc/login`);
    expect(response.status).toBe(302);
    const location = new URL(response.location!);
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.issuer}/auth`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: provider.clientId,
      response_type: 'code',
      redirect_uri: `${app.url}/auth/oidc/callback`,
      scope: 'openid email profile groups',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      state: expect.stringMatching(/^[\w-]{20,}$/),
      nonce: expect.stringMatching(/^[\w-]{20,}$/),
    });
    const [cookie] = response.setCookies;
    expect(cookie).toMatch(/^flag-sso-oidc=[\w-]{40,};/);
    expect(cookie).toMatch(/; Max-Age=600(;|$)/);
    expect(cookie).toMatch(/; Path=\/auth\/oidc(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
  });

  it('creates the user at the first sign-in, with the settings\' default root role', async () => {
    const email = newPerson();
    const done = await signIn(email);
    expect(done.status, done.location).toBe(302);
    expect(done.location).toBe(`${app.url}/`);
    const [user, ...others] = await userWithEmail(email);
    expect(others).toEqual([]);
    const editor = (await usersEnvelope()).rootRoles.find((role) => role.name === 'Editor')!;
    expect(user).toMatchObject({ email, name: expect.stringMatching(/^Person /), rootRole: editor.id });
  });

  it('signs the same user in again at the second sign-in', async () => {
    const email = newPerson();
    await signIn(email);
    const [first] = await userWithEmail(email);
    const again = await signIn(email);
    expect(again.sessionCookie).toBeDefined();
    const self = await call(app, 'GET', '/api/admin/user', asSession(again.sessionCookie!));
    expect(self.json.user.id).toBe(first!.id);
    expect(await userWithEmail(email)).toHaveLength(1);
  });

  it('answers a session cookie that the admin API accepts as the user', async () => {
    const email = newPerson();
    const done = await signIn(email);
    expect(done.sessionCookie).toBeDefined();
    const self = await call(app, 'GET', '/api/admin/user', asSession(done.sessionCookie!));
    expect(self.status, self.text).toBe(200);
    expect(self.json.user.email).toBe(email);
    const projects = await call(app, 'GET', '/api/admin/projects', asSession(done.sessionCookie!));
    expect(projects.status, projects.text).toBe(200);
  });

  it('returns to the path the sign-in began with', async () => {
    const done = await signIn(newPerson(), '/projects/default?tab=flags');
    expect(done.location).toBe(`${app.url}/projects/default?tab=flags`);
    expect(done.sessionCookie).toBeDefined();
  });

  it.each(['//evil.example/path', 'https://evil.example/path'])('ignores a redirect to another site (%s) and returns to /', async (redirect) => {
    const done = await signIn(newPerson(), redirect);
    expect(done.location).toBe(`${app.url}/`);
    expect(done.sessionCookie).toBeDefined();
  });

  it('takes the email, name and groups from userinfo when the ID token does not carry them', async () => {
    const conforming = await startOidcProvider({ claimsInIdToken: false });
    conforming.registerRedirect(app.url);
    await configure({}, conforming);
    const group = await createGroup({ mappingsSSO: ['userinfo-readers'] });
    const email = newPerson({ groups: ['userinfo-readers'] }, conforming);
    const done = await signInWithOidc(app.url, { email });
    expect(done.sessionCookie).toBeDefined();
    const [user] = await userWithEmail(email);
    expect(user?.name).toMatch(/^Person /);
    expect(await memberIds(group)).toEqual([user!.id]);
  });

  it('accepts ID tokens signed with the algorithm the settings name', async () => {
    const rs384 = await startOidcProvider({ idTokenSigningAlg: 'RS384' });
    rs384.registerRedirect(app.url);
    await configure({ idTokenSigningAlgorithm: 'RS384' }, rs384);
    const done = await signInWithOidc(app.url, { email: newPerson({}, rs384) });
    expect(done.sessionCookie, done.location).toBeDefined();
  });
});

async function createGroup(fields: { mappingsSSO?: string[]; users?: number[] } = {}): Promise<number> {
  const created = await ok(
    app.admin.POST('/api/admin/groups', {
      body: { name: unique('group'), mappingsSSO: fields.mappingsSSO ?? [], users: (fields.users ?? []).map((id) => ({ user: { id } })) },
    }),
    201,
  );
  return created.id;
}

async function memberIds(groupId: number): Promise<number[]> {
  const group = await ok(app.admin.GET('/api/admin/groups/{groupId}', { params: { path: { groupId } } }), 200);
  return group.users.map((member) => member.user.id).sort((a, b) => a - b);
}

describe('group syncing', () => {
  beforeEach(() => configure());

  async function signedInUser(email: string): Promise<number> {
    const done = await signIn(email);
    expect(done.sessionCookie, done.location).toBeDefined();
    return (await userWithEmail(email))[0]!.id;
  }

  it('adds the user to the groups whose SSO mappings the groups claim names, and to no other', async () => {
    const named = await createGroup({ mappingsSSO: ['developers', 'staff'] });
    const other = await createGroup({ mappingsSSO: ['auditors'] });
    const userId = await signedInUser(newPerson({ groups: ['staff', 'unmapped'] }));
    expect(await memberIds(named)).toEqual([userId]);
    expect(await memberIds(other)).toEqual([]);
  });

  it('removes the user from a mapped group at a sign-in whose claim no longer names it', async () => {
    const group = await createGroup({ mappingsSSO: ['testers'] });
    const email = newPerson({ groups: ['testers'] });
    const userId = await signedInUser(email);
    expect(await memberIds(group)).toEqual([userId]);
    provider.setGroups(email, ['someone-else']);
    await signedInUser(email);
    expect(await memberIds(group)).toEqual([]);
  });

  it('leaves a group without mappings alone', async () => {
    const email = newPerson({ groups: [] });
    const userId = await signedInUser(email);
    const byHand = await createGroup({ users: [userId] });
    await signedInUser(email);
    expect(await memberIds(byHand)).toEqual([userId]);
  });

  it('leaves memberships alone when the provider says nothing about groups', async () => {
    const group = await createGroup({ mappingsSSO: ['reviewers'] });
    const email = newPerson({ groups: ['reviewers'] });
    const userId = await signedInUser(email);
    provider.setGroups(email, undefined);
    await signedInUser(email);
    expect(await memberIds(group)).toEqual([userId]);
  });

  it('reads the groups at the settings\' groupJsonPath', async () => {
    await configure({ groupJsonPath: 'email' });
    const email = newPerson({ groups: ['ignored'] });
    const group = await createGroup({ mappingsSSO: [email] });
    const userId = await signedInUser(email);
    expect(await memberIds(group)).toEqual([userId]);
  });
});

describe('refusals', () => {
  beforeEach(() => configure());

  it('refuses an unknown user when auto-create is off, saying so', async () => {
    await configure({ autoCreate: false });
    const email = newPerson();
    expect(refusal(await signIn(email))).toMatch(new RegExp(`no account for ${email.replace(/\./g, '\\.')}.*does not create accounts`, 'i'));
    expect(await userWithEmail(email)).toEqual([]);
  });

  it('refuses to create a user of a domain outside emailDomains', async () => {
    await configure({ emailDomains: 'example.org, @example.net' });
    const email = newPerson({ domain: 'example.com' });
    expect(refusal(await signIn(email))).toMatch(/only for @example\.org, @example\.net addresses/);
    expect(await userWithEmail(email)).toEqual([]);
  });

  it('creates a user of a domain within emailDomains', async () => {
    await configure({ emailDomains: 'example.org, example.net' });
    const email = newPerson({ domain: 'example.net' });
    expect((await signIn(email)).sessionCookie).toBeDefined();
    expect(await userWithEmail(email)).toHaveLength(1);
  });

  it('refuses a tampered state', async () => {
    const { callbackUrl, browser } = await untilCallback(app.url, { email: newPerson() });
    const url = new URL(callbackUrl);
    url.searchParams.set('state', `${url.searchParams.get('state')}x`);
    expect(refusal(await browser.send(url.toString()))).toMatch(/unknown, expired or already used/);
  });

  it('refuses a state used a second time', async () => {
    const { callbackUrl, browser } = await untilCallback(app.url, { email: newPerson() });
    const cookie = browser.cookieHeader(callbackUrl);
    const first = await browser.send(callbackUrl, { cookie });
    expect(first.location).toBe(`${app.url}/`);
    expect(refusal(await browser.send(callbackUrl, { cookie }))).toMatch(/unknown, expired or already used/);
  });

  it('refuses a callback without the cookie of the browser that began the sign-in', async () => {
    const { callbackUrl, browser } = await untilCallback(app.url, { email: newPerson() });
    expect(refusal(await browser.send(callbackUrl, { cookie: '' }))).toMatch(/begun in another browser/);
  });

  it('refuses a callback with another browser\'s cookie', async () => {
    const { callbackUrl, browser } = await untilCallback(app.url, { email: newPerson() });
    const other = await untilCallback(app.url, { email: newPerson() });
    const theirs = other.browser.cookieHeader(other.callbackUrl);
    expect(refusal(await browser.send(callbackUrl, { cookie: theirs }))).toMatch(/begun in another browser/);
  });

  it('refuses with the provider\'s own description when the provider answers an error', async () => {
    const { callbackUrl, browser } = await untilCallback(app.url, { email: newPerson(), cancel: true });
    expect(new URL(callbackUrl).searchParams.get('error')).toBe('access_denied');
    expect(refusal(await browser.send(callbackUrl))).toBe('The identity provider refused the sign-in: End-User aborted interaction.');
  });

  it('refuses an ID token signed with another algorithm than the settings name, logging why', async () => {
    await configure({ idTokenSigningAlgorithm: 'RS512' });
    expect(refusal(await signIn(newPerson()))).toMatch(/answer could not be verified/);
    const logged = app.logs.filter((line) => line.includes('OpenID Connect sign-in refused')).at(-1);
    expect(JSON.parse(logged!).error).toMatch(/"alg"/);
  });

  it('refuses an ID token without the acr that the settings ask for', async () => {
    await configure({ acrValues: 'urn:example:loa:high' });
    expect(refusal(await signIn(newPerson()))).toMatch(/authentication level .*urn:example:loa:high/);
  });
});

describe('with secure cookies', () => {
  it('marks the browser cookie Secure when cookies are secure', async () => {
    const secure = await startTestApp({ publicUrlIsOwnAddress: true, secureCookies: true, ownDatabase: true });
    await ok(secure.admin.POST(SETTINGS, { body: { enabled: true, clientId: provider.clientId, secret: provider.clientSecret, discoverUrl: provider.discoveryUrl } }), 200);
    const started = await call(secure, 'GET', '/auth/oidc/login', { token: null });
    expect(started.status).toBe(302);
    expect(started.headers['set-cookie']).toMatch(/^flag-sso-oidc=.*; Secure(;|$)/);
  });
});

/** The sign-in page, saying the provider could not be reached; no sign-in begun (no binding cookie). */
function expectUnreachable(answer: RawResponse) {
  expect(answer.status).toBe(302);
  const location = new URL(String(answer.headers.location), 'http://service');
  expect(location.pathname).toBe('/signin');
  expect(location.searchParams.get('error')).toContain('could not be reached');
  expect(answer.headers['set-cookie']).toBeUndefined();
}

describe('starting without a usable provider', () => {
  it('answers 404 without settings', async () => {
    await ok(app.admin.DELETE(SETTINGS), 200);
    expectError(await call(app, 'GET', '/auth/oidc/login', { token: null }), 404, 'NotFoundError');
  });

  it('sends the browser to the sign-in page, saying why, when the discovery URL cannot be reached', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    await configure({ discoverUrl: `http://127.0.0.1:${closedPort}/.well-known/openid-configuration` });
    expectUnreachable(await call(app, 'GET', '/auth/oidc/login', { token: null }));
  });
});

describe('discovery', () => {
  /** A discovery URL that answers 503 while `failing`, else the provider's own document; `served` counts documents. */
  async function flakyDiscovery() {
    const state = { failing: true, served: 0 };
    const server = createHttpServer(async (_request, response) => {
      if (state.failing) return void response.writeHead(503).end();
      state.served++;
      response.writeHead(200, { 'content-type': 'application/json' }).end(await (await fetch(provider.discoveryUrl)).text());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    afterFile(() => new Promise((resolve) => server.close(resolve)));
    return { state, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/.well-known/openid-configuration` };
  }

  it('does not keep a failed discovery, and keeps a successful one', async () => {
    const discovery = await flakyDiscovery();
    await configure({ discoverUrl: discovery.url });
    expectUnreachable(await call(app, 'GET', '/auth/oidc/login', { token: null }));
    discovery.state.failing = false;
    expect((await call(app, 'GET', '/auth/oidc/login', { token: null })).headers.location).toMatch(`${provider.issuer}/auth?`);
    discovery.state.failing = true;
    expect((await call(app, 'GET', '/auth/oidc/login', { token: null })).headers.location).toMatch(`${provider.issuer}/auth?`);
    expect(discovery.state.served).toBe(1);
  });
});

describe('signing out', () => {
  it('sends an OpenID Connect session to the provider\'s end-session endpoint with its ID token when single sign-out is on', async () => {
    await configure({ enableSingleSignOut: true });
    const email = newPerson();
    const done = await signIn(email);
    const out = await done.browser.send(`${app.url}/logout`);
    expect(out.status).toBe(302);
    const location = new URL(out.location!);
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(location.searchParams.get('post_logout_redirect_uri')).toBe(`${app.url}/signin`);
    const hint = JSON.parse(Buffer.from(location.searchParams.get('id_token_hint')!.split('.')[1]!, 'base64url').toString());
    expect(hint).toMatchObject({ iss: provider.issuer, aud: provider.clientId, sub: email });
    const atProvider = await done.browser.send(location.toString());
    expect(atProvider.status, atProvider.body).toBe(200);
    expect((await call(app, 'GET', '/api/admin/user', asSession(done.sessionCookie!))).status).toBe(401);
  });

  it('sends an OpenID Connect session to /signin when single sign-out is off', async () => {
    await configure({ enableSingleSignOut: false });
    const done = await signIn(newPerson());
    const out = await done.browser.send(`${app.url}/logout`);
    expect(out.location).toBe(`${app.url}/signin`);
  });
});

describe('the client secret', () => {
  it('appears in no answer, header, log line or event of a sign-in, a refusal and a sign-out', async () => {
    const answers: SeenResponse[] = [];
    const saved = await call(app, 'POST', SETTINGS, {
      body: { enabled: true, clientId: provider.clientId, secret: provider.clientSecret, discoverUrl: provider.discoveryUrl, autoCreate: false, enableSingleSignOut: true },
    });
    expect(saved.status).toBe(200);
    const known = newPerson();
    await ok(app.admin.POST('/api/admin/user-admin', { body: { email: known, rootRole: 2 } }), 201);
    const done = await signIn(known);
    expect(done.sessionCookie).toBeDefined();
    await done.browser.send(`${app.url}/logout`);
    const refused = await signIn(newPerson());
    expect(refused.location).toMatch(/\/signin\?error=/);
    answers.push(...done.browser.seen, ...refused.browser.seen);
    const texts = [
      saved.text,
      JSON.stringify(saved.headers),
      ...answers.flatMap((answer) => [answer.body, JSON.stringify(answer.headers)]),
      ...app.logs,
      (await call(app, 'GET', '/api/admin/events')).text,
    ];
    for (const text of texts) expect(text).not.toContain(provider.clientSecret);
  });
});
