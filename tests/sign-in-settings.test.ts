// The SAML settings, the password form's switch, and what the sign-in page is told it may offer.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader } from './support/events.js';
import { ok } from './support/fixtures.js';
import { clientAs, createUser, login, userWithSession } from './support/users.js';

type SetSamlSettings = components['schemas']['SetSamlSettings'];

const SAML = '/api/admin/auth/saml/settings';
const OIDC = '/api/admin/auth/oidc/settings';
const PASSWORD = '/api/admin/auth/simple/settings';
const ADMIN = 1;
const EDITOR = 2;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const { latestEventId, eventsSince } = eventReader(() => app);

const samlSettings = (overrides: Partial<SetSamlSettings> = {}): SetSamlSettings => ({
  enabled: true,
  entityId: 'https://idp.example.com/metadata',
  signOnUrl: 'https://idp.example.com/sso',
  certificate: 'MIIC8DCCAdigAwIBAgIQTestCertificateBody',
  ...overrides,
});
const saveSaml = (body: SetSamlSettings) => ok(app.admin.POST(SAML, { body }), 200);
const saveOidc = () =>
  ok(app.admin.POST(OIDC, { body: { enabled: true, clientId: 'flags', secret: 'not-shown-anywhere', discoverUrl: 'https://login.example.com/.well-known/openid-configuration' } }), 200);
const setPasswordDisabled = (disabled: boolean) => app.admin.POST(PASSWORD, { body: { disabled } });
const signInOptions = () => ok(app.clientWith().GET('/auth/options'), 200);

beforeEach(async () => {
  await ok(setPasswordDisabled(false), 200);
  await ok(app.admin.DELETE(SAML), 200);
  await ok(app.admin.DELETE(OIDC), 200);
});

describe('the SAML settings', () => {
  it('are an empty object while none are stored', async () => {
    expect(await ok(app.admin.GET(SAML), 200)).toEqual({});
  });

  it('are answered as stored, certificate included (it is public)', async () => {
    const sent = samlSettings({ signOutUrl: 'https://idp.example.com/slo', autoCreate: true, defaultRootRole: 'Editor', emailDomains: 'example.com', enableGroupSyncing: true, groupJsonPath: 'memberOf', displayName: 'Okta' });
    expect(await saveSaml(sent)).toEqual(sent);
    expect(await ok(app.admin.GET(SAML), 200)).toEqual(sent);
  });

  it('record setting-created the first time and setting-updated after, with what changed', async () => {
    const since = await latestEventId();
    await saveSaml(samlSettings());
    await saveSaml(samlSettings({ signOnUrl: 'https://idp.example.com/other' }));
    const [created, updated] = await eventsSince(since);
    expect(created).toMatchObject({ type: 'setting-created', data: { id: 'unleash.enterprise.auth.saml', signOnUrl: 'https://idp.example.com/sso' } });
    expect(updated).toMatchObject({ type: 'setting-updated', data: { signOnUrl: 'https://idp.example.com/other' }, preData: { signOnUrl: 'https://idp.example.com/sso' } });
  });

  it('name the root role that defaultRootRoleId names', async () => {
    expect((await saveSaml(samlSettings({ defaultRootRoleId: EDITOR }))).defaultRootRole).toBe('Editor');
  });

  it('refuse a defaultRootRoleId that is not a root role, naming the field', async () => {
    const answer = await call(app, 'POST', SAML, { body: samlSettings({ defaultRootRoleId: 4 }) });
    expect(expectError(answer, 400, 'ValidationError').message).toContain('defaultRootRoleId');
  });

  it.each([
    ['enabled false', { enabled: false }, 'enabled'],
    ['a sign-on URL that is not a URL', { signOnUrl: 'idp sso' }, 'signOnUrl'],
    ['an empty certificate', { certificate: '' }, 'certificate'],
  ])('refuse %s, naming the field', async (_case, overrides, field) => {
    const answer = await call(app, 'POST', SAML, { body: { ...samlSettings(), ...overrides } });
    expect(expectError(answer, 400, 'ValidationError').message).toContain(field);
  });

  it('are gone after delete, which records setting-deleted', async () => {
    await saveSaml(samlSettings());
    const since = await latestEventId();
    await ok(app.admin.DELETE(SAML), 200);
    expect(await ok(app.admin.GET(SAML), 200)).toEqual({});
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['setting-deleted']);
  });

  it('are refused to a user without the permission to configure sign-in', async () => {
    const editor = await userWithSession(app, EDITOR);
    expectError(await call(app, 'GET', SAML, { token: null, headers: { cookie: editor.cookie } }), 403, 'NoAccessError');
  });
});

describe('the sign-in options', () => {
  it('offer the password form and no provider while none is configured, to anyone', async () => {
    expect(await signInOptions()).toEqual({ passwordEnabled: true, providers: [] });
  });

  it('list each configured provider with its name and the route that starts it', async () => {
    await saveOidc();
    await saveSaml(samlSettings({ displayName: 'Okta' }));
    expect((await signInOptions()).providers).toEqual([
      { type: 'oidc', name: 'OpenID Connect', path: '/auth/oidc/login' },
      { type: 'saml', name: 'Okta', path: '/auth/saml/login' },
    ]);
  });
});

describe('password sign-in turned off', () => {
  it('is off by default', async () => {
    expect(await ok(app.admin.GET(PASSWORD), 200)).toEqual({ disabled: false });
  });

  it('cannot be turned off while no identity provider is configured', async () => {
    const answer = await call(app, 'POST', PASSWORD, { body: { disabled: true } });
    expect(expectError(answer, 400, 'ValidationError').message).toContain('identity provider');
    expect(await ok(app.admin.GET(PASSWORD), 200)).toEqual({ disabled: false });
  });

  it('is stored, and the sign-in page is told the password form is not offered', async () => {
    await saveSaml(samlSettings());
    expect(await ok(setPasswordDisabled(true), 200)).toEqual({ disabled: true });
    expect(await ok(app.admin.GET(PASSWORD), 200)).toEqual({ disabled: true });
    expect((await signInOptions()).passwordEnabled).toBe(false);
  });

  it('refuses the password of a user who is not a root Admin, saying how to sign in', async () => {
    const editor = await userWithSession(app, EDITOR);
    await saveSaml(samlSettings());
    await ok(setPasswordDisabled(true), 200);
    const { error, response } = await login(app, editor.email);
    expect(response.status).toBe(401);
    expect(error?.message).toContain('identity provider');
  });

  it('still lets a root Admin sign in with their password (the break-glass way in)', async () => {
    const username = `breakglass-${Date.now()}`;
    const admin = await createUser(app, { username, rootRole: ADMIN });
    await saveSaml(samlSettings());
    await ok(setPasswordDisabled(true), 200);
    const { data, response } = await login(app, username);
    expect(response.status).toBe(200);
    expect(data?.id).toBe(admin);
  });

  it('keeps sessions begun before, and API tokens, working', async () => {
    const editor = await userWithSession(app, EDITOR);
    await saveSaml(samlSettings());
    await ok(setPasswordDisabled(true), 200);
    await ok(clientAs(app, editor).GET('/api/admin/user'), 200);
    await ok(app.admin.GET('/api/admin/projects'), 200);
  });

  it('ends when the last identity provider is removed: passwords work again', async () => {
    const editor = await userWithSession(app, EDITOR);
    await saveSaml(samlSettings());
    await ok(setPasswordDisabled(true), 200);
    await ok(app.admin.DELETE(SAML), 200);
    expect((await signInOptions()).passwordEnabled).toBe(true);
    expect(await ok(app.admin.GET(PASSWORD), 200)).toEqual({ disabled: false });
    expect((await login(app, editor.email)).response.status).toBe(200);
  });
});
