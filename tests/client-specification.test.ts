import { describe, expect, it } from 'vitest';
import { compileFlags, evaluate } from '../domain/evaluation/index.js';
import { specFiles, specState } from './support/client-specification.js';

// Unleash's public client specification: every test of every file its index lists, through the engine.
// No test is excluded.

for (const { file, spec } of specFiles()) {
  describe(file, () => {
    const { features, segments } = specState(spec.state);
    const compiled = compileFlags(features, segments);

    for (const { description, toggleName, context, expectedResult } of spec.tests ?? []) {
      it(description, () => {
        expect(evaluate(compiled, toggleName, context).enabled).toBe(expectedResult);
      });
    }

    for (const { description, toggleName, context, expectedResult } of spec.variantTests ?? []) {
      it(`variant: ${description}`, () => {
        const { variant } = evaluate(compiled, toggleName, context);
        // The fields the spec states; a payload it leaves out must be absent.
        const compared: Record<string, unknown> = { name: variant.name, enabled: variant.enabled, payload: variant.payload };
        if ('feature_enabled' in expectedResult) compared.feature_enabled = variant.feature_enabled;
        if ('featureEnabled' in expectedResult) compared.featureEnabled = variant.featureEnabled;
        expect(compared).toStrictEqual({ payload: undefined, ...expectedResult });
        expect(variant.featureEnabled).toBe(variant.feature_enabled);
      });
    }
  });
}
