import type { components } from '../client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { ok, until } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.db.insert(t.projects).values({ id: 'second', name: 'Second project' });
  await app.db.insert(t.projectEnvironments).values({ project: 'second', environment: 'development' });
});

/** A token as created (with its secret) or as listed (where a secret must never appear). */
type Token = components['schemas']['ApiToken'] & Partial<Pick<components['schemas']['ApiTokenWithSecret'], 'secret'>>;
type Event = components['schemas']['Event'];
type CreateApiToken = components['schemas']['CreateApiToken'];

/** The random part of a secret: what must never leak, whatever encoding the rest gets. */
const randomPart = (secret: string) => secret.slice(secret.lastIndexOf('.') + 1);

const post = (body: CreateApiToken, token = app.adminToken) => app.clientWith(token).POST('/api/admin/api-tokens', { body });
const create = (body: CreateApiToken) => ok(post(body), 201);
/** Revokes by id, or by secret (percent-encoded in the path). */
const revoke = (token: string | number) => app.admin.DELETE('/api/admin/api-tokens/{token}', { params: { path: { token: String(token) } } });
/** GET /api/admin/tag-types with the token: the status tells what the token may do. */
const tagTypesWith = (token: string) => app.clientWith(token).GET('/api/admin/tag-types');
const statusWith = async (token: string) => (await tagTypesWith(token)).response.status;

/** The list, and its text as sent (where a secret must never appear). */
async function listTokens() {
  const text = await ok(app.admin.GET('/api/admin/api-tokens', { parseAs: 'text' }), 200);
  return { tokens: JSON.parse(text).tokens as Token[], text };
}

async function events() {
  const text = await ok(app.admin.GET('/api/admin/events', { parseAs: 'text' }), 200);
  return { events: JSON.parse(text).events as Event[], text };
}

function expectNowhere(secret: string, texts: string[]) {
  for (const text of texts) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(randomPart(secret));
  }
}

describe('creating API tokens', () => {
  it.each<[string, CreateApiToken, RegExp, string, string[]]>([
    ['a client token for all projects', { tokenName: 'all-projects', type: 'client', environment: 'development' }, /^\*:development\.[0-9a-f]{56}$/, 'client', ['*']],
    ['a client token for one project', { tokenName: 'one-project', type: 'client', environment: 'development', projects: ['default'] }, /^default:development\.[0-9a-f]{56}$/, 'client', ['default']],
    ['a client token named by `project`', { tokenName: 'single', type: 'client', environment: 'production', project: 'default' }, /^default:production\.[0-9a-f]{56}$/, 'client', ['default']],
    ['a client token for several projects', { tokenName: 'several', type: 'client', environment: 'development', projects: ['default', 'second'] }, /^\[\]:development\.[0-9a-f]{56}$/, 'client', ['default', 'second']],
    ['a frontend token', { tokenName: 'browser', type: 'frontend', environment: 'development' }, /^\*:development\.[0-9a-f]{56}$/, 'frontend', ['*']],
    ['an admin token', { tokenName: 'ops', type: 'admin' }, /^\*:\*\.[0-9a-f]{56}$/, 'admin', ['*']],
    ['an admin token with environment *', { tokenName: 'ops-star', type: 'admin', environment: '*' }, /^\*:\*\.[0-9a-f]{56}$/, 'admin', ['*']],
    ['a backend token (alias of client)', { tokenName: 'backend-alias', type: 'backend', environment: 'development' }, /^\*:development\.[0-9a-f]{56}$/, 'client', ['*']],
    ['an upper-case CLIENT token', { tokenName: 'upper', type: 'CLIENT', environment: 'development' }, /^\*:development\.[0-9a-f]{56}$/, 'client', ['*']],
  ])('creates %s with 201 and a secret in Unleash format', async (_case, body, format, type, projects) => {
    const { data: token, error, response } = await post(body);
    expect(response.status, JSON.stringify(error)).toBe(201);
    expect(response.headers.get('location')).toBe('/api/admin/api-tokens');
    expect(token!.secret).toMatch(format);
    expect(token).toMatchObject({ tokenName: body.tokenName, type, projects, project: projects.join(','), expiresAt: null, seenAt: null });
    expect(token!.environment).toBe(type === 'admin' ? '*' : body.environment);
    expect(Number.isInteger(token!.id)).toBe(true);
    expect(Number.isNaN(Date.parse(token!.createdAt))).toBe(false);
    const { tokens } = await listTokens();
    expect(tokens.find((listed) => listed.id === token!.id)).toMatchObject({ tokenName: body.tokenName, type, projects });
  });

  it('defaults the environment of a client token to development', async () => {
    const token = await create({ tokenName: 'no-environment', type: 'client' });
    expect(token.environment).toBe('development');
    expect(token.secret).toMatch(/^\*:development\.[0-9a-f]{56}$/);
  });

  it('keeps a future expiry', async () => {
    const expiresAt = new Date(Date.UTC(2099, 5, 1)).toISOString();
    const token = await create({ tokenName: 'expiring', type: 'client', environment: 'development', expiresAt });
    expect(Date.parse(token.expiresAt!)).toBe(Date.parse(expiresAt));
    expect(await statusWith(token.secret)).toBe(403);
  });

  it('makes every new secret different', async () => {
    const a = await create({ tokenName: 'twin', type: 'client', environment: 'development' });
    const b = await create({ tokenName: 'twin', type: 'client', environment: 'development' });
    expect(a.secret).not.toBe(b.secret);
    expect(a.id).not.toBe(b.id);
  });

  it('gives a working credential: a client token gets 403 on the admin API, an admin token 200', async () => {
    const client = await create({ tokenName: 'works-client', type: 'client', environment: 'development' });
    expectError(await tagTypesWith(client.secret), 403, 'NoAccessError');
    const admin = await create({ tokenName: 'works-admin', type: 'admin' });
    expect(await statusWith(admin.secret)).toBe(200);
    expect((await app.clientWith(`Bearer ${admin.secret}`).GET('/api/admin/api-tokens')).response.status).toBe(200);
  });

  it('lets a created admin token create tokens itself', async () => {
    const admin = await create({ tokenName: 'creator', type: 'admin' });
    await ok(post({ tokenName: 'made-by-creator', type: 'client' }, admin.secret), 201);
    const { events: all } = await events();
    const event = all.find((e) => e.type === 'api-token-created' && e.data?.tokenName === 'made-by-creator');
    expect(event?.createdBy).toBe('creator');
  });
});

describe('secrets stay secret', () => {
  let secret: string;
  let id: number;
  beforeAll(async () => {
    const token = await create({ tokenName: 'hush', type: 'client', environment: 'development', projects: ['default'] });
    secret = token.secret;
    id = token.id;
    // Use it, so that a request carrying it is logged too.
    await tagTypesWith(secret);
    await tagTypesWith(`Bearer ${secret}`);
  });

  it('lists tokens without any secret field and without the secret anywhere in the answer', async () => {
    const { tokens, text } = await listTokens();
    expect(tokens.length).toBeGreaterThan(1);
    for (const token of tokens) expect(Object.keys(token)).not.toContain('secret');
    expect(tokens.find((token) => token.id === id)).toMatchObject({ tokenName: 'hush', type: 'client', environment: 'development', projects: ['default'], project: 'default' });
    expectNowhere(secret, [text]);
  });

  it('writes an api-token-created event without the secret', async () => {
    const { events: all, text } = await events();
    const event = all.find((e) => e.type === 'api-token-created' && e.data?.tokenName === 'hush');
    expect(event).toMatchObject({ environment: 'development', project: 'default', data: { id, type: 'client' } });
    expect(Object.keys(event!.data!)).not.toContain('secret');
    expectNowhere(secret, [text]);
  });

  it('writes the secret into no log line', async () => {
    expect(app.logs.length).toBeGreaterThan(0);
    expectNowhere(secret, app.logs);
  });
});

describe('when a token was last used', () => {
  it('lists seenAt, written at the metrics flush after the token was used, and null for a token never used', async () => {
    const used = await create({ tokenName: 'seen', type: 'client', environment: 'development' });
    const unused = await create({ tokenName: 'unseen', type: 'client', environment: 'development' });
    const before = Date.now();
    expect((await app.clientWith(used.secret).GET('/api/client/features')).response.status).toBe(200);

    const seenAtOf = (tokens: Token[], id: number) => tokens.find((token) => token.id === id)!.seenAt;
    const { tokens } = await until('the use being written', listTokens, (listed) => seenAtOf(listed.tokens, used.id) !== null);
    const seenAt = Date.parse(seenAtOf(tokens, used.id)!);
    expect(seenAt).toBeGreaterThanOrEqual(before);
    expect(seenAt).toBeLessThanOrEqual(Date.now());
    expect(seenAtOf(tokens, unused.id)).toBeNull();
  });
});

describe('revoking API tokens', () => {
  it('revokes by secret: 200, the token stops authenticating, an api-token-deleted event', async () => {
    const token = await create({ tokenName: 'revoke-by-secret', type: 'admin' });
    expect(await statusWith(token.secret)).toBe(200);
    // Raw: the secret as it is in the path, its colon not percent-encoded as the typed client would.
    const response = await call(app, 'DELETE', `/api/admin/api-tokens/${token.secret}`);
    expect(response.status, response.text).toBe(200);
    expectError(await tagTypesWith(token.secret), 401, 'AuthenticationRequired');
    const { tokens } = await listTokens();
    expect(tokens.map((listed) => listed.id)).not.toContain(token.id);
    const { events: all, text } = await events();
    const event = all.find((e) => e.type === 'api-token-deleted' && e.preData?.id === token.id);
    expect(event).toMatchObject({ preData: { tokenName: 'revoke-by-secret', type: 'admin' } });
    expect(Object.keys(event!.preData!)).not.toContain('secret');
    expectNowhere(token.secret, [text, ...app.logs]);
  });

  it('revokes by id: 200, the token stops authenticating, an api-token-deleted event', async () => {
    const token = await create({ tokenName: 'revoke-by-id', type: 'client', environment: 'development' });
    expectError(await tagTypesWith(token.secret), 403, 'NoAccessError');
    await ok(revoke(token.id), 200);
    expectError(await tagTypesWith(token.secret), 401, 'AuthenticationRequired');
    const { events: all } = await events();
    const event = all.find((e) => e.type === 'api-token-deleted' && e.preData?.id === token.id);
    expect(event).toMatchObject({ environment: 'development', preData: { tokenName: 'revoke-by-id', type: 'client' } });
  });

  it('revokes a token named by a percent-encoded secret of several projects', async () => {
    const token = await create({ tokenName: 'revoke-several', type: 'client', environment: 'development', projects: ['default', 'second'] });
    await ok(revoke(token.secret), 200);
    expectError(await tagTypesWith(token.secret), 401, 'AuthenticationRequired');
    expectNowhere(token.secret, app.logs);
  });

  it('answers 404 for an unknown secret or id, and a second revocation', async () => {
    // Raw where a secret is in the path as it is, its colon not percent-encoded.
    expectError(await call(app, 'DELETE', `/api/admin/api-tokens/*:development.${'0'.repeat(56)}`), 404, 'NotFoundError');
    expectError(await revoke(987654321), 404, 'NotFoundError');
    const token = await create({ tokenName: 'twice', type: 'client', environment: 'development' });
    expect((await revoke(token.id)).response.status).toBe(200);
    expectError(await revoke(token.id), 404, 'NotFoundError');
    expectError(await call(app, 'DELETE', `/api/admin/api-tokens/${token.secret}`), 404, 'NotFoundError');
  });

  it('writes no api-token-deleted event for an unknown token', async () => {
    const before = (await events()).events.filter((e) => e.type === 'api-token-deleted').length;
    expectError(await revoke(876543219), 404, 'NotFoundError');
    expect((await events()).events.filter((e) => e.type === 'api-token-deleted')).toHaveLength(before);
  });

  // Raw: paths the contract does not have.
  it.each(['/api/admin//api-tokens/', '/api/admin/api-tokens//'])('keeps the secret out of the logs also when revoked through %s<secret>', async (prefix) => {
    const token = await create({ tokenName: 'revoke-doubled-slash', type: 'client', environment: 'development' });
    const response = await call(app, 'DELETE', `${prefix}${token.secret}`);
    expect(response.status).toBe(200);
    expectError(await tagTypesWith(token.secret), 401, 'AuthenticationRequired');
    expectNowhere(token.secret, app.logs);
  });

  it('keeps the secret out of the logs also when the path has a trailing slash', async () => {
    const token = await create({ tokenName: 'revoke-trailing-slash', type: 'client', environment: 'development' });
    const response = await call(app, 'DELETE', `/api/admin/api-tokens/${token.secret}/`);
    expect(response.status).toBe(200);
    expectNowhere(token.secret, app.logs);
  });
});

describe('refusing invalid tokens with 400 naming the field', () => {
  async function expectRefused(send: () => Promise<Parameters<typeof expectError>[0]>, field: string) {
    const before = (await listTokens()).tokens.length;
    const error = expectError(await send(), 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect((await listTokens()).tokens).toHaveLength(before);
  }

  it.each<[string, CreateApiToken, string]>([
    ['environment * for a client token', { tokenName: 'x', type: 'client', environment: '*' }, 'environment'],
    ['environment * for a frontend token', { tokenName: 'x', type: 'frontend', environment: '*' }, 'environment'],
    ['an unknown environment', { tokenName: 'x', type: 'client', environment: 'staging' }, 'environment'],
    ['an unknown project in projects', { tokenName: 'x', type: 'client', environment: 'development', projects: ['nowhere'] }, 'project'],
    ['an unknown project among several', { tokenName: 'x', type: 'client', environment: 'development', projects: ['default', 'nowhere'] }, 'project'],
    ['an unknown project in project', { tokenName: 'x', type: 'client', environment: 'development', project: 'nowhere' }, 'project'],
    ['an expiry in the past', { tokenName: 'x', type: 'client', environment: 'development', expiresAt: '2001-01-01T00:00:00.000Z' }, 'expiresAt'],
    ['an expiry that is not a date-time', { tokenName: 'x', type: 'client', environment: 'development', expiresAt: 'tomorrow' }, 'expiresAt'],
    ['an expiry on a leap second', { tokenName: 'x', type: 'client', environment: 'development', expiresAt: '2098-12-31T23:59:60Z' }, 'expiresAt'],
    ['an expiry with an hours-only offset', { tokenName: 'x', type: 'client', environment: 'development', expiresAt: '2099-01-01T00:00:00+01' }, 'expiresAt'],
    ['a NUL character in the name', { tokenName: 'a\u0000b', type: 'client', environment: 'development' }, 'NUL'],
    ['an empty tokenName', { tokenName: '', type: 'client', environment: 'development' }, 'tokenName'],
    ['an empty projects list', { tokenName: 'x', type: 'client', environment: 'development', projects: [] }, 'projects'],
    ['an admin token for environment development', { tokenName: 'x', type: 'admin', environment: 'development' }, 'environment'],
    ['an admin token for one project', { tokenName: 'x', type: 'admin', projects: ['default'] }, 'projects'],
  ])('refuses %s', async (_case, body, field) => {
    await expectRefused(() => post(body), field);
  });

  // Bodies the types forbid, so sent raw.
  it.each([
    ['an unknown body field', { tokenName: 'x', type: 'client', environment: 'development', username: 'me' }, 'username'],
    ['no tokenName', { type: 'client', environment: 'development' }, 'tokenName'],
    ['no type', { tokenName: 'x', environment: 'development' }, 'type'],
    ['a bad type', { tokenName: 'x', type: 'superuser', environment: 'development' }, 'type'],
  ])('refuses %s', async (_case, body, field) => {
    await expectRefused(() => call(app, 'POST', '/api/admin/api-tokens', { body }), field);
  });
});

describe('tokens configured at start', () => {
  it('authenticates an INIT client token as a client: 403 on the admin API, not 401', async () => {
    const configured = await startTestApp({ initTokens: { client: ['default:development.abc123'] } });
    expectError(await configured.clientWith('default:development.abc123').GET('/api/admin/tag-types'), 403, 'NoAccessError');
    expectError(await configured.clientWith('default:development.abc124').GET('/api/admin/tag-types'), 401, 'AuthenticationRequired');
    const listed = await ok(configured.admin.GET('/api/admin/api-tokens', { parseAs: 'text' }), 200);
    expect(JSON.parse(listed).tokens).toContainEqual(expect.objectContaining({ type: 'client', environment: 'development', projects: ['default'] }));
    expectNowhere('default:development.abc123', [listed, ...configured.logs]);
  });

  it('authenticates an INIT admin and frontend token', async () => {
    const configured = await startTestApp({ initTokens: { admin: ['*:*.configuredadmin1'], frontend: ['*:production.configuredfrontend1'] } });
    expect((await configured.clientWith('*:*.configuredadmin1').GET('/api/admin/tag-types')).response.status).toBe(200);
    expectError(await configured.clientWith('*:production.configuredfrontend1').GET('/api/admin/tag-types'), 403, 'NoAccessError');
  });

  it.each([
    ['a client token without a scope', { client: ['abc123'] }],
    ['a client token without a secret part', { client: ['default:development'] }],
    ['a client token for every environment', { client: ['default:*.abc123'] }],
    ['a client token for an unknown environment', { client: ['default:staging.abc123'] }],
    ['a client token for an unknown project', { client: ['nowhere:development.abc123'] }],
    ['an admin token that is not *:*', { admin: ['default:development.abc123'] }],
    ['a frontend token without a scope', { frontend: ['justasecret'] }],
  ])('refuses to start with %s', async (_case, initTokens) => {
    await expect(startTestApp({ initTokens })).rejects.toThrow(/token/);
  });
});
