// POST /edge/validate: which of the tokens sent an Edge may serve SDKs with (valid client and frontend tokens only),
// each with its scope; public, as in Unleash.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok } from './support/fixtures.js';
import { clientAs, userWithSession } from './support/users.js';

let app: TestApp;
let project: string;
const unique = uniqueNames();
const { newProject } = fixtures(() => app, unique);

beforeAll(async () => {
  app = await startTestApp();
  project = await newProject('edge');
});

/** Asks, without any credential, which of the tokens are valid; the answer must be a 200. */
const validate = (tokens: string[]) => ok(app.clientWith().POST('/edge/validate', { body: { tokens } }), 200);

/** A secret of the right shape that no token has. */
const unknownSecret = () => `default:development.${randomBytes(28).toString('hex')}`;

describe('POST /edge/validate', () => {
  it('lists a client token of every project with its kind, projects ["*"] and environment', async () => {
    const secret = await newApiToken(app, { type: 'client', environment: 'production' });
    expect(await validate([secret])).toEqual({ tokens: [{ token: secret, type: 'client', projects: ['*'], environment: 'production' }] });
  });

  it('lists a frontend token with the project it is scoped to', async () => {
    const secret = await newApiToken(app, { type: 'frontend', environment: 'development', projects: [project] });
    expect(await validate([secret])).toEqual({ tokens: [{ token: secret, type: 'frontend', projects: [project], environment: 'development' }] });
  });

  it('lists a token of several projects with each of them', async () => {
    const secret = await newApiToken(app, { type: 'client', environment: 'development', projects: ['default', project] });
    const [listed] = (await validate([secret])).tokens;
    expect([...listed!.projects].sort()).toEqual(['default', project].sort());
  });

  it('answers without any credential', async () => {
    const secret = await newApiToken(app, { type: 'client', environment: 'development' });
    const response = await call(app, 'POST', '/edge/validate', { token: null, body: { tokens: [secret] } });
    expect(response.status).toBe(200);
    expect(response.json.tokens.map((t: { token: string }) => t.token)).toEqual([secret]);
  });

  it('lists only the valid ones among valid and unknown tokens, in the order sent', async () => {
    const [first, second] = [await newApiToken(app, { type: 'client', environment: 'development' }), await newApiToken(app, { type: 'frontend', environment: 'production' })];
    const listed = await validate([unknownSecret(), second, 'not-a-token', first]);
    expect(listed.tokens.map((t) => t.token)).toEqual([second, first]);
  });

  it('omits a token past its expiry', async () => {
    const expiresAt = new Date(Date.now() + 1_500).toISOString();
    const created = await ok(app.admin.POST('/api/admin/api-tokens', { body: { tokenName: 'soon', type: 'client', environment: 'development', expiresAt } }));
    expect((await validate([created.secret])).tokens).toHaveLength(1);
    while (Date.now() <= Date.parse(expiresAt)) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await validate([created.secret])).toEqual({ tokens: [] });
  });

  it('omits a deleted token', async () => {
    const secret = await newApiToken(app, { type: 'client', environment: 'development' });
    await ok(app.admin.DELETE('/api/admin/api-tokens/{token}', { params: { path: { token: secret } } }));
    expect(await validate([secret])).toEqual({ tokens: [] });
  });

  it('omits admin tokens, valid as they are', async () => {
    const created = await newApiToken(app, { type: 'admin' });
    expect(await validate([created, app.adminToken])).toEqual({ tokens: [] });
  });

  it("omits a user's personal access token", async () => {
    const user = await userWithSession(app, 'Admin');
    const pat = await ok(clientAs(app, user).POST('/api/admin/user/tokens', { body: { description: 'edge', expiresAt: '2099-01-01T00:00:00.000Z' } }));
    expect((await app.clientWith(pat.secret).GET('/api/admin/tag-types')).response.status).toBe(200);
    expect(await validate([pat.secret])).toEqual({ tokens: [] });
  });

  it('lists a token sent twice once', async () => {
    const secret = await newApiToken(app, { type: 'client', environment: 'development' });
    expect((await validate([secret, secret])).tokens.map((t) => t.token)).toEqual([secret]);
  });

  it('answers an empty list to an empty list', async () => {
    expect(await validate([])).toEqual({ tokens: [] });
  });

  // Bodies the types forbid, so sent raw.
  it.each([
    ['no tokens field', {}],
    ['tokens not a list', { tokens: 'default:development.abc' }],
    ['a token that is not a string', { tokens: [42] }],
    ['an empty token', { tokens: [''] }],
    ['a token longer than 1000 characters', { tokens: ['x'.repeat(1001)] }],
    ['more than 1000 tokens', { tokens: Array.from({ length: 1001 }, (_, i) => `t${i}`) }],
    ['an unknown field', { tokens: [], environment: 'development' }],
    ['a list for a body', []],
    ['JSON cut short', '{"tokens": ['],
  ])('refuses a body with %s with 400', async (_what, body) => {
    expectError(await call(app, 'POST', '/edge/validate', { token: null, body }), 400, 'ValidationError');
  });

  it('writes none of the secrets it was sent to the log, valid, unknown or refused', async () => {
    const valid = await newApiToken(app, { type: 'client', environment: 'development' });
    const unknown = unknownSecret();
    await validate([valid, unknown]);
    expect((await call(app, 'POST', '/edge/validate', { token: null, body: { tokens: [unknown, 42] } })).status).toBe(400);
    const randomParts = [valid, unknown].map((secret) => secret.slice(secret.indexOf('.') + 1));
    expect(app.logs.filter((line) => randomParts.some((part) => line.includes(part)))).toEqual([]);
  });
});
