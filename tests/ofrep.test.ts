// OpenFeature's remote evaluation protocol (OFREP) over HTTP: the answers' values and reasons, the context, the
// credentials OpenFeature providers send, the token's scope, the bulk answer's ETag, the protocol's error codes, and
// the evaluations counted in the flags' usage.
import { createClient, type components } from '../client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { envPath, newApiToken, ok, until } from './support/fixtures.js';
import { flagWith } from './support/frontend.js';
import { clientAs, userWithSession } from './support/users.js';
import { uniqueNames } from './support/events.js';

const unique = uniqueNames();
type OfrepAnswer = components['schemas']['OfrepEvaluation'];

let app: TestApp;
let clientToken: string;
let frontendToken: string;

/** A typed client sending `Authorization: Bearer <token>`, as OpenFeature's providers do. */
const bearer = (token: string) => createClient(app.url, { headers: { authorization: `Bearer ${token}` } });

async function evaluate(key: string, context: Record<string, unknown> = {}, token = clientToken) {
  const { data, response } = await bearer(token).POST('/ofrep/v1/evaluate/flags/{key}', { params: { path: { key } }, body: { context } });
  expect(response.status).toBe(200);
  return data!;
}

async function evaluateAll(context: Record<string, unknown> = {}, token = clientToken) {
  const { data, response } = await bearer(token).POST('/ofrep/v1/evaluate/flags', { body: { context } });
  expect(response.status).toBe(200);
  return data!.flags;
}

beforeAll(async () => {
  app = await startTestApp();
  clientToken = await newApiToken(app, { type: 'client', environment: 'development' });
  frontendToken = await newApiToken(app, { type: 'frontend', environment: 'development' });
});

describe('the answer for one flag', () => {
  it('is true with STATIC for a flag on for everyone, and false with DISABLED for one off', async () => {
    const on = await flagWith(app, unique('on'), [{ name: 'default' }]);
    const off = await flagWith(app, unique('off'), [{ name: 'default' }], { on: false });
    expect(await evaluate(on)).toEqual({ key: on, reason: 'STATIC', value: true, metadata: { featureEnabled: true, variantEnabled: false, impressionData: false } });
    expect(await evaluate(off)).toMatchObject({ key: off, reason: 'DISABLED', value: false });
  });

  it('is TARGETING_MATCH when a strategy with constraints lets the context in, DEFAULT with false when none does', async () => {
    const flag = await flagWith(app, unique('pro'), [{ name: 'default', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] }]);
    expect(await evaluate(flag, { plan: 'pro' })).toMatchObject({ reason: 'TARGETING_MATCH', value: true });
    expect(await evaluate(flag, { plan: 'free' })).toMatchObject({ reason: 'DEFAULT', value: false });
  });

  it('is SPLIT for a context a rollout below 100% lets in, STATIC for a rollout of 100%', async () => {
    const half = await flagWith(app, unique('half'), [{ name: 'flexibleRollout', parameters: { rollout: 50, stickiness: 'default', groupId: 'g' } }]);
    const all = await flagWith(app, unique('all'), [{ name: 'flexibleRollout', parameters: { rollout: 100, stickiness: 'default', groupId: 'g' } }]);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => evaluate(half, { targetingKey: `user-${i}` })));
    expect(new Set(answers.filter((answer) => answer.value).map((answer) => answer.reason))).toEqual(new Set(['SPLIT']));
    expect(await evaluate(all, { targetingKey: 'anyone' })).toMatchObject({ reason: 'STATIC', value: true });
  });

  it("gives a variant's name and its payload by type: string, number, parsed JSON, or the name without a payload", async () => {
    const variant = (name: string, payload?: { type: string; value: string }) => [{ name, weight: 1000, weightType: 'variable', stickiness: 'default', ...(payload && { payload }) }];
    const text = await flagWith(app, unique('text'), [{ name: 'default' }], { variants: variant('blue', { type: 'string', value: 'navy' }) });
    const number = await flagWith(app, unique('number'), [{ name: 'default' }], { variants: variant('n', { type: 'number', value: '42' }) });
    const json = await flagWith(app, unique('json'), [{ name: 'default' }], { variants: variant('j', { type: 'json', value: '{"a":[1,2]}' }) });
    const bare = await flagWith(app, unique('bare'), [{ name: 'default' }], { variants: variant('plain') });
    expect(await evaluate(text)).toMatchObject({ variant: 'blue', value: 'navy', metadata: { featureEnabled: true, variantEnabled: true } });
    expect(await evaluate(number)).toMatchObject({ variant: 'n', value: 42 });
    expect(await evaluate(json)).toMatchObject({ variant: 'j', value: { a: [1, 2] } });
    expect(await evaluate(bare)).toMatchObject({ variant: 'plain', value: 'plain' });
  });

  it("has no value for a flag with variants that is off, so the application's default stands", async () => {
    const flag = await flagWith(app, unique('variants-off'), [{ name: 'default' }], {
      on: false,
      variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
    });
    const answer = await evaluate(flag);
    expect(answer).toEqual({ key: flag, reason: 'DISABLED', metadata: { featureEnabled: false, variantEnabled: false, impressionData: false } });
  });

  it('says in its metadata whether the flag asks for impression data', async () => {
    const flag = await flagWith(app, unique('impressions'), [{ name: 'default' }], { impressionData: true });
    expect((await evaluate(flag)).metadata.impressionData).toBe(true);
  });
});

describe('the context', () => {
  it('reads numbers and booleans as their string form', async () => {
    const flag = await flagWith(app, unique('typed'), [
      { name: 'default', constraints: [{ contextName: 'seats', operator: 'IN', values: ['12'] }, { contextName: 'beta', operator: 'IN', values: ['true'] }] },
    ]);
    expect(await evaluate(flag, { seats: 12, beta: true })).toMatchObject({ value: true });
  });

  it('keeps the Unleash fields: appName, environment, remoteAddress', async () => {
    const flag = await flagWith(app, unique('fields'), [
      {
        name: 'default',
        constraints: [
          { contextName: 'appName', operator: 'IN', values: ['shop'] },
          { contextName: 'environment', operator: 'IN', values: ['staging'] },
        ],
      },
      { name: 'remoteAddress', parameters: { IPs: '10.1.2.3' } },
    ]);
    expect(await evaluate(flag, { appName: 'shop', environment: 'staging' })).toMatchObject({ value: true });
    expect(await evaluate(flag, { remoteAddress: '10.1.2.3' })).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect(await evaluate(flag, { appName: 'shop' })).toMatchObject({ value: false });
  });

  it('refuses an object or an array as a value with 400 INVALID_CONTEXT naming the key', async () => {
    const flag = await flagWith(app, unique('invalid'), [{ name: 'default' }]);
    for (const value of [{ nested: true }, ['a']] as unknown[]) {
      const { error, response } = await bearer(clientToken).POST('/ofrep/v1/evaluate/flags/{key}', { params: { path: { key: flag } }, body: { context: { team: value } } });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ key: flag, errorCode: 'INVALID_CONTEXT', errorDetails: expect.stringContaining('context.team') });
      expectError({ response, error }, 400, 'ValidationError');
    }
  });

  it('refuses a body that is not JSON with 400 PARSE_ERROR', async () => {
    const flag = await flagWith(app, unique('parse'), [{ name: 'default' }]);
    for (const path of [`/ofrep/v1/evaluate/flags/${flag}`, '/ofrep/v1/evaluate/flags']) {
      const response = await call(app, 'POST', path, { token: clientToken, body: '{"context": {', contentType: 'application/json' });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ errorCode: 'PARSE_ERROR', errorDetails: expect.any(String) });
      expectError(response, 400, 'ValidationError');
    }
  });
});

describe('credentials and scope', () => {
  it('answers 404 FLAG_NOT_FOUND with the key for a flag that does not exist', async () => {
    const key = unique('missing');
    const { error, response } = await bearer(clientToken).POST('/ofrep/v1/evaluate/flags/{key}', { params: { path: { key } }, body: {} });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ key, errorCode: 'FLAG_NOT_FOUND' });
  });

  it("answers 404 FLAG_NOT_FOUND for a flag of a project outside the token's", async () => {
    const project = unique('project');
    expect((await app.admin.POST('/api/admin/projects', { body: { id: project, name: project } })).response.status).toBe(201);
    const flag = await flagWith(app, unique('elsewhere'), [{ name: 'default' }], { project });
    const defaultOnly = await newApiToken(app, { type: 'client', environment: 'development', projects: ['default'] });
    const { error, response } = await bearer(defaultOnly).POST('/ofrep/v1/evaluate/flags/{key}', { params: { path: { key: flag } }, body: {} });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ errorCode: 'FLAG_NOT_FOUND' });
    expect((await evaluateAll({}, defaultOnly)).map((answer) => answer.key)).not.toContain(flag);
  });

  it("evaluates in the token's environment", async () => {
    const flag = await flagWith(app, unique('production'), [{ name: 'default' }], { environment: 'production' });
    const production = await newApiToken(app, { type: 'client', environment: 'production' });
    expect(await evaluate(flag, {}, production)).toMatchObject({ value: true });
    expect(await evaluate(flag, {}, clientToken)).toMatchObject({ value: false, reason: 'DISABLED' });
  });

  it('takes a frontend token as well as a client token, sent as X-API-Key or as plain Authorization', async () => {
    const flag = await flagWith(app, unique('credentials'), [{ name: 'default' }]);
    expect(await evaluate(flag, {}, frontendToken)).toMatchObject({ value: true });
    const byApiKey = await createClient(app.url, { headers: { 'x-api-key': clientToken } }).POST('/ofrep/v1/evaluate/flags/{key}', { params: { path: { key: flag } }, body: {} });
    expect(byApiKey.response.status).toBe(200);
    const plain = await app.clientWith(frontendToken).POST('/ofrep/v1/evaluate/flags/{key}', { params: { path: { key: flag } }, body: {} });
    expect(plain.response.status).toBe(200);
  });

  it('refuses admin tokens and personal access tokens with 403, and no credential with 401, each with GENERAL', async () => {
    const flag = await flagWith(app, unique('refused'), [{ name: 'default' }]);
    const user = await userWithSession(app, 'Admin');
    const { data: pat } = await clientAs(app, user).POST('/api/admin/user/tokens', { body: { description: 'ofrep', expiresAt: '2099-01-01T00:00:00.000Z' } });
    for (const token of [app.adminToken, pat!.secret]) {
      const { error, response } = await bearer(token).POST('/ofrep/v1/evaluate/flags/{key}', { params: { path: { key: flag } }, body: {} });
      expectError({ response, error }, 403, 'NoAccessError');
      expect(error).toMatchObject({ errorCode: 'GENERAL' });
    }
    const anonymous = await app.clientWith().POST('/ofrep/v1/evaluate/flags', { body: {} });
    expectError(anonymous, 401, 'AuthenticationRequired');
    expect(anonymous.error).toMatchObject({ errorCode: 'GENERAL' });
  });

  it('does not take X-API-Key on the admin API', async () => {
    expectError(await app.clientWith().GET('/api/admin/projects', { headers: { 'x-api-key': app.adminToken } }), 401, 'AuthenticationRequired');
  });
});

describe('every flag at once', () => {
  it('lists every flag of the token, on and off, each answered as the one-flag operation answers it', async () => {
    const on = await flagWith(app, unique('bulk-on'), [{ name: 'default' }]);
    const off = await flagWith(app, unique('bulk-off'), [{ name: 'default' }], { on: false });
    const flags = await evaluateAll({ targetingKey: 'u-1' });
    expect(flags.find((answer) => answer.key === on)).toEqual(await evaluate(on, { targetingKey: 'u-1' }));
    expect(flags.find((answer) => answer.key === off)).toMatchObject({ reason: 'DISABLED', value: false });
  });

  it('answers 304 to the ETag it gave while the answer is the same, and a new ETag once a flag changes', async () => {
    const flag = await flagWith(app, unique('etag'), [{ name: 'default' }]);
    const first = await bearer(clientToken).POST('/ofrep/v1/evaluate/flags', { body: { context: { targetingKey: 'u-1' } } });
    const etag = first.response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await bearer(clientToken).POST('/ofrep/v1/evaluate/flags', { body: { context: { targetingKey: 'u-1' } }, headers: { 'if-none-match': etag } });
    expect(again.response.status).toBe(304);
    expect((await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', { params: { path: { projectId: 'default', featureName: flag, environment: 'development' } } })).response.status).toBe(200);
    const changed = await until(
      'the answer to change',
      () => bearer(clientToken).POST('/ofrep/v1/evaluate/flags', { body: { context: { targetingKey: 'u-1' } }, headers: { 'if-none-match': etag } }),
      (result) => result.response.status === 200,
    );
    expect(changed.response.headers.get('etag')).not.toBe(etag);
    expect(changed.data!.flags.find((answer) => answer.key === flag)).toMatchObject({ value: false, reason: 'DISABLED' });
  });

  it('answers a browser of an allowed origin with CORS, preflight included', async () => {
    const preflight = await call(app, 'OPTIONS', '/ofrep/v1/evaluate/flags', {
      token: null,
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    const { response } = await bearer(frontendToken).POST('/ofrep/v1/evaluate/flags', { body: {}, headers: { origin: 'https://shop.example' } });
    expect(response.headers.get('access-control-expose-headers')).toMatch(/etag/i);
  });
});

describe('usage', () => {
  const usageOf = (featureName: string, total: number) =>
    until(
      'the evaluations to be counted',
      async () => (await app.admin.GET('/api/admin/client-metrics/features/{featureName}/raw', { params: { path: { featureName } } })).data!.metrics,
      (metrics) => metrics.reduce((sum, bucket) => sum + bucket.yes + bucket.no, 0) === total,
    );
  const sum = (buckets: { yes: number; no: number }[], field: 'yes' | 'no') => buckets.reduce((total, bucket) => total + bucket[field], 0);

  it("counts each evaluation in the flag's usage under the context's appName", async () => {
    const flag = await flagWith(app, unique('usage'), [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['in'] }] }]);
    await evaluate(flag, { appName: 'checkout', targetingKey: 'in' });
    await evaluate(flag, { appName: 'checkout', targetingKey: 'in' });
    await evaluateAll({ appName: 'checkout', targetingKey: 'out' });
    const buckets = (await usageOf(flag, 3)).filter((bucket) => bucket.appName === 'checkout' && bucket.environment === 'development');
    expect([sum(buckets, 'yes'), sum(buckets, 'no')]).toEqual([2, 1]);
  });

  it('counts the variant each evaluation got', async () => {
    const variants = ['red', 'blue'].map((name) => ({ name, weight: 500, weightType: 'variable', stickiness: 'default' }));
    const flag = await flagWith(app, unique('usage-variants'), [{ name: 'default' }], { variants });
    const given: string[] = [];
    for (let i = 0; i < 8; i++) given.push((await evaluate(flag, { appName: 'variants', targetingKey: `user-${i}` })).variant!);
    const [bucket] = await usageOf(flag, 8);
    const expected = Object.fromEntries(['red', 'blue'].map((name) => [name, given.filter((variant) => variant === name).length]).filter(([, n]) => n !== 0));
    expect(bucket!.variants).toEqual(expected);
  });

  it('adds up the evaluations given before and after the flag changed', async () => {
    const flag = await flagWith(app, unique('usage-changed'), [{ name: 'default' }]);
    const given: OfrepAnswer[] = [];
    const one = async () => given[given.push(await evaluate(flag, { appName: 'changing' })) - 1]!;
    const all = async () => given.push((await evaluateAll({ appName: 'changing' })).find((answer) => answer.key === flag)!);
    await one();
    await all();
    await ok(app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', { params: { path: envPath(flag) } }));
    await until('the flag to be off', one, (answer) => answer.reason === 'DISABLED');
    await all();
    const buckets = (await usageOf(flag, given.length)).filter((bucket) => bucket.appName === 'changing');
    expect([sum(buckets, 'yes'), sum(buckets, 'no')]).toEqual([given.filter((answer) => answer.value).length, given.filter((answer) => !answer.value).length]);
    expect(sum(buckets, 'no')).toBeGreaterThanOrEqual(2);
  });
});
