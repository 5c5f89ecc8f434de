import { describe, expect, it } from 'vitest';
import { compileFlags, evaluate, type EvaluationContext } from '../domain/evaluation/index.js';
import { FlagOutcomes } from '../domain/evaluation/outcomes.js';
import { specFiles, specState } from './support/client-specification.js';

// Unleash's public client specification: every test of every file its index lists, through the engine, one flag at a
// time; and where the context has a userId, every flag at once (FlagOutcomes, what the frontend API and OFREP's
// bulk evaluation use), for the flags that path decides itself. No test is excluded.

/** The flag's variant as every flag decided at once gives it; undefined where that path leaves the flag to `evaluate`. */
function atOnce(outcomes: FlagOutcomes, toggleName: string, context: EvaluationContext) {
  const flag = outcomes.compiled.flags.get(toggleName);
  const slots = new Int32Array(outcomes.compiled.ordered.length);
  if (!flag || !outcomes.decideAll(context, slots) || slots[flag.index]! < 0) return undefined;
  return outcomes.variantOf(slots[flag.index]!);
}

for (const { file, spec } of specFiles()) {
  describe(file, () => {
    const { features, segments } = specState(spec.state);
    const compiled = compileFlags(features, segments);
    const outcomes = new FlagOutcomes(compiled);

    for (const { description, toggleName, context, expectedResult } of spec.tests ?? []) {
      it(description, () => {
        expect(evaluate(compiled, toggleName, context).enabled).toBe(expectedResult);
        const decided = atOnce(outcomes, toggleName, context);
        if (decided) expect(decided.feature_enabled, 'every flag at once').toBe(expectedResult);
      });
    }

    for (const { description, toggleName, context, expectedResult } of spec.variantTests ?? []) {
      it(`variant: ${description}`, () => {
        const decided = atOnce(outcomes, toggleName, context);
        for (const variant of [evaluate(compiled, toggleName, context).variant, ...(decided ? [decided] : [])]) {
          // The fields the spec states; a payload it leaves out must be absent.
          const compared: Record<string, unknown> = { name: variant.name, enabled: variant.enabled, payload: variant.payload };
          if ('feature_enabled' in expectedResult) compared.feature_enabled = variant.feature_enabled;
          if ('featureEnabled' in expectedResult) compared.featureEnabled = variant.featureEnabled;
          expect(compared).toStrictEqual({ payload: undefined, ...expectedResult });
          expect(variant.featureEnabled).toBe(variant.feature_enabled);
        }
      });
    }
  });
}
