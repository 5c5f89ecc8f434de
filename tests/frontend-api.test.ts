// The frontend API (/api/frontend): flags evaluated by the service for a context, with a frontend token.
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../kernel/config.js';
import type { components } from '../client/index.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok, rollout, until } from './support/fixtures.js';
import { enabledNames, flagWith, frontendFlagGet, frontendGet, frontendPost, withFields } from './support/frontend.js';

type FrontendToggles = components['schemas']['FrontendToggles'];

let app: TestApp;
/** A frontend token for development, all projects. */
let token: string;

const unique = uniqueNames();
const { newProject, turnOn } = fixtures(() => app, unique);
const whenField = (contextName: string, values: string[]) => ({ ...rollout(100), constraints: [{ contextName, operator: 'IN' as const, values }] });
/** The ETag of a typed answer. */
const etagOf = (answer: { response: Response }) => String(answer.response.headers.get('etag'));
/** The flag as an answer of the frontend API lists it. */
const toggleOf = (body: FrontendToggles | undefined, name: string) => body!.toggles.find((toggle) => toggle.name === name);
const postContext = (context: Parameters<typeof frontendPost>[2]) => frontendPost(app, token, context);

beforeAll(async () => {
  app = await startTestApp();
  token = await newApiToken(app, { type: 'frontend', environment: 'development' });
});

describe('GET /api/frontend', () => {
  it('lists the flags on for the context, each enabled with the disabled variant when it has no variants', async () => {
    const on = await flagWith(app, unique('on'), [rollout(100)], { impressionData: true });
    const off = await flagWith(app, unique('off'), [rollout(100)], { on: false });
    const none = await flagWith(app, unique('nobody'), [rollout(0)]);
    const response = await frontendGet(app, token, { userId: 'u-1' });
    expect(response.response.status).toBe(200);
    expect(toggleOf(response.data, on)).toEqual({
      name: on,
      enabled: true,
      impressionData: true,
      variant: { name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true },
    });
    expect(toggleOf(response.data, off)).toBeUndefined();
    expect(toggleOf(response.data, none)).toBeUndefined();
  });

  it('lists the flags in name order', async () => {
    const names = await enabledNames(app, token);
    expect(names).toEqual([...names].sort());
  });

  it('reads userId from the query', async () => {
    const flag = await flagWith(app, unique('user'), [whenField('userId', ['alice'])]);
    expect(await enabledNames(app, token, { userId: 'alice' })).toContain(flag);
    expect(await enabledNames(app, token, { userId: 'bob' })).not.toContain(flag);
  });

  it('reads appName, environment and sessionId from the query', async () => {
    const flag = await flagWith(app, unique('fields'), [
      { ...rollout(100), constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }, { contextName: 'environment', operator: 'IN', values: ['staging'] }, { contextName: 'sessionId', operator: 'IN', values: ['s-1'] }] },
    ]);
    expect(await enabledNames(app, token, { appName: 'web', environment: 'staging', sessionId: 's-1' })).toContain(flag);
    expect(await enabledNames(app, token, { appName: 'web', environment: 'staging', sessionId: 's-2' })).not.toContain(flag);
  });

  it('reads properties[x] as the custom field x', async () => {
    const flag = await flagWith(app, unique('plan'), [whenField('plan', ['pro'])]);
    // The typed client sends `properties` as properties[plan]=pro.
    expect(await enabledNames(app, token, { properties: { plan: 'pro' } })).toContain(flag);
    expect(await enabledNames(app, token, { properties: { plan: 'free' } })).not.toContain(flag);
  });

  it('reads any other query parameter as a custom field', async () => {
    const flag = await flagWith(app, unique('tier'), [whenField('tier', ['gold'])]);
    expect(await enabledNames(app, token, withFields({ tier: 'gold' }))).toContain(flag);
  });

  it('lets properties[x] win over a plain parameter x', async () => {
    const flag = await flagWith(app, unique('region'), [whenField('region', ['eu'])]);
    expect(await enabledNames(app, token, withFields({ region: 'us', 'properties[region]': 'eu' }))).toContain(flag);
  });

  it('compares DATE_ constraints with currentTime from the query', async () => {
    const flag = await flagWith(app, unique('launch'), [{ ...rollout(100), constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2030-01-01T00:00:00.000Z' }] }]);
    expect(await enabledNames(app, token, { currentTime: '2031-06-01T00:00:00Z' })).toContain(flag);
    expect(await enabledNames(app, token, { currentTime: '2029-06-01T00:00:00Z' })).not.toContain(flag);
  });

  it('refuses a currentTime that is not a date-time with 400', async () => {
    expectError(await frontendGet(app, token, { currentTime: 'tomorrow' }), 400, 'ValidationError');
  });

  it('gives the flag variant the context gets, with its payload', async () => {
    const flag = await flagWith(app, unique('flag-variant'), [rollout(100)], {
      variants: [{ name: 'blue', weight: 1000, weightType: 'fix', stickiness: 'default', payload: { type: 'json', value: '{"color":"blue"}' } }],
    });
    const response = await frontendGet(app, token, { userId: 'u-7' });
    expect(toggleOf(response.data, flag)!.variant).toEqual({ name: 'blue', enabled: true, payload: { type: 'json', value: '{"color":"blue"}' }, feature_enabled: true, featureEnabled: true });
  });

  it('gives the strategy variant of the strategy that applies, before the flag variants', async () => {
    const flag = await flagWith(app, unique('strategy-variant'), [{ ...rollout(100), variants: [{ name: 'green', weight: 1000, weightType: 'fix', stickiness: 'default' }] }], {
      variants: [{ name: 'blue', weight: 1000, weightType: 'fix', stickiness: 'default' }],
    });
    expect(toggleOf((await frontendGet(app, token, { userId: 'u-7' })).data, flag)!.variant.name).toBe('green');
  });

  it('splits users between variants by their userId, the same way on every request', async () => {
    const flag = await flagWith(app, unique('split'), [rollout(100, 'userId')], {
      variants: [
        { name: 'a', weight: 500, weightType: 'fix', stickiness: 'userId' },
        { name: 'b', weight: 500, weightType: 'fix', stickiness: 'userId' },
      ],
    });
    const variantOf = async (userId: string) => toggleOf((await frontendGet(app, token, { userId })).data, flag)!.variant.name;
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const first = await variantOf(`user-${i}`);
      expect(await variantOf(`user-${i}`)).toBe(first);
      seen.add(first);
    }
    expect([...seen].sort()).toEqual(['a', 'b']);
  });

  it('uses the caller\'s address as remoteAddress when the query gives none', async () => {
    const flag = await flagWith(app, unique('office'), [{ name: 'remoteAddress', parameters: { IPs: '127.0.0.1' } }]);
    expect(await enabledNames(app, token)).toContain(flag);
  });

  it('uses the remoteAddress of the query over the caller\'s address', async () => {
    const flag = await flagWith(app, unique('vpn'), [{ name: 'remoteAddress', parameters: { IPs: '10.1.2.3' } }]);
    expect(await enabledNames(app, token)).not.toContain(flag);
    expect(await enabledNames(app, token, { remoteAddress: '10.1.2.3' })).toContain(flag);
  });

  it('evaluates the flags of the token\'s environment only', async () => {
    const flag = await flagWith(app, unique('prod-only'), [rollout(100)], { environment: 'production' });
    const prodToken = await newApiToken(app, { type: 'frontend', environment: 'production' });
    expect(await enabledNames(app, token)).not.toContain(flag);
    expect(await enabledNames(app, prodToken)).toContain(flag);
  });

  it('evaluates the flags of the token\'s projects only', async () => {
    const project = await newProject('project');
    const inProject = await flagWith(app, unique('in-project'), [rollout(100)], { project });
    const elsewhere = await flagWith(app, unique('elsewhere'), [rollout(100)]);
    const scoped = await newApiToken(app, { type: 'frontend', environment: 'development', projects: [project] });
    expect(await enabledNames(app, scoped)).toEqual([inProject]);
    expect(await enabledNames(app, token)).toEqual(expect.arrayContaining([inProject, elsewhere]));
  });

  it('serves a change on the next request', async () => {
    const flag = await flagWith(app, unique('toggled'), [rollout(100)], { on: false });
    expect(await enabledNames(app, token)).not.toContain(flag);
    await turnOn(flag);
    expect(await enabledNames(app, token)).toContain(flag);
  });

  it('answers no-cache', async () => {
    expect((await frontendGet(app, token)).response.headers.get('cache-control')).toBe('no-cache');
  });
});

describe('ETag', () => {
  it('is the same for the same answer, and If-None-Match with it gives 304 with no body', async () => {
    const first = await frontendGet(app, token, { userId: 'etag-user' });
    const etag = etagOf(first);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(etagOf(await frontendGet(app, token, { userId: 'etag-user' }))).toBe(etag);
    const notModified = await frontendGet(app, token, { userId: 'etag-user' }, { 'if-none-match': etag });
    expect(notModified.response.status).toBe(304);
    // No body: the client reads an answer that is not ok as its text ('').
    expect(notModified.error ?? '').toBe('');
  });

  it('differs for a context that gets another answer', async () => {
    await flagWith(app, unique('etag-flag'), [whenField('userId', ['etag-a'])]);
    const a = await frontendGet(app, token, { userId: 'etag-a' });
    const b = await frontendGet(app, token, { userId: 'etag-b' });
    expect(etagOf(a)).not.toBe(etagOf(b));
    expect((await frontendGet(app, token, { userId: 'etag-b' }, { 'if-none-match': etagOf(a) })).response.status).toBe(200);
  });

  it('changes when a flag change changes the answer', async () => {
    const before = await frontendGet(app, token, { userId: 'etag-change' });
    await flagWith(app, unique('etag-new'), [rollout(100)]);
    const after = await frontendGet(app, token, { userId: 'etag-change' }, { 'if-none-match': etagOf(before) });
    expect(after.response.status).toBe(200);
    expect(etagOf(after)).not.toBe(etagOf(before));
  });
});

describe('POST /api/frontend', () => {
  it('evaluates the context of the body, custom fields in properties or at the top', async () => {
    const flag = await flagWith(app, unique('post'), [
      { ...rollout(100), constraints: [{ contextName: 'userId', operator: 'IN', values: ['carol'] }, { contextName: 'plan', operator: 'IN', values: ['pro'] }, { contextName: 'team', operator: 'IN', values: ['red'] }] },
    ]);
    const on = await ok(postContext({ userId: 'carol', properties: { plan: 'pro' }, team: 'red' }), 200);
    expect(toggleOf(on, flag)).toMatchObject({ name: flag, enabled: true });
    expect(toggleOf(await ok(postContext({ userId: 'carol', properties: { plan: 'free' }, team: 'red' }), 200), flag)).toBeUndefined();
  });

  it('gives the same answer and ETag as GET for the same context', async () => {
    const get = await frontendGet(app, token, { userId: 'same', properties: { plan: 'pro' }, sessionId: 's' });
    const post = await postContext({ userId: 'same', sessionId: 's', properties: { plan: 'pro' } });
    expect(post.data).toEqual(get.data);
    expect(etagOf(post)).toBe(etagOf(get));
  });

  it('evaluates an empty context when the body has none', async () => {
    const flag = await flagWith(app, unique('post-empty'), [rollout(100)]);
    const { data, response } = await app.clientWith(token).POST('/api/frontend', { body: {} });
    expect(response.status).toBe(200);
    expect(toggleOf(data, flag)).toBeDefined();
  });

  it('reads a null field as absent, at the top and in properties, as Unleash does', async () => {
    const notPro = await flagWith(app, unique('null-not-in'), [{ ...rollout(100), constraints: [{ contextName: 'plan', operator: 'NOT_IN', values: ['pro'] }] }]);
    const nullText = await flagWith(app, unique('null-text'), [{ ...rollout(100), constraints: [{ contextName: 'userId', operator: 'IN', values: ['null'] }] }]);
    const teamless = await flagWith(app, unique('null-team'), [{ ...rollout(100), constraints: [{ contextName: 'team', operator: 'NOT_IN', values: ['red'] }] }]);
    const context = { userId: null, sessionId: null, remoteAddress: null, currentTime: null, team: null, properties: { plan: null } };
    const answer = await ok(postContext(context), 200);
    expect(toggleOf(answer, notPro)).toBeDefined();
    expect(toggleOf(answer, teamless)).toBeDefined();
    expect(toggleOf(answer, nullText)).toBeUndefined();
    expect(answer).toEqual(await ok(postContext({}), 200));
  });

  it('refuses a context value that is not a string with 400 naming it', async () => {
    const error = expectError(await call(app, 'POST', '/api/frontend', { token, body: { context: { userId: 42 } } }), 400, 'ValidationError');
    expect(error.message).toContain('userId');
  });
});

describe('GET /api/frontend/features/{featureName}', () => {
  it('answers the flag with its variant when it is on for the context', async () => {
    const flag = await flagWith(app, unique('single'), [whenField('userId', ['dave'])]);
    const response = await frontendFlagGet(app, token, flag, { userId: 'dave' });
    expect(response.response.status).toBe(200);
    expect(response.data).toEqual({ name: flag, enabled: true, impressionData: false, variant: { name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true } });
  });

  it('answers 404 when the flag is off for the context', async () => {
    const flag = await flagWith(app, unique('single-off'), [whenField('userId', ['dave'])]);
    expectError(await frontendFlagGet(app, token, flag, { userId: 'erin' }), 404, 'NotFoundError');
  });

  it('answers 404 for a flag that does not exist', async () => {
    expectError(await frontendFlagGet(app, token, unique('missing')), 404, 'NotFoundError');
  });

  it('answers 404 for a flag outside the token\'s projects', async () => {
    const project = await newProject('other');
    const flag = await flagWith(app, unique('hidden'), [rollout(100)], { project });
    const scoped = await newApiToken(app, { type: 'frontend', environment: 'development', projects: ['default'] });
    expect((await frontendFlagGet(app, token, flag)).response.status).toBe(200);
    expectError(await frontendFlagGet(app, scoped, flag), 404, 'NotFoundError');
  });
});

describe('who may call', () => {
  it('answers 401 without a token', async () => {
    expectError(await frontendGet(app, null), 401, 'AuthenticationRequired');
  });

  it('answers 401 with an unknown token', async () => {
    expectError(await frontendGet(app, `*:development.${randomBytes(28).toString('hex')}`), 401, 'AuthenticationRequired');
  });

  it('answers 403 to a client token', async () => {
    const clientToken = await newApiToken(app, { type: 'client', environment: 'development' });
    const error = expectError(await frontendGet(app, clientToken), 403, 'NoAccessError');
    expect(error.message).toContain('frontend token');
  });

  it('answers 403 to an admin token', async () => {
    expectError(await frontendGet(app, app.adminToken), 403, 'NoAccessError');
  });

  it('refuses the frontend token on the admin API and the client API with 403', async () => {
    expectError(await app.clientWith(token).GET('/api/admin/projects'), 403, 'NoAccessError');
    expectError(await app.clientWith(token).GET('/api/client/features'), 403, 'NoAccessError');
  });

  it('with AUTH_TYPE none, serves a caller without a token the flags of development', async () => {
    const open = await startTestApp({ authType: 'none' });
    const flag = await flagWith(open, unique('open'), [rollout(100)]);
    expect(await enabledNames(open, null)).toContain(flag);
  });
});

describe('metrics and registrations of frontend SDKs', () => {
  it('counts POST /api/frontend/client/metrics with the backend SDKs\' usage, in the token\'s environment', async () => {
    const flag = await flagWith(app, unique('counted'), [rollout(100)]);
    const appName = unique('web');
    const stop = new Date().toISOString();
    const reported = await app.clientWith(token).POST('/api/frontend/client/metrics', {
      body: { appName, instanceId: 'browser', bucket: { start: stop, stop, toggles: { [flag]: { yes: 4, no: 1, variants: { disabled: 5 } } } } },
    });
    expect(reported.response.status, JSON.stringify(reported.error)).toBe(200);
    const raw = async () => (await app.admin.GET('/api/admin/client-metrics/features/{featureName}/raw', { params: { path: { featureName: flag } } })).data!;
    const usage = await until('the frontend metrics', raw, (u) => u.metrics.length > 0);
    expect(usage.metrics).toEqual([expect.objectContaining({ environment: 'development', appName, yes: 4, no: 1, variants: { disabled: 5 } })]);
  });

  it('records POST /api/frontend/client/register as an application instance, the SDK header standing in for sdkVersion', async () => {
    const appName = unique('web-app');
    const registered = await app.clientWith(token).POST('/api/frontend/client/register', {
      headers: { 'unleash-sdk': 'unleash-client-js:3.8.2' },
      body: { appName, instanceId: 'browser', strategies: [], started: new Date().toISOString(), interval: 30_000 },
    });
    expect(registered.response.status, JSON.stringify(registered.error)).toBe(200);
    const read = () => app.admin.GET('/api/admin/metrics/applications/{appName}', { params: { path: { appName } } });
    const application = await until('the application', read, (r) => r.response.status === 200);
    expect(application.data!.instances).toEqual([expect.objectContaining({ instanceId: 'browser', environment: 'development', sdkVersion: 'unleash-client-js:3.8.2' })]);
  });

  it('refuses metrics from a client token with 403', async () => {
    const clientToken = await newApiToken(app, { type: 'client', environment: 'development' });
    const body = { appName: 'web', bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: {} } };
    expectError(await app.clientWith(clientToken).POST('/api/frontend/client/metrics', { body }), 403, 'NoAccessError');
  });
});

/** A raw request with an Origin header, as a browser sends it. */
async function fromBrowser(on: TestApp, method: 'GET' | 'OPTIONS', path: string, headers: Record<string, string>) {
  const response = await request(`${on.url}${path}`, { method, headers });
  await response.body.text();
  return { status: response.statusCode, headers: response.headers };
}

describe('CORS', () => {
  const preflight = {
    origin: 'https://shop.example.com',
    'access-control-request-method': 'GET',
    'access-control-request-headers': 'authorization,if-none-match,unleash-appname,unleash-connection-id,unleash-sdk',
  };

  it('answers a preflight with 204, the methods and the headers asked for, before any credential', async () => {
    const response = await fromBrowser(app, 'OPTIONS', '/api/frontend', preflight);
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-allow-methods'])).toMatch(/GET.*POST/);
    expect(response.headers['access-control-allow-headers']).toBe(preflight['access-control-request-headers']);
    expect(String(response.headers.vary).toLowerCase()).toContain('access-control-request-headers');
    expect(response.headers['access-control-max-age']).toBe('86400');
  });

  it('allows in a preflight the headers an app adds to the SDK\'s (customHeaders), as Unleash does', async () => {
    const requested = 'authorization,content-type,unleash-sdk,x-team,x-shop-release';
    const response = await fromBrowser(app, 'OPTIONS', '/api/frontend/client/metrics', { ...preflight, 'access-control-request-method': 'POST', 'access-control-request-headers': requested });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-headers']).toBe(requested);
  });

  it('answers a preflight for the paths below /api/frontend', async () => {
    const response = await fromBrowser(app, 'OPTIONS', '/api/frontend/client/metrics', { ...preflight, 'access-control-request-method': 'POST' });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('lets any origin read the answer and its ETag by default', async () => {
    const response = await fromBrowser(app, 'GET', '/api/frontend', { origin: 'https://shop.example.com', authorization: token });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-expose-headers']).toLowerCase()).toContain('etag');
  });

  it('lets the browser read a 401 too', async () => {
    const response = await fromBrowser(app, 'GET', '/api/frontend', { origin: 'https://shop.example.com' });
    expect(response.status).toBe(401);
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('sends no CORS header outside the frontend API, and no preflight answer there', async () => {
    const admin = await fromBrowser(app, 'GET', '/api/admin/projects', { origin: 'https://shop.example.com', authorization: app.adminToken });
    expect(admin.status).toBe(200);
    expect(admin.headers['access-control-allow-origin']).toBeUndefined();
    const adminPreflight = await fromBrowser(app, 'OPTIONS', '/api/admin/projects', preflight);
    expect(adminPreflight.status).toBe(404);
    expect(adminPreflight.headers['access-control-allow-origin']).toBeUndefined();
    const client = await fromBrowser(app, 'GET', '/api/client/features', { origin: 'https://shop.example.com', authorization: app.adminToken });
    expect(client.headers['access-control-allow-origin']).toBeUndefined();
  });

  describe('with UNLEASH_FRONTEND_API_ORIGINS set', () => {
    let limited: TestApp;
    let limitedToken: string;
    beforeAll(async () => {
      limited = await startTestApp({ frontendApiOrigins: ['https://shop.example.com', 'http://localhost:3000'] });
      limitedToken = await newApiToken(limited, { type: 'frontend', environment: 'development' });
    });

    it('echoes a listed origin, varying by Origin', async () => {
      const response = await fromBrowser(limited, 'GET', '/api/frontend', { origin: 'http://localhost:3000', authorization: limitedToken });
      expect(response.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      expect(String(response.headers.vary).toLowerCase()).toContain('origin');
    });

    it('gives an origin not listed no Access-Control-Allow-Origin, in the preflight and the answer', async () => {
      const other = { origin: 'https://evil.example.net' };
      expect((await fromBrowser(limited, 'OPTIONS', '/api/frontend', { ...preflight, ...other })).headers['access-control-allow-origin']).toBeUndefined();
      const response = await fromBrowser(limited, 'GET', '/api/frontend', { ...other, authorization: limitedToken });
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});

describe('UNLEASH_FRONTEND_API_ORIGINS', () => {
  it('defaults to any origin', () => {
    expect(configFromEnv({}).frontendApiOrigins).toEqual(['*']);
  });

  it('reads a comma-separated list of origins', () => {
    expect(configFromEnv({ UNLEASH_FRONTEND_API_ORIGINS: 'https://a.example.com, http://localhost:3000' }).frontendApiOrigins).toEqual(['https://a.example.com', 'http://localhost:3000']);
  });

  it.each(['https://a.example.com/', 'https://*.example.com', 'a.example.com', 'https://a.example.com/path'])('refuses to start with %s', (origin) => {
    expect(() => configFromEnv({ UNLEASH_FRONTEND_API_ORIGINS: origin })).toThrow('UNLEASH_FRONTEND_API_ORIGINS');
  });
});
