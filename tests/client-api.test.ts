import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components, ServiceClient } from '../client/index.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { appWithClientTokens, fixtures, flagPath, newApiToken } from './support/fixtures.js';
import { metrics, registration } from './support/sdk-reports.js';
import { clientFeatureOn, clientFeaturesOn, clientFeaturesRead, flagNames } from './support/client-api.js';

type ClientMetrics = components['schemas']['ClientMetrics'];

let app: TestApp;
/** Client tokens of the default app, per environment, all projects. */
let devToken: string;
let prodToken: string;

beforeAll(async () => {
  ({ app, devToken, prodToken } = await appWithClientTokens());
});

const unique = uniqueNames();
const { createFlag, newProject, turnOn, turnOff, addStrategy, archiveFlag, flagEnvironment, createSegment, tagFlag } = fixtures(() => app, unique);


const names = (body: { features: { name: string }[] }) => flagNames(body).sort();

/** Raw bytes of a GET, for compressed answers. */
async function rawGet(path: string, headers: Record<string, string>) {
  const response = await request(`${app.url}${path}`, { method: 'GET', headers });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, headers: response.headers, body };
}

describe('GET /api/client/features: shape', () => {
  it('serves each flag in the client shape, from the token environment, without disabled strategies or archived flags', async () => {
    const p = unique('shape');
    const full = `${p}.full`;
    const parent = `${p}.parent`;
    const child = `${p}.child`;
    const archived = `${p}.archived`;

    await createFlag('default', full, { type: 'experiment', description: 'the full one', impressionData: true });
    await addStrategy(full, {
      name: 'flexibleRollout',
      title: 'Half',
      parameters: { rollout: 50, stickiness: 'userId', groupId: full },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] }],
      variants: [{ name: 'blue', weightType: 'variable', stickiness: 'userId', payload: { type: 'json', value: '{"color":"blue"}' } }],
    });
    await addStrategy(full, { name: 'remoteAddress', title: 'off', disabled: true, parameters: { IPs: '10.9.9.9' } });
    await addStrategy(full, { name: 'default', title: 'second' });
    const variants = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants', {
      params: { path: { ...flagPath(full), environment: 'development' } },
      body: [{ name: 'control', weightType: 'variable', payload: { type: 'string', value: 'c' } }],
    });
    expect(variants.response.status, JSON.stringify(variants.error)).toBe(200);
    await turnOn(full, 'development');
    await addStrategy(full, { name: 'remoteAddress', parameters: { IPs: '10.0.0.1' } }, 'production');

    await createFlag('default', parent);
    await createFlag('default', child);
    const dependency = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
      params: { path: flagPath(child) },
      body: { feature: parent, enabled: true },
    });
    expect(dependency.response.status, JSON.stringify(dependency.error)).toBe(200);
    await createFlag('default', archived);
    await turnOn(archived, 'development');
    await archiveFlag('default', archived);

    const storedDev = await flagEnvironment(full);

    const body = await clientFeaturesRead(app, devToken, { namePrefix: p });
    expect(body.version).toBe(1);
    expect(names(body)).toEqual([child, full, parent].sort());

    const feature = body.features.find((f) => f.name === full)!;
    expect(feature).toMatchObject({
      name: full,
      type: 'experiment',
      enabled: true,
      stale: false,
      project: 'default',
      description: 'the full one',
      impressionData: true,
    });
    expect(feature.strategies).toEqual([
      {
        name: 'flexibleRollout',
        parameters: { rollout: '50', stickiness: 'userId', groupId: full },
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'], caseInsensitive: false, inverted: false }],
        variants: storedDev.strategies[0]!.variants,
      },
      { name: 'default', parameters: {}, constraints: [], variants: [] },
    ]);
    expect(feature.strategies[0]!.variants).toMatchObject([{ name: 'blue', weight: 1000, stickiness: 'userId', payload: { type: 'json', value: '{"color":"blue"}' } }]);
    for (const strategy of feature.strategies) {
      for (const key of ['id', 'title', 'sortOrder', 'disabled', 'segments']) expect(strategy).not.toHaveProperty(key);
      for (const value of Object.values(strategy.parameters)) expect(typeof value).toBe('string');
    }
    expect(feature.variants).toEqual(storedDev.variants);
    expect(feature.variants).toMatchObject([{ name: 'control', weight: 1000, payload: { type: 'string', value: 'c' } }]);
    expect(feature.strategy).toBe('flexibleRollout');
    expect(feature.parameters).toEqual({ rollout: '50', stickiness: 'userId', groupId: full });
    expect(feature).not.toHaveProperty('dependencies');

    const childFeature = body.features.find((f) => f.name === child)!;
    expect(childFeature.dependencies).toEqual([{ feature: parent, enabled: true }]);
    expect(body.features.find((f) => f.name === parent)).not.toHaveProperty('dependencies');
    expect(childFeature).toMatchObject({ enabled: false, strategies: [], variants: [], description: null, impressionData: false, type: 'release' });

    // The production token sees production's state of the same flag.
    const production = await clientFeaturesRead(app, prodToken, { namePrefix: p });
    expect(names(production)).toEqual([child, full, parent].sort());
    const inProduction = production.features.find((f) => f.name === full)!;
    expect(inProduction).toMatchObject({ enabled: false, strategy: 'remoteAddress', parameters: { IPs: '10.0.0.1' }, variants: [] });
    expect(inProduction.strategies).toEqual([{ name: 'remoteAddress', parameters: { IPs: '10.0.0.1' }, constraints: [], variants: [] }]);

    // An admin token (all environments) reads development.
    const asAdmin = await clientFeaturesRead(app, app.adminToken, { namePrefix: p });
    expect(asAdmin).toEqual(body);
  });

  it('with AUTH_TYPE none and no Authorization header reads development', async () => {
    const open = await startTestApp({ authType: 'none' });
    const flag = unique('open');
    const onOpen = fixtures(() => open, unique);
    await onOpen.createFlag('default', flag);
    await onOpen.addStrategy(flag, { name: 'default' }, 'production');
    await onOpen.turnOn(flag, 'production');
    await onOpen.addStrategy(flag, { name: 'remoteAddress', parameters: { IPs: '1.2.3.4' } });

    const { data, response } = await clientFeaturesOn(open, null, { namePrefix: flag });
    expect(response.status).toBe(200);
    expect(data!.features).toHaveLength(1);
    expect(data!.features[0]).toMatchObject({ name: flag, enabled: false, strategy: 'remoteAddress', parameters: { IPs: '1.2.3.4' } });
  });
});

describe('GET /api/client/features: project scope', () => {
  let projectA: string;
  let projectB: string;
  let flagA: string;
  let flagB: string;
  let tokenA: string;

  beforeAll(async () => {
    projectA = await newProject('pa');
    projectB = await newProject('pb');
    flagA = `${projectA}.flag`;
    flagB = `${projectB}.flag`;
    await createFlag(projectA, flagA);
    await createFlag(projectB, flagB);
    tokenA = await newApiToken(app, { type: 'client', environment: 'development', projects: [projectA] });
  });

  it('a project token sees only its projects, and the project query cannot widen it', async () => {
    const all = await clientFeaturesRead(app, tokenA);
    expect(all.features.length).toBeGreaterThan(0);
    expect(new Set(all.features.map((f) => f.project))).toEqual(new Set([projectA]));
    expect(names(all)).toEqual([flagA]);

    expect((await clientFeaturesRead(app, tokenA, { project: [projectB] })).features).toEqual([]);
    expect(names(await clientFeaturesRead(app, tokenA, { project: [projectA, projectB] }))).toEqual([flagA]);
    expect((await clientFeaturesRead(app, tokenA, { project: ['default'] })).features).toEqual([]);
  });

  it('an all-projects token with several project values gets each of them (OR)', async () => {
    expect(names(await clientFeaturesRead(app, devToken, { project: [projectA, projectB] }))).toEqual([flagA, flagB].sort());
    expect(names(await clientFeaturesRead(app, devToken, { project: [projectB] }))).toEqual([flagB]);
  });

  it('the single-flag endpoint answers 404 for a flag outside the token projects', async () => {
    const inside = await clientFeatureOn(app, tokenA, flagA);
    expect(inside.response.status).toBe(200);
    expect(inside.data!.name).toBe(flagA);
    expectError(await clientFeatureOn(app, tokenA, flagB), 404, 'NotFoundError');
  });
});

describe('GET /api/client/features: filters', () => {
  it('tag and tag[] select flags with any of the tags, split at the first colon', async () => {
    const p = unique('tags');
    const [f1, f2, f3, f4] = ['one', 'two', 'three', 'none'].map((n) => `${p}.${n}`) as [string, string, string, string];
    for (const f of [f1, f2, f3, f4]) await createFlag('default', f);
    const x = `x-${p}`;
    const y = `y-${p}`;
    const colon = `k:v-${p}`;
    await tagFlag(f1, x);
    await tagFlag(f2, y);
    await tagFlag(f3, colon);

    expect(names(await clientFeaturesRead(app, devToken, { tag: [`simple:${x}`] }))).toEqual([f1]);
    expect(names(await clientFeaturesRead(app, devToken, { 'tag[]': [`simple:${x}`] }))).toEqual([f1]);
    expect(names(await clientFeaturesRead(app, devToken, { tag: [`simple:${x}`, `simple:${y}`] }))).toEqual([f1, f2].sort());
    expect(names(await clientFeaturesRead(app, devToken, { 'tag[]': [`simple:${x}`, `simple:${y}`] }))).toEqual([f1, f2].sort());
    expect(names(await clientFeaturesRead(app, devToken, { tag: [`simple:${colon}`] }))).toEqual([f3]);
    expect(names(await clientFeaturesRead(app, devToken, { tag: [`simple:${colon}`], namePrefix: p }))).toEqual([f3]);

    // Malformed or unknown values match no flag and still answer 200.
    expect((await clientFeaturesRead(app, devToken, { tag: [x] })).features).toEqual([]);
    expect((await clientFeaturesRead(app, devToken, { tag: ['simple'] })).features).toEqual([]);
    expect((await clientFeaturesRead(app, devToken, { tag: [`nosuchtype:${x}`] })).features).toEqual([]);
    expect((await clientFeaturesRead(app, devToken, { project: [unique('nope')] })).features).toEqual([]);
  });

  it('namePrefix is a case-sensitive prefix without wildcards', async () => {
    const p = unique('np');
    const upper = `N${p.slice(1)}.a`;
    const plain = `${p}.b`;
    const underscore = `${p}_c`;
    const other = `${p}Xc`;
    for (const f of [upper, plain, underscore, other]) await createFlag('default', f);

    expect(names(await clientFeaturesRead(app, devToken, { namePrefix: p }))).toEqual([plain, underscore, other].sort());
    expect(names(await clientFeaturesRead(app, devToken, { namePrefix: `N${p.slice(1)}` }))).toEqual([upper]);
    expect(names(await clientFeaturesRead(app, devToken, { namePrefix: `${p}_` }))).toEqual([underscore]);
    expect((await clientFeaturesRead(app, devToken, { namePrefix: `${p}%` })).features).toEqual([]);
    expect((await clientFeaturesRead(app, devToken, { namePrefix: `%${p}` })).features).toEqual([]);
    expect((await clientFeaturesRead(app, devToken, { namePrefix: `_${p.slice(1)}` })).features).toEqual([]);
  });
});

describe('GET /api/client/features: segments', () => {
  it('inlines segment constraints for old or absent client specs and lists segments for spec 4.2.0 and later', async () => {
    const p = unique('seg');
    const flag = `${p}.flag`;
    const segmentConstraint = { contextName: 'userId', operator: 'IN', values: ['u1'], caseInsensitive: false, inverted: false };
    const ownConstraint = { contextName: 'appName', operator: 'IN', values: ['web'], caseInsensitive: false, inverted: false };
    const segment = await createSegment({ name: p, constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }] });
    await createFlag('default', flag);
    await addStrategy(flag, { name: 'default', constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }], segments: [segment.id] });
    await turnOn(flag, 'development');

    const query = { namePrefix: p };
    const inlineHeaders: Record<string, string>[] = [{}, { 'Unleash-Client-Spec': '4.1.0' }, { 'Unleash-Client-Spec': 'not-a-version' }];
    for (const headers of inlineHeaders) {
      const { data, response } = await clientFeaturesOn(app, devToken, query, headers);
      expect(response.status).toBe(200);
      expect(JSON.stringify(data)).not.toContain('"segments"');
      expect(data!.features[0]!.strategies).toEqual([{ name: 'default', parameters: {}, constraints: [ownConstraint, segmentConstraint], variants: [] }]);
    }
    // Without the header, no strategy anywhere carries segments.
    const everything = await clientFeaturesOn(app, devToken);
    expect(JSON.stringify(everything.data)).not.toContain('"segments"');

    for (const spec of ['4.2.0', '5.2.0']) {
      const body = await clientFeaturesRead(app, devToken, query, { 'Unleash-Client-Spec': spec });
      expect(body.features[0]!.strategies).toEqual([{ name: 'default', parameters: {}, constraints: [ownConstraint], variants: [], segments: [segment.id] }]);
      expect(body.segments).toEqual([{ id: segment.id, name: p, constraints: [segmentConstraint] }]);
    }
  });
});

describe('GET /api/client/features: ETag', () => {
  it('is strong and stable, answers 304 to a matching If-None-Match, and changes with the answer only', async () => {
    const p = unique('etag');
    const flag = `${p}.flag`;
    await createFlag('default', flag);
    const query = { namePrefix: p };
    const etagOf = (result: { response: Response }) => result.response.headers.get('etag');

    const first = await clientFeaturesOn(app, devToken, query);
    const etag = etagOf(first)!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(etagOf(await clientFeaturesOn(app, devToken, query))).toBe(etag);
    expect(first.data!.features[0]!.enabled).toBe(false);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, `W/"other",W/${etag}`]) {
      const { error, response } = await clientFeaturesOn(app, devToken, query, { 'If-None-Match': ifNoneMatch });
      expect(response.status, ifNoneMatch).toBe(304);
      // The client reads a non-2xx body as text: the empty string for no body.
      expect(error).toBe('');
    }
    for (const ifNoneMatch of ['"stale:1:v1"', `"${etag.slice(1, -2)}"`, 'W/"other"']) {
      const result = await clientFeaturesOn(app, devToken, query, { 'If-None-Match': ifNoneMatch });
      expect(result.response.status, ifNoneMatch).toBe(200);
      expect(result.data).toEqual(first.data);
      expect(etagOf(result)).toBe(etag);
    }

    // Changes that cannot affect the answer keep the ETag.
    expect((await app.admin.POST('/api/admin/tag-types', { body: { name: unique('tt') } })).response.status).toBe(201);
    await newApiToken(app, { type: 'client', environment: 'development' });
    expect(etagOf(await clientFeaturesOn(app, devToken, query))).toBe(etag);
    expect((await clientFeaturesOn(app, devToken, query, { 'If-None-Match': etag })).response.status).toBe(304);

    // A toggle is seen by the very next request, with a new ETag.
    await turnOn(flag, 'development');
    const toggled = await clientFeaturesOn(app, devToken, query, { 'If-None-Match': etag });
    expect(toggled.response.status).toBe(200);
    expect(toggled.data!.features[0]!.enabled).toBe(true);
    const etag2 = etagOf(toggled)!;
    expect(etag2).toMatch(/^"[^"]+"$/);
    expect(etag2).not.toBe(etag);
    expect((await clientFeaturesOn(app, devToken, query, { 'If-None-Match': etag2 })).response.status).toBe(304);

    await turnOff(flag, 'development');
    const back = await clientFeaturesOn(app, devToken, query, { 'If-None-Match': etag2 });
    expect(back.response.status).toBe(200);
    expect(back.data!.features[0]!.enabled).toBe(false);
    expect(etagOf(back)).not.toBe(etag2);
  });

  it('differs between request shapes', async () => {
    const p = unique('shapes');
    await createFlag('default', `${p}.flag`);
    const plain = await clientFeaturesOn(app, devToken, { namePrefix: p });
    const spec = await clientFeaturesOn(app, devToken, { namePrefix: p }, { 'Unleash-Client-Spec': '5.2.0' });
    const plainEtag = plain.response.headers.get('etag')!;
    expect(plainEtag).not.toBe(spec.response.headers.get('etag'));
    expect((await clientFeaturesOn(app, devToken, { namePrefix: p }, { 'Unleash-Client-Spec': '5.2.0', 'If-None-Match': plainEtag })).response.status).toBe(200);
  });
});

describe('GET /api/client/features: compression', () => {
  it('gzips or brotli-compresses bodies of 1 kB and more, and sets Vary', async () => {
    const p = unique('zip');
    for (let i = 0; i < 8; i++) await createFlag('default', `${p}.flag-${i}`, { description: `flag ${i} `.repeat(20) });
    const path = `/api/client/features?namePrefix=${p}`;

    const plain = await rawGet(path, { authorization: devToken });
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThanOrEqual(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    const json = JSON.parse(plain.body.toString('utf8'));
    expect(json.features).toHaveLength(8);

    const gzip = await rawGet(path, { authorization: devToken, 'accept-encoding': 'gzip' });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(String(gzip.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(json);
    expect(gzip.headers.etag).toBe(plain.headers.etag);

    const br = await rawGet(path, { authorization: devToken, 'accept-encoding': 'br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(json);

    const small = await rawGet(`/api/client/features?namePrefix=${unique('none')}`, { authorization: devToken, 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(String(small.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(small.body.toString('utf8'))).toEqual({ version: 1, features: [] });
  });
});

describe('GET /api/client/features/{featureName}', () => {
  it('answers one flag in the same shape, without version; unknown → 404', async () => {
    const p = unique('one');
    const flag = `${p}.flag`;
    await createFlag('default', flag, { description: 'single' });
    await addStrategy(flag, { name: 'flexibleRollout', parameters: { rollout: 25, stickiness: 'default', groupId: flag } });
    await turnOn(flag, 'development');

    const list = await clientFeaturesRead(app, devToken, { namePrefix: p });
    const { data, response } = await clientFeatureOn(app, devToken, flag);
    expect(response.status).toBe(200);
    expect(data).not.toHaveProperty('version');
    expect(data).toEqual(list.features[0]);
    expect(data).toMatchObject({ name: flag, enabled: true, strategy: 'flexibleRollout', parameters: { rollout: '25' } });

    const production = await clientFeatureOn(app, prodToken, flag);
    expect(production.data!.enabled).toBe(false);

    expectError(await clientFeatureOn(app, devToken, unique('missing')), 404, 'NotFoundError');
    await archiveFlag('default', flag);
    expectError(await clientFeatureOn(app, devToken, flag), 404, 'NotFoundError');
  });
});

describe('client API errors', () => {
  it('no or unknown token → 401, frontend token → 403, all as {id, name, message}', async () => {
    const frontend = await newApiToken(app, { type: 'frontend', environment: 'development' });
    /** Each client API operation, sent by `client`. */
    const requests: ((client: ServiceClient) => Promise<Parameters<typeof expectError>[0]>)[] = [
      (client) => client.GET('/api/client/features'),
      (client) => client.GET('/api/client/features/{featureName}', { params: { path: { featureName: 'anything' } } }),
      (client) => client.POST('/api/client/register', { body: registration('errors-app', 'i-1') }),
      // sdk-reports types the counts loosely (Record<string, unknown>); these are none.
      (client) => client.POST('/api/client/metrics', { body: metrics('errors-app', 'i-1', new Date().toISOString(), {}) as ClientMetrics }),
    ];
    for (const send of requests) {
      for (const token of [undefined, '*:development.not-a-real-token']) {
        const error = expectError(await send(app.clientWith(token)), 401, 'AuthenticationRequired');
        expect(Object.keys(error).sort()).toEqual(['id', 'message', 'name']);
      }
      const error = expectError(await send(app.clientWith(frontend)), 403, 'NoAccessError');
      expect(Object.keys(error).sort()).toEqual(['id', 'message', 'name']);
    }
  });

  it('accepts the token with a Bearer prefix', async () => {
    const { data, response } = await clientFeaturesOn(app, `Bearer ${devToken}`, { namePrefix: unique('bearer') });
    expect(response.status).toBe(200);
    expect(data).toEqual({ version: 1, features: [] });
  });
});
