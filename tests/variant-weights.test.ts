// Variant weights as Unleash computes them: fixed weights kept; what they leave of 1000 shared among the
// variable variants as floor(rest / count), the remainder one each to the first variable variants in order.
// Exact weights for 6 and 7 variants (where rounding instead of flooring shows), summing to 1000.
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();

type Input = { name: string; weightType?: 'fix' | 'variable'; weight?: number };
const variable = (name: string): Input => ({ name, weightType: 'variable' });
const fixed = (name: string, weight: number): Input => ({ name, weightType: 'fix', weight });

async function createFlag(): Promise<string> {
  const name = unique('weights');
  const created = await call(app, 'POST', '/api/admin/projects/default/features', { body: { name } });
  expect(created.status, created.text).toBe(201);
  return name;
}

const environmentPath = (flag: string) => `/api/admin/projects/default/features/${flag}/environments/development`;

/** The weights as stored for flag variants (PUT), as read back, and as served to SDKs. */
async function flagVariantWeights(variants: Input[]): Promise<number[]> {
  const flag = await createFlag();
  const put = await call(app, 'PUT', `${environmentPath(flag)}/variants`, { body: variants });
  expect(put.status, put.text).toBe(200);
  const weights = put.json.variants.map((v: { weight: number }) => v.weight);
  const read = await call(app, 'GET', `${environmentPath(flag)}/variants`);
  expect(read.json.variants.map((v: { weight: number }) => v.weight)).toEqual(weights);
  const served = await call(app, 'GET', `/api/client/features/${flag}`);
  expect(served.json.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual(
    put.json.variants.map((v: { name: string; weight: number }) => [v.name, v.weight]),
  );
  return weights;
}

/** The weights of a strategy's variants, on creation and on update. */
async function strategyVariantWeights(variants: Input[]): Promise<number[]> {
  const flag = await createFlag();
  const created = await call(app, 'POST', `${environmentPath(flag)}/strategies`, { body: { name: 'flexibleRollout', variants: [variable('only')] } });
  expect(created.status, created.text).toBe(200);
  const updated = await call(app, 'PUT', `${environmentPath(flag)}/strategies/${created.json.id}`, { body: { name: 'flexibleRollout', variants } });
  expect(updated.status, updated.text).toBe(200);
  const weights = updated.json.variants.map((v: { weight: number }) => v.weight);
  const again = await call(app, 'POST', `${environmentPath(flag)}/strategies`, { body: { name: 'flexibleRollout', variants } });
  expect(again.json.variants.map((v: { weight: number }) => v.weight)).toEqual(weights);
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
    const flag = await createFlag();
    const put = await call(app, 'PUT', `${environmentPath(flag)}/variants`, { body: [fixed('a', 600), fixed('b', 300)] });
    expect(expectError(put, 400, 'ValidationError').message).toBe('variants: with only fixed weights, they must add up to 1000 (they add up to 900).');
    expect((await call(app, 'GET', `${environmentPath(flag)}/variants`)).json.variants).toEqual([]);
  });
});
