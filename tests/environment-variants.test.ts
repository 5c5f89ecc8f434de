import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { envPath, fixtures } from './support/fixtures.js';

type Variant = components['schemas']['Variant'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newProject, newFlag, flagEnvironment, setVariants } = fixtures(() => app, unique);

const { latestEventId, eventsSince } = eventReader(() => app);

describe('environment variants', () => {
  const variantsPath = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants' as const;
  const at = (featureName: string, environment = 'development', projectId = 'default') => ({ params: { path: envPath(featureName, environment, projectId) } });
  const patchVariants = (featureName: string, body: components['schemas']['JsonPatch']) => app.admin.PATCH(variantsPath, { ...at(featureName), body });

  async function getVariants(featureName: string, environment = 'development') {
    const { data, response } = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants', {
      params: { path: envPath(featureName, environment) },
    });
    expect(response.status).toBe(200);
    return data!;
  }


  it('starts with no variants', async () => {
    const name = await newFlag('ev-empty');
    expect(await getVariants(name)).toEqual({ version: 1, variants: [] });
  });

  it('replaces the variants with PUT, normalising weights, and records the change', async () => {
    const name = await newFlag('ev-put');
    const before = await latestEventId();
    const body = await setVariants(name, [
      { name: 'control', weightType: 'fix', weight: 200, stickiness: 'userId', payload: { type: 'json', value: '{"colour":"red"}' } },
      { name: 'alpha', payload: { type: 'csv', value: 'x,y' }, overrides: [{ contextName: 'userId', values: ['u1', 'u2'] }] },
      { name: 'beta', weightType: 'variable', payload: { type: 'string', value: 'hello' } },
    ]);
    expect(body.version).toBe(1);
    expect(body.variants).toEqual([
      { name: 'control', weight: 200, weightType: 'fix', stickiness: 'userId', payload: { type: 'json', value: '{"colour":"red"}' } },
      { name: 'alpha', weight: 400, weightType: 'variable', stickiness: 'default', payload: { type: 'csv', value: 'x,y' }, overrides: [{ contextName: 'userId', values: ['u1', 'u2'] }] },
      { name: 'beta', weight: 400, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'hello' } },
    ]);
    expect(await getVariants(name)).toEqual(body);
    expect((await flagEnvironment(name)).variants).toEqual(body.variants);
    expect(await getVariants(name, 'production')).toEqual({ version: 1, variants: [] });

    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'feature-environment-variants-updated',
      featureName: name,
      project: 'default',
      environment: 'development',
      data: { variants: body.variants },
      preData: { variants: [] },
    });
  });

  it('accepts a number payload and gives three variable variants 334, 333, 333', async () => {
    const name = await newFlag('ev-three');
    const body = await setVariants(name, [{ name: 'a', payload: { type: 'number', value: '12.5' } }, { name: 'b' }, { name: 'c' }]);
    expect(body.variants.map((v) => v.weight)).toEqual([334, 333, 333]);
    expect(body.variants[0]!.payload).toEqual({ type: 'number', value: '12.5' });
  });

  it('changes the variants with a JSON patch, re-normalising weights, with data and preData', async () => {
    const name = await newFlag('ev-patch');
    const first = await setVariants(name, [{ name: 'a' }, { name: 'b' }]);
    expect(first.variants.map((v) => v.weight)).toEqual([500, 500]);
    const before = await latestEventId();
    const result = await app.admin.PATCH('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants', {
      params: { path: envPath(name) },
      body: [{ op: 'add', path: '/-', value: { name: 'c', weightType: 'fix', weight: 100 } }],
    });
    expect(result.response.status).toBe(200);
    expect(result.data!.version).toBe(1);
    expect(result.data!.variants.map((v) => [v.name, v.weight, v.weightType])).toEqual([
      ['a', 450, 'variable'],
      ['b', 450, 'variable'],
      ['c', 100, 'fix'],
    ]);
    expect(await getVariants(name)).toEqual(result.data);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'feature-environment-variants-updated',
      featureName: name,
      project: 'default',
      environment: 'development',
      data: { variants: result.data!.variants },
      preData: { variants: first.variants },
    });
  });

  async function expectRefusedKeeping(send: (name: string) => Promise<Parameters<typeof expectError>[0]>, mention: string) {
    const name = await newFlag('ev-bad');
    const existing = await setVariants(name, [{ name: 'kept' }]);
    const before = await latestEventId();
    const error = expectError(await send(name), 400, 'ValidationError');
    expect(error.message).toContain(mention);
    expect(await getVariants(name)).toEqual(existing);
    expect(await eventsSince(before)).toEqual([]);
  }

  it.each<[string, Variant[], string]>([
    ['a json payload that does not parse', [{ name: 'j', payload: { type: 'json', value: 'not json' } }], 'payload'],
    ['a number payload that is not a number', [{ name: 'n', payload: { type: 'number', value: 'many' } }], 'payload'],
    ['duplicate variant names', [{ name: 'same' }, { name: 'same', weightType: 'variable' }], 'same'],
    ['fixed weights above 1000', [{ name: 'x', weightType: 'fix', weight: 1000 }, { name: 'y', weightType: 'fix', weight: 1 }], '1001'],
    ['a weight above 1000', [{ name: 'w', weightType: 'fix', weight: 1001 }], 'weight'],
  ])('refuses %s with 400, keeping the variants', async (_case, variants, mention) => {
    await expectRefusedKeeping((name) => app.admin.PUT(variantsPath, { ...at(name), body: variants }), mention);
  });

  it('refuses an unknown payload type with 400, keeping the variants', async () => {
    // A payload type the types forbid, so sent raw.
    const variants = [{ name: 'p', payload: { type: 'xml', value: '<a/>' } }];
    await expectRefusedKeeping((name) => call(app, 'PUT', `/api/admin/projects/default/features/${name}/environments/development/variants`, { body: variants }), 'type');
  });

  it('names the refused variant by its position in a payload error', async () => {
    const name = await newFlag('ev-bad-position');
    const body: Variant[] = [{ name: 'fine' }, { name: 'broken', payload: { type: 'number', value: 'many' } }];
    const error = expectError(await app.admin.PUT(variantsPath, { ...at(name), body }), 400, 'ValidationError');
    expect(error.message).toBe('variants[1].payload.value: the number payload of "broken" is not a number.');
  });

  it('refuses a patch that does not apply or breaks the schema, keeping the variants', async () => {
    const name = await newFlag('ev-patch-bad');
    const existing = await setVariants(name, [{ name: 'kept' }]);
    const before = await latestEventId();
    expectError(await patchVariants(name, [{ op: 'remove', path: '/5' }]), 400, 'ValidationError');
    expectError(await patchVariants(name, [{ op: 'add', path: '/-', value: { name: 'kept' } }]), 400, 'ValidationError');
    expectError(await patchVariants(name, [{ op: 'add', path: '/0/colour', value: 'red' }]), 400, 'ValidationError');
    expect(await getVariants(name)).toEqual(existing);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 for an unknown flag, environment, or an environment not on the project', async () => {
    const name = await newFlag('ev-missing');
    const devOnly = await newProject('devonly', ['development']);
    const narrow = await newFlag('ev-narrow', devOnly);
    const before = await latestEventId();
    for (const target of [at('ghost-flag'), at(name, 'moon'), at(narrow, 'production', devOnly), at(name, 'development', 'nowhere')]) {
      expectError(await app.admin.GET(variantsPath, target), 404, 'NotFoundError');
      expectError(await app.admin.PUT(variantsPath, { ...target, body: [{ name: 'a' }] }), 404, 'NotFoundError');
      expectError(await app.admin.PATCH(variantsPath, { ...target, body: [{ op: 'add', path: '/-', value: { name: 'a' } }] }), 404, 'NotFoundError');
    }
    expect(await eventsSince(before)).toEqual([]);
  });
});
