// SAML 2.0 sign-in against an identity provider built with samlify: the service's AuthnRequest read from its
// redirect, the provider's signed answer posted back as the provider's form would, and every answer the service
// must refuse refused for its own reason.
import { randomBytes } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { call, expectError, startTestApp, type RawResponse, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { ok } from './support/fixtures.js';
import { testIdentityProvider, type ResponseFaults, type SamlTestUser, type TestIdentityProvider } from './support/saml-idp.js';
import { sessionCookieOf } from './support/sessions.js';
import { clientAs } from './support/users.js';

type SetSamlSettings = components['schemas']['SetSamlSettings'];

const SETTINGS = '/api/admin/auth/saml/settings';
const FORM = 'application/x-www-form-urlencoded';

let app: TestApp;
let idp: TestIdentityProvider;
/** The service's SP metadata, as the provider is configured with it. */
let metadata: string;

beforeAll(async () => {
  app = await startTestApp({ publicUrlIsOwnAddress: true });
  idp = testIdentityProvider();
  const answer = await call(app, 'GET', '/auth/saml/metadata', { token: null });
  expect(answer.status).toBe(200);
  metadata = answer.text;
});

const unique = uniqueNames();
const newUser = (fields: Partial<SamlTestUser> = {}): SamlTestUser => {
  const handle = `${unique('saml')}-${randomBytes(3).toString('hex')}`;
  return { email: `${handle}@example.com`, name: `Person ${handle}`, ...fields };
};

const configure = (overrides: Partial<SetSamlSettings> = {}) =>
  ok(app.admin.POST(SETTINGS, { body: { enabled: true, entityId: idp.entityId, signOnUrl: idp.signOnUrl, certificate: idp.keys.certificate, autoCreate: true, ...overrides } }), 200);

/** GET /auth/saml/login; answers where it sends the browser. */
async function startSignIn(redirect?: string): Promise<string> {
  const query = redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`;
  const answer = await call(app, 'GET', `/auth/saml/login${query}`, { token: null });
  expect(answer.status, answer.text).toBe(302);
  return String(answer.headers.location);
}

const postResponse = (samlResponse: string) =>
  call(app, 'POST', '/auth/saml/callback', { token: null, body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '/' }).toString(), contentType: FORM });

/** A whole sign-in: the service's request, `provider`'s answer for `user`, posted back. */
async function signIn(user: SamlTestUser, faults: ResponseFaults = {}, { redirect, provider = idp }: { redirect?: string; provider?: TestIdentityProvider } = {}) {
  const { samlResponse, sessionIndex } = await provider.respond(metadata, await startSignIn(redirect), user, faults);
  return { answer: await postResponse(samlResponse), samlResponse, sessionIndex };
}

/** Asserts a sign-in went to `path` with a session; answers the session as a `cookie` header value. */
function signedIn(answer: RawResponse, path = '/'): string {
  expect(answer.status, answer.text).toBe(302);
  expect(answer.headers.location, String(answer.headers.location)).toBe(path);
  const cookie = sessionCookieOf(answer);
  expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{32,}$/);
  return `flag-session=${cookie!.value}`;
}

/** Asserts a refusal: to the sign-in page saying `reason`, no session. */
function expectRefused(answer: RawResponse, reason: RegExp) {
  expect(answer.status, answer.text).toBe(302);
  const location = new URL(String(answer.headers.location), app.url);
  expect(location.pathname).toBe('/signin');
  expect(location.searchParams.get('error')).toMatch(reason);
  expect(sessionCookieOf(answer)).toBeUndefined();
}

const currentUser = (cookie: string) => ok(clientAs(app, { cookie }).GET('/api/admin/user'), 200);

async function roleId(name: string): Promise<number> {
  const { roles } = await ok(app.admin.GET('/api/admin/roles'), 200);
  return roles.find((role) => role.name === name)!.id;
}

const NOT_SIGNED = /not signed with the certificate configured here/;
const NOT_OURS = /not to a sign-in begun here, or that sign-in is already finished/;

describe('signing in', () => {
  beforeEach(() => configure());

  it('creates the user at the first sign-in, with the name the provider sends and the default root role (Viewer)', async () => {
    const user = newUser();
    const cookie = signedIn((await signIn(user)).answer);
    const { user: created } = await currentUser(cookie);
    expect(created).toMatchObject({ email: user.email, name: user.name, rootRole: await roleId('Viewer') });
  });

  it('creates the user with the root role the settings name', async () => {
    await configure({ defaultRootRole: 'Editor' });
    const cookie = signedIn((await signIn(newUser())).answer);
    expect((await currentUser(cookie)).user.rootRole).toBe(await roleId('Editor'));
  });

  it('signs the same user in again at the second sign-in, without creating another', async () => {
    const user = newUser();
    const first = await currentUser(signedIn((await signIn(user)).answer));
    const second = await currentUser(signedIn((await signIn(user)).answer));
    expect(second.user.id).toBe(first.user.id);
    const { users } = await ok(app.admin.GET('/api/admin/user-admin'), 200);
    expect(users.filter((listed) => listed.email === user.email)).toHaveLength(1);
  });

  it('gives a session cookie the admin API accepts', async () => {
    const user = newUser();
    const cookie = signedIn((await signIn(user)).answer);
    const { response } = await clientAs(app, { cookie }).GET('/api/admin/projects');
    expect(response.status).toBe(200);
    expect((await currentUser(cookie)).user.email).toBe(user.email);
  });

  it('reads the email from the mail attribute, and the name from given name and surname', async () => {
    const user = newUser({ email: '', name: '' });
    const email = `${unique('mail')}@example.com`;
    const cookie = signedIn((await signIn({ ...user, nameID: 'opaque-id-1', attributes: { mail: email, givenName: 'Ada', surname: 'Lovelace' } })).answer);
    expect((await currentUser(cookie)).user).toMatchObject({ email, name: 'Ada Lovelace' });
  });

  it('takes the NameID as the email when no attribute carries one', async () => {
    const email = `${unique('name-id')}@example.com`;
    const cookie = signedIn((await signIn({ email: '', nameID: email })).answer);
    expect((await currentUser(cookie)).user.email).toBe(email);
  });

  it('refuses an answer that names no email at all', async () => {
    expectRefused((await signIn({ email: '', nameID: 'opaque-id-2' })).answer, /did not say your email address/);
  });

  it('accepts the certificate stored as its bare base64 body', async () => {
    await configure({ certificate: idp.keys.certificateBody });
    signedIn((await signIn(newUser())).answer);
  });

  it('goes back to the path the sign-in began for, query included', async () => {
    signedIn((await signIn(newUser(), {}, { redirect: '/projects/default?tab=flags' })).answer, '/projects/default?tab=flags');
  });

  it.each(['https://elsewhere.example/steal', '//elsewhere.example/steal', 'projects'])('goes to / instead of a redirect that is not a path of this service (%s)', async (redirect) => {
    signedIn((await signIn(newUser(), {}, { redirect })).answer, '/');
  });
});

describe('the accounts the settings allow', () => {
  it('refuses an unknown user while autoCreate is off, creating nobody', async () => {
    await configure({ autoCreate: false });
    const user = newUser();
    expectRefused((await signIn(user)).answer, /There is no account for .* here/);
    const { users } = await ok(app.admin.GET('/api/admin/user-admin'), 200);
    expect(users.some((listed) => listed.email === user.email)).toBe(false);
  });

  it('signs in a known user while autoCreate is off', async () => {
    const user = newUser();
    await configure();
    signedIn((await signIn(user)).answer);
    await configure({ autoCreate: false });
    signedIn((await signIn(user)).answer);
  });

  it('refuses to create a user of a domain emailDomains does not list', async () => {
    await configure({ emailDomains: 'example.org, example.net' });
    expectRefused((await signIn(newUser())).answer, /only for @example\.org, @example\.net addresses/);
  });

  it('creates a user of a domain emailDomains lists', async () => {
    await configure({ emailDomains: 'example.org,example.com' });
    signedIn((await signIn(newUser())).answer);
  });
});

describe('group syncing', () => {
  async function mappedGroup(mapping: string): Promise<number> {
    return (await ok(app.admin.POST('/api/admin/groups', { body: { name: unique('group'), mappingsSSO: [mapping] } }))).id;
  }
  const membersOf = async (groupId: number) =>
    (await ok(app.admin.GET('/api/admin/groups/{groupId}', { params: { path: { groupId } } }), 200)).users.map((member) => member.user.id);

  it('adds the user to the groups the provider names and removes them from those it no longer names', async () => {
    await configure({ enableGroupSyncing: true });
    const [alpha, beta] = [unique('sso-alpha'), unique('sso-beta')];
    const [alphaGroup, betaGroup] = [await mappedGroup(alpha), await mappedGroup(beta)];
    const user = newUser();

    const { user: signedInUser } = await currentUser(signedIn((await signIn({ ...user, groups: [alpha, 'not-mapped'] })).answer));
    expect(await membersOf(alphaGroup)).toEqual([signedInUser.id]);
    expect(await membersOf(betaGroup)).toEqual([]);

    signedIn((await signIn({ ...user, groups: [beta] })).answer);
    expect(await membersOf(alphaGroup)).toEqual([]);
    expect(await membersOf(betaGroup)).toEqual([signedInUser.id]);
  });

  it('reads the groups from the attribute groupJsonPath names', async () => {
    await configure({ enableGroupSyncing: true, groupJsonPath: 'memberOf' });
    const mapping = unique('sso-member-of');
    const group = await mappedGroup(mapping);
    const { user } = await currentUser(signedIn((await signIn({ ...newUser(), attributes: { memberOf: [mapping, 'other'] } })).answer));
    expect(await membersOf(group)).toEqual([user.id]);
  });

  it('leaves the memberships alone when the provider says nothing about groups', async () => {
    await configure({ enableGroupSyncing: true });
    const mapping = unique('sso-kept');
    const group = await mappedGroup(mapping);
    const user = newUser();
    const { user: signedInUser } = await currentUser(signedIn((await signIn({ ...user, groups: [mapping] })).answer));
    signedIn((await signIn(user)).answer);
    expect(await membersOf(group)).toEqual([signedInUser.id]);
  });
});

describe('answers the service refuses', () => {
  beforeEach(() => configure());

  it('refuses an answer with no signature', async () => {
    expectRefused((await signIn(newUser(), { unsigned: true })).answer, NOT_SIGNED);
  });

  it('refuses an answer whose response is signed but whose assertion is not', async () => {
    expectRefused((await signIn(newUser(), { assertionUnsigned: true })).answer, NOT_SIGNED);
  });

  it('refuses an answer signed by another key', async () => {
    const impostor = testIdentityProvider(idp.entityId);
    expectRefused((await signIn(newUser(), {}, { provider: impostor })).answer, NOT_SIGNED);
  });

  it('refuses an expired answer', async () => {
    expectRefused((await signIn(newUser(), { expired: true })).answer, /outside its validity period/);
  });

  it('refuses an answer meant for another service (audience)', async () => {
    expectRefused((await signIn(newUser(), { audience: 'https://another-service.example/saml' })).answer, /meant for another service/);
  });

  it('refuses an answer from another issuer, even signed with the configured key', async () => {
    const other = testIdentityProvider('https://other-idp.example/metadata', idp.keys);
    expectRefused((await signIn(newUser(), {}, { provider: other })).answer, /comes from "https:\/\/other-idp\.example\/metadata", not from the identity provider configured here/);
  });

  it('refuses an unsolicited answer (no InResponseTo)', async () => {
    expectRefused((await signIn(newUser(), { inResponseTo: null })).answer, NOT_OURS);
  });

  it('refuses an answer to a request the service never made', async () => {
    expectRefused((await signIn(newUser(), { inResponseTo: `_${randomBytes(20).toString('hex')}` })).answer, NOT_OURS);
  });

  it('refuses a replayed answer: the second post of the same response', async () => {
    const { answer, samlResponse } = await signIn(newUser());
    signedIn(answer);
    expectRefused(await postResponse(samlResponse), NOT_OURS);
  });

  it('signs in only once when the same answer is posted several times at once', async () => {
    const { samlResponse } = await idp.respond(metadata, await startSignIn(), newUser());
    const answers = await Promise.all(Array.from({ length: 8 }, () => postResponse(samlResponse)));
    expect(answers.filter((answer) => sessionCookieOf(answer) !== undefined)).toHaveLength(1);
    for (const refused of answers.filter((answer) => sessionCookieOf(answer) === undefined)) expectRefused(refused, /already/);
  });

  it('refuses a SAMLResponse that is not a SAML document, with a redirect rather than an error', async () => {
    expectRefused(await postResponse(Buffer.from('<not-saml/>').toString('base64')), /^The identity provider's answer/);
    expectRefused(await postResponse('not base64 at all %%%'), /^The identity provider's answer/);
  });

  it('logs one warning per refusal, with the reason and without the response', async () => {
    const before = app.logs.length;
    const { samlResponse, answer } = await signIn(newUser(), { expired: true });
    expectRefused(answer, /outside its validity period/);
    const lines = app.logs.slice(before).filter((line) => line.includes('SAML sign-in refused'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, reason: expect.stringMatching(/outside its validity period/) });
    expect(app.logs.slice(before).join('\n')).not.toContain(samlResponse.slice(0, 200));
  });

  it('answers 400 for a post without SAMLResponse', async () => {
    expectError(await call(app, 'POST', '/auth/saml/callback', { token: null, body: 'RelayState=%2F', contentType: FORM }), 400, 'ValidationError');
  });
});

describe('metadata', () => {
  it('names the entity id and the assertion consumer service, as SAML metadata', async () => {
    const answer = await call(app, 'GET', '/auth/saml/metadata', { token: null });
    expect(answer.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(answer.text).toContain(`entityID="${app.url}/auth/saml/metadata"`);
    expect(answer.text).toMatch(new RegExp(`<AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${app.url}/auth/saml/callback"`));
    expect(answer.text).toContain('WantAssertionsSigned="true"');
  });
});

describe('without settings', () => {
  beforeEach(async () => void (await ok(app.admin.DELETE(SETTINGS), 200)));

  it('answers GET /auth/saml/login with 404', async () => {
    expectError(await call(app, 'GET', '/auth/saml/login', { token: null }), 404, 'NotFoundError');
  });

  it('still serves the metadata', async () => {
    const answer = await call(app, 'GET', '/auth/saml/metadata', { token: null });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(`entityID="${app.url}/auth/saml/metadata"`);
  });

  it('refuses a posted answer', async () => {
    await configure();
    const location = await startSignIn();
    await ok(app.admin.DELETE(SETTINGS), 200);
    const { samlResponse } = await idp.respond(metadata, location, newUser());
    expectRefused(await postResponse(samlResponse), /not configured/);
  });
});

describe('signing out', () => {
  const logout = (cookie: string) => call(app, 'GET', '/logout', { token: null, headers: { cookie } });

  it('sends a SAML session to the signOutUrl with a LogoutRequest for its NameID and session, and ends the session', async () => {
    await configure({ signOutUrl: idp.signOutUrl });
    const user = newUser();
    const { answer, sessionIndex } = await signIn(user);
    const cookie = signedIn(answer);

    const out = await logout(cookie);
    expect(out.status).toBe(302);
    const location = String(out.headers.location);
    expect(location.startsWith(`${idp.signOutUrl}?`)).toBe(true);
    expect(new URL(location).searchParams.get('SAMLRequest')).toBeTruthy();
    expect(await idp.readLogoutRequest(metadata, location)).toEqual({ nameID: user.email, sessionIndex, issuer: `${app.url}/auth/saml/metadata` });
    expect((await clientAs(app, { cookie }).GET('/api/admin/user')).response.status).toBe(401);
  });

  it('sends a SAML session to /signin when the settings have no signOutUrl', async () => {
    await configure();
    const cookie = signedIn((await signIn(newUser())).answer);
    const out = await logout(cookie);
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe('/signin');
  });
});
