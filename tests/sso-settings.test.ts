import { randomBytes } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import type { ServiceClient } from '../client/index.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { newApiToken, ok } from './support/fixtures.js';
import { clientAs, userWithSession } from './support/users.js';

type SetOidcSettings = components['schemas']['SetOidcSettings'];
type OidcSettings = components['schemas']['OidcSettings'];

const PATH = '/api/admin/auth/oidc/settings';
const EDITOR = 2;
const OWNER = 4;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { latestEventId, eventsSince } = eventReader(() => app);

/** A secret no other request of the file sends, so that finding it anywhere is a leak. */
const newSecret = () => `oidc-secret-${randomBytes(12).toString('hex')}`;

const settings = (overrides: Partial<SetOidcSettings> = {}): SetOidcSettings => ({
  enabled: true,
  clientId: unique('client'),
  secret: newSecret(),
  discoverUrl: 'https://login.example.com/.well-known/openid-configuration',
  ...overrides,
});

const postSettings = (body: SetOidcSettings, client: ServiceClient = app.admin) => client.POST(PATH, { body });
const readSettings = (client: ServiceClient = app.admin) => client.GET(PATH);
const remove = (client: ServiceClient = app.admin) => client.DELETE(PATH);
/** A body the types forbid, so sent raw. */
const postRaw = (body: unknown) => call(app, 'POST', PATH, { body: body as object });

const storedSettings = () => ok(readSettings(), 200);
const save = (body: SetOidcSettings): Promise<OidcSettings> => ok(postSettings(body), 200);
const removeSettings = async () => void (await ok(remove(), 200));

/** The settings as answered: the same fields, the secret masked. */
function expectMasked(answer: OidcSettings, sent: SetOidcSettings) {
  const { secret, ...rest } = answer;
  expect(rest).toEqual((({ secret: _, ...others }) => others)(sent));
  expect(secret).toMatch(/^\*+$/);
}

describe('without settings', () => {
  beforeEach(removeSettings);

  it('answers 200 with an empty object', async () => {
    expect(await storedSettings()).toEqual({});
  });
});

describe('setting OpenID Connect', () => {
  beforeEach(removeSettings);

  it('answers 200 with every field stored and the secret masked; GET answers the same', async () => {
    const body = settings({
      autoCreate: true,
      enableSingleSignOut: true,
      defaultRootRole: 'Editor',
      emailDomains: 'example.com,example.org',
      acrValues: 'phr phrh',
      idTokenSigningAlgorithm: 'RS384',
      enableGroupSyncing: true,
      groupJsonPath: 'groups',
      addGroupsScope: true,
    });
    const saved = await ok(app.admin.POST(PATH, { body, parseAs: 'text' }), 200);
    expectMasked(JSON.parse(saved), body);
    expect(saved).not.toContain(body.secret);

    const again = await ok(app.admin.GET(PATH, { parseAs: 'text' }), 200);
    expect(JSON.parse(again)).toEqual(JSON.parse(saved));
    expect(again).not.toContain(body.secret);
  });

  it('accepts the three required fields alone', async () => {
    const body = { enabled: true as const, clientId: unique('minimal'), secret: newSecret() };
    expectMasked(await save(body), body);
    expectMasked(await storedSettings(), body);
  });

  it('replaces the whole settings on a second POST', async () => {
    await save(settings({ autoCreate: true, emailDomains: 'example.com', groupJsonPath: 'groups' }));
    const second = settings({ acrValues: 'mfa' });
    expectMasked(await save(second), second);
    expectMasked(await storedSettings(), second);
  });

  it('lets defaultRootRoleId win over defaultRootRole', async () => {
    const response = await save(settings({ autoCreate: true, defaultRootRoleId: EDITOR, defaultRootRole: 'Viewer' }));
    expect(response).toMatchObject({ defaultRootRoleId: EDITOR, defaultRootRole: 'Editor' });
    expect(await storedSettings()).toMatchObject({ defaultRootRoleId: EDITOR, defaultRootRole: 'Editor' });
  });

  it('accepts the id of a custom root role, and shows no built-in role name for it', async () => {
    const role = await ok(app.admin.POST('/api/admin/roles', { body: { name: unique('sso-role'), description: 'SSO users', type: 'root-custom', permissions: [] } }), 201);
    const response = await save(settings({ autoCreate: true, defaultRootRoleId: role.id, defaultRootRole: 'Admin' }));
    expect(response.defaultRootRoleId).toBe(role.id);
    expect(response.defaultRootRole).toBeUndefined();
    expect(await storedSettings()).toEqual(response);
  });

  it.each<[string, number]>([
    ['a project role', OWNER],
    ['no role', 999_999],
  ])('refuses a defaultRootRoleId naming %s with 400, keeping the settings and recording nothing', async (_case, defaultRootRoleId) => {
    const kept = await save(settings());
    const since = await latestEventId();
    const error = expectError(await postSettings(settings({ defaultRootRoleId })), 400, 'ValidationError');
    expect(error.message).toContain('defaultRootRoleId');
    expect(await storedSettings()).toEqual(kept);
    expect(await eventsSince(since)).toEqual([]);
  });
});

describe('refusing a bad body', () => {
  let kept: OidcSettings;
  beforeAll(async () => {
    await removeSettings();
    kept = await save(settings({ clientId: 'kept-client' }));
  });

  async function expectRefusedNaming(send: () => ReturnType<typeof postRaw | typeof postSettings>, field: string) {
    const since = await latestEventId();
    const error = expectError(await send(), 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect(await storedSettings()).toEqual(kept);
    expect(await eventsSince(since)).toEqual([]);
  }

  const without = (field: keyof SetOidcSettings) => {
    const body: Partial<SetOidcSettings> = settings();
    delete body[field];
    return body;
  };

  it.each<[string, () => SetOidcSettings, string]>([
    ['an empty clientId', () => settings({ clientId: '' }), 'clientId'],
    ['an empty secret', () => settings({ secret: '' }), 'secret'],
    ['a discoverUrl that is not a URL', () => settings({ discoverUrl: 'not a url' }), 'discoverUrl'],
  ])('answers 400 naming the field for %s, keeping the settings and recording nothing', async (_case, body, field) => {
    await expectRefusedNaming(() => postSettings(body()), field);
  });

  // Bodies the types forbid, so sent raw.
  it.each<[string, () => unknown, string]>([
    ['a missing enabled', () => without('enabled'), 'enabled'],
    ['a missing clientId', () => without('clientId'), 'clientId'],
    ['a missing secret', () => without('secret'), 'secret'],
    ['enabled false', () => ({ ...settings(), enabled: false }), 'enabled'],
    ['enabled as a string', () => ({ ...settings(), enabled: 'true' }), 'enabled'],
    ['a defaultRootRole that is not a root role name', () => ({ ...settings(), defaultRootRole: 'Owner' }), 'defaultRootRole'],
    ['an unknown signing algorithm', () => ({ ...settings(), idTokenSigningAlgorithm: 'HS256' }), 'idTokenSigningAlgorithm'],
    ['an unknown field', () => ({ ...settings(), provider: 'okta' }), 'provider'],
  ])('answers 400 naming the field for %s, keeping the settings and recording nothing', async (_case, body, field) => {
    await expectRefusedNaming(() => postRaw(body()), field);
  });

  it('answers 400 for a body that is not an object', async () => {
    expectError(await postRaw(['enabled']), 400, 'ValidationError');
    expect(await storedSettings()).toEqual(kept);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await call(app, 'POST', PATH, { body: 'enabled=true&clientId=x&secret=y', contentType: 'application/x-www-form-urlencoded' });
    expectError(response, 415, 'ContentTypeerror');
    expect(await storedSettings()).toEqual(kept);
  });
});

describe('events', () => {
  beforeEach(removeSettings);

  it('records setting-created, then setting-updated with the previous settings, all masked', async () => {
    const first = settings({ autoCreate: false });
    const second = settings({ autoCreate: true, defaultRootRole: 'Viewer' });
    const since = await latestEventId();
    await save(first);
    await save(second);

    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['setting-created', 'setting-updated']);
    const [created, updated] = events as [(typeof events)[0], (typeof events)[0]];
    expect(created.data).toMatchObject({ clientId: first.clientId, autoCreate: false, secret: expect.stringMatching(/^\*+$/) });
    expect(created.preData).toBeNull();
    expect(updated.data).toMatchObject({ clientId: second.clientId, autoCreate: true, defaultRootRole: 'Viewer', secret: expect.stringMatching(/^\*+$/) });
    expect(updated.preData).toMatchObject({ clientId: first.clientId, autoCreate: false, secret: expect.stringMatching(/^\*+$/) });
    const text = JSON.stringify(events);
    expect(text).not.toContain(first.secret);
    expect(text).not.toContain(second.secret);
  });

  it('records nothing when the same settings are posted again', async () => {
    const body = settings();
    await save(body);
    const since = await latestEventId();
    await save(body);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('records a change of the secret alone as setting-updated without showing either secret', async () => {
    const body = settings();
    await save(body);
    const since = await latestEventId();
    const changed = { ...body, secret: newSecret() };
    await save(changed);
    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['setting-updated']);
    const text = JSON.stringify(events);
    expect(text).not.toContain(body.secret);
    expect(text).not.toContain(changed.secret);
  });

  it('records setting-deleted on DELETE, after which GET answers {} and a POST creates again', async () => {
    const body = settings();
    await save(body);
    const since = await latestEventId();
    await removeSettings();
    expect(await storedSettings()).toEqual({});
    await removeSettings();
    const deleted = await eventsSince(since);
    expect(deleted.map((e) => e.type)).toEqual(['setting-deleted']);
    expect(deleted[0]!.preData).toMatchObject({ clientId: body.clientId, secret: expect.stringMatching(/^\*+$/) });
    expect(JSON.stringify(deleted)).not.toContain(body.secret);

    const again = await latestEventId();
    await save(settings());
    expect((await eventsSince(again)).map((e) => e.type)).toEqual(['setting-created']);
  });
});

describe('keeping the secret secret', () => {
  // Raw: it reads the text of every answer as sent, refused ones too, and some bodies are ones the types forbid.
  it('shows the real secret in no answer, event or log line, refused requests included', async () => {
    await removeSettings();
    const secret = newSecret();
    const body = settings({ secret, autoCreate: true });
    const answers = [
      await postRaw(body),
      await call(app, 'GET', PATH),
      await postRaw({ ...body, clientId: unique('client') }),
      await postRaw({ ...body, enabled: false }),
      await postRaw({ ...body, secret: `${secret}${'x'.repeat(2000)}` }),
      await postRaw({ ...body, defaultRootRoleId: OWNER }),
      await postRaw({ ...body, unknown: secret }),
      await call(app, 'GET', PATH),
      await call(app, 'DELETE', PATH),
      await call(app, 'GET', '/api/admin/events'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 400, 400, 400, 400, 200, 200, 200]);
    for (const answer of answers) expect(answer.text).not.toContain(secret);
    expect(app.logs.length).toBeGreaterThan(0);
    for (const line of app.logs) expect(line).not.toContain(secret);
  });
});

describe('who may manage the settings', () => {
  let kept: OidcSettings;
  beforeAll(async () => {
    await removeSettings();
    kept = await save(settings({ clientId: 'guarded-client' }));
  });

  it('answers 403 to an Editor’s session and changes nothing', async () => {
    const editor = await userWithSession(app, 'Editor');
    const since = await latestEventId();
    const client = clientAs(app, editor);
    expectError(await readSettings(client), 403, 'NoAccessError');
    expectError(await postSettings(settings(), client), 403, 'NoAccessError');
    expectError(await remove(client), 403, 'NoAccessError');
    expect(await storedSettings()).toEqual(kept);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('answers 403 to a client token and changes nothing', async () => {
    const client = app.clientWith(await newApiToken(app, { type: 'client' }));
    expectError(await readSettings(client), 403, 'NoAccessError');
    expectError(await postSettings(settings(), client), 403, 'NoAccessError');
    expectError(await remove(client), 403, 'NoAccessError');
    expect(await storedSettings()).toEqual(kept);
  });

  it('answers 401 without a credential', async () => {
    const client = app.clientWith();
    expectError(await readSettings(client), 401, 'AuthenticationRequired');
    expectError(await postSettings(settings(), client), 401, 'AuthenticationRequired');
    expectError(await remove(client), 401, 'AuthenticationRequired');
    expect(await storedSettings()).toEqual(kept);
  });

  it('lets an Admin’s session read and set them', async () => {
    const admin = await userWithSession(app, 'Admin');
    const body = settings();
    const saved = await ok(postSettings(body, clientAs(app, admin)), 200);
    expectMasked(saved, body);
    expect(await ok(readSettings(clientAs(app, admin)), 200)).toEqual(saved);
  });
});
