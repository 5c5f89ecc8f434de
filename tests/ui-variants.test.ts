// The admin UI's variant weight balancing (ui/src/lib/variants.ts): what the editor shows while one types is
// what the service stores, and what it would refuse is said before sending.
import { describe, expect, it } from 'vitest';
import { normalizeVariants } from '../domain/flags/strategy-rules.js';
import { balanceVariants, percent, variantsBody, variantsProblem, weightOfPercent, type Variant } from '../ui/src/lib/variants.js';

const variableVariant = (name: string): Variant => ({ name, weightType: 'variable', weight: 0 });
const fixedVariant = (name: string, weight: number): Variant => ({ name, weightType: 'fix', weight });
const weights = (variants: Variant[]) => balanceVariants(variants).map((v) => v.weight);

describe('balancing variant weights', () => {
  it('shares 1000 equally between variable variants, the remainder going to the first ones', () => {
    expect(weights([variableVariant('a'), variableVariant('b'), variableVariant('c')])).toEqual([334, 333, 333]);
  });

  it('keeps fixed weights and shares what they leave between the variable ones', () => {
    expect(weights([fixedVariant('a', 200), variableVariant('b'), variableVariant('c')])).toEqual([200, 400, 400]);
  });

  it('gives variable variants nothing when the fixed weights take all of 1000', () => {
    expect(weights([fixedVariant('a', 1000), variableVariant('b')])).toEqual([1000, 0]);
  });

  it('gives variable variants nothing rather than a negative share when fixed weights exceed 1000', () => {
    expect(weights([fixedVariant('a', 700), fixedVariant('b', 400), variableVariant('c')])).toEqual([700, 400, 0]);
  });

  it('balances exactly as the service stores variants, for many mixes of fixed and variable weights', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 300; round++) {
      const count = 1 + random(7);
      const variants = Array.from({ length: count }, (_, i) => (random(3) === 0 ? fixedVariant(`v${i}`, random(1000 / count)) : variableVariant(`v${i}`)));
      if (variantsProblem(variants)) continue;
      const stored = normalizeVariants(variants, 'variants').map((v) => v.weight);
      expect(weights(variants), JSON.stringify(variants)).toEqual(stored);
    }
  });

  it('sends the balanced weights with a stickiness and without an empty payload', () => {
    expect(variantsBody([variableVariant('a'), { ...variableVariant('b'), payload: { type: 'string', value: '' } }])).toEqual([
      { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default' },
      { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default' },
    ]);
  });
});

describe('what the service would refuse', () => {
  it('says when fixed weights add up to more than 100 %', () => {
    expect(variantsProblem([fixedVariant('a', 600), fixedVariant('b', 500), variableVariant('c')])).toBe('The fixed weights add up to 110 %, more than 100 %.');
  });

  it('says when only fixed weights do not add up to 100 %', () => {
    expect(variantsProblem([fixedVariant('a', 300), fixedVariant('b', 300)])).toBe('With only fixed weights they must add up to 100 % (now 60 %).');
  });

  it('names a variant name used twice', () => {
    expect(variantsProblem([variableVariant('a'), variableVariant('a')])).toBe('The name "a" is used twice.');
  });

  it('names a variant whose JSON payload does not parse', () => {
    expect(variantsProblem([{ ...variableVariant('a'), payload: { type: 'json', value: '{nope' } }])).toBe('The JSON payload of "a" does not parse.');
  });

  it('accepts no variants at all', () => {
    expect(variantsProblem([])).toBeUndefined();
  });
});

describe('weights as percentages', () => {
  it('shows a weight out of 1000 as a percentage with at most one decimal', () => {
    expect([percent(333), percent(500), percent(1000)]).toEqual(['33.3 %', '50 %', '100 %']);
  });

  it('reads a typed percentage back as a weight out of 1000', () => {
    expect([weightOfPercent(33.3), weightOfPercent(12.25), weightOfPercent(100)]).toEqual([333, 123, 1000]);
  });
});
