// Variant weights as Unleash computes them: fixed weights kept; what they leave of 1000 shared among the
// variable variants as floor(rest / count), the remainder one each to the first variable variants in order.
// Exact weights for 6 and 7 variants (where rounding instead of flooring shows), summing to 1000.
import type { components } from '../client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { envPath, fixtures } from './support/fixtures.js';

type Variant = components['schemas']['Variant'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const { newFlag, addStrategy } = fixtures(() => app, uniqueNames());

type Input = Pick<Variant, 'name' | 'weightType' | 'weight'>;
const variable = (name: string): Input => ({ name, weightType: 'variable' });
const fixed = (name: string, weight: number): Input => ({ name, weightType: 'fix', weight });

const variantsPath = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants';
const putVariants = (flag: string, variants: Input[]) => app.admin.PUT(variantsPath, { params: { path: envPath(flag) }, body: variants });
const readVariants = async (flag: string) => (await app.admin.GET(variantsPath, { params: { path: envPath(flag) } })).data!.variants;

/** The weights as stored for flag variants (PUT), as read back, and as served to SDKs. */
async function flagVariantWeights(variants: Input[]): Promise<number[]> {
  const flag = await newFlag('weights');
  const put = await putVariants(flag, variants);
  expect(put.response.status, JSON.stringify(put.error)).toBe(200);
  const weights = put.data!.variants.map((v) => v.weight!);
  expect((await readVariants(flag)).map((v) => v.weight)).toEqual(weights);
  const served = await app.admin.GET('/api/client/features/{featureName}', { params: { path: { featureName: flag } } });
  expect(served.data!.variants!.map((v) => [v.name, v.weight])).toEqual(put.data!.variants.map((v) => [v.name, v.weight]));
  return weights;
}

/** The weights of a strategy's variants, on creation and on update. */
async function strategyVariantWeights(variants: Input[]): Promise<number[]> {
  const flag = await newFlag('weights');
  const created = await addStrategy(flag, { name: 'flexibleRollout', variants: [variable('only')] });
  const updated = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
    params: { path: { ...envPath(flag), strategyId: created.id } },
    body: { name: 'flexibleRollout', variants },
  });
  expect(updated.response.status, JSON.stringify(updated.error)).toBe(200);
  const weights = updated.data!.variants!.map((v) => v.weight!);
  const again = await addStrategy(flag, { name: 'flexibleRollout', variants });
  expect(again.variants!.map((v) => v.weight)).toEqual(weights);
  return weights;
}

const sum = (weights: number[]) => weights.reduce((a, b) => a + b, 0);

const cases: [string, Input[], number[]][] = [
  ['7 variable variants: 143 six times, then 142', ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(variable), [143, 143, 143, 143, 143, 143, 142]],
  ['6 variable variants: 167 four times, then 166 twice', ['a', 'b', 'c', 'd', 'e', 'f'].map(variable), [167, 167, 167, 167, 166, 166]],
  [
    '7 variants, one fixed 150 among them: the 850 left is 142 four times, then 141 twice',
    [variable('a'), variable('b'), fixed('c', 150), variable('d'), variable('e'), variable('f'), variable('g')],
    [142, 142, 150, 142, 142, 141, 141],
  ],
  [
    '6 variants, fixed 100 and 199 first: the 701 left is 176, then 175 three times',
    [fixed('a', 100), fixed('b', 199), variable('c'), variable('d'), variable('e'), variable('f')],
    [100, 199, 176, 175, 175, 175],
  ],
  [
    '7 variants, three fixed: the 550 left is 138 twice, then 137 twice',
    [fixed('a', 50), variable('b'), fixed('c', 300), variable('d'), variable('e'), fixed('f', 100), variable('g')],
    [50, 138, 300, 138, 137, 100, 137],
  ],
];

describe('flag variant weights', () => {
  it.each(cases)('%s', async (_case, variants, expected) => {
    const weights = await flagVariantWeights(variants);
    expect(weights).toEqual(expected);
    expect(sum(weights)).toBe(1000);
  });
});

describe('strategy variant weights', () => {
  it.each(cases)('%s', async (_case, variants, expected) => {
    const weights = await strategyVariantWeights(variants);
    expect(weights).toEqual(expected);
    expect(sum(weights)).toBe(1000);
  });
});

describe('fixed weights that take all of 1000', () => {
  it('accepts variants that are all fixed when they add up to exactly 1000, keeping their weights', async () => {
    expect(await flagVariantWeights([fixed('a', 600), fixed('b', 400)])).toEqual([600, 400]);
  });

  it('gives a variable variant 0 when the fixed weights add up to 1000', async () => {
    expect(await flagVariantWeights([fixed('a', 1000), variable('b')])).toEqual([1000, 0]);
  });

  it('refuses variants that are all fixed and add up to less than 1000, naming their total', async () => {
    const flag = await newFlag('weights');
    const put = await putVariants(flag, [fixed('a', 600), fixed('b', 300)]);
    expect(expectError(put, 400, 'ValidationError').message).toBe('variants: with only fixed weights, they must add up to 1000 (they add up to 900).');
    expect(await readVariants(flag)).toEqual([]);
  });
});
