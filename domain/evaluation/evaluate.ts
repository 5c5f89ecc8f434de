// The plain path: is a flag on for a context, and which variant does it get. What the SDKs' client.js decides,
// over compiled flags, allocating nothing but the answer.
import type { CompiledDependency, CompiledFlag, CompiledFlags, CompiledStrategy } from './compile.js';
import type { EvaluationContext } from './context.js';
import { disabledVariant, selectVariant, type EvaluatedVariant } from './variants.js';

/** A flag's answer for a context: what the frontend API returns per flag. */
export interface Evaluation {
  name: string;
  enabled: boolean;
  variant: Readonly<EvaluatedVariant>;
  impressionData: boolean;
}

/**
 * false: off. true: on because it has no strategies. A strategy: the first that applies, which may pick the
 * variant.
 */
export type Decision = boolean | CompiledStrategy;

/** Whether a strategy applies: every constraint and segment constraint holds, and the strategy lets the context in. */
export function strategyApplies(strategy: CompiledStrategy, context: EvaluationContext): boolean {
  if (strategy.test === null || strategy.missingSegment) return false;
  for (const check of strategy.checks) if (!check(context)) return false;
  return strategy.test(context);
}

export function decide(flag: CompiledFlag, context: EvaluationContext): Decision {
  if (!flag.enabled) return false;
  if (flag.dependencies.length > 0 && !flag.dependencies.every((dependency) => dependencySatisfied(dependency, context))) return false;
  if (flag.strategies.length === 0) return true;
  for (const strategy of flag.strategies) if (strategyApplies(strategy, context)) return strategy;
  return false;
}

/**
 * A parent must exist and have no parents itself (Unleash allows one level). It must be on, and give one of the
 * listed variants when some are listed; or be off when the dependency says `enabled: false`.
 */
export function dependencySatisfied({ source, parent }: CompiledDependency, context: EvaluationContext): boolean {
  if (!parent || parent.dependencies.length > 0) return false;
  const parentDecision = decide(parent, context);
  if (source.enabled === false) return parentDecision === false;
  if (source.variants?.length) return parentDecision !== false && source.variants.includes(variantFor(parent, parentDecision, context).name);
  return parentDecision !== false;
}

/** Strategy variants of the deciding strategy win; then the flag's variants; else the `disabled` variant. */
export function variantFor(flag: CompiledFlag, decision: Decision, context: EvaluationContext): Readonly<EvaluatedVariant> {
  if (decision === false) return disabledVariant.flagOff;
  if (decision !== true && decision.variants) {
    const choice = selectVariant(decision.variants, context);
    if (choice) return choice.answer;
  }
  const choice = flag.variants && selectVariant(flag.variants, context);
  return choice ? choice.answer : disabledVariant.flagOn;
}

const unknownFlag = (name: string): Evaluation => ({ name, enabled: false, variant: disabledVariant.flagOff, impressionData: false });

function answer(flag: CompiledFlag, context: EvaluationContext): Evaluation {
  const decision = decide(flag, context);
  return { name: flag.name, enabled: decision !== false, variant: variantFor(flag, decision, context), impressionData: flag.impressionData };
}

/** The flag's answer; an unknown flag is off. The variant object is shared: do not change it. */
export function evaluate(compiled: CompiledFlags, flagName: string, context: EvaluationContext): Evaluation {
  const flag = compiled.flags.get(flagName);
  return flag ? answer(flag, context) : unknownFlag(flagName);
}

/** Only whether the flag is on: skips picking a variant. */
export function isEnabled(compiled: CompiledFlags, flagName: string, context: EvaluationContext): boolean {
  const flag = compiled.flags.get(flagName);
  return flag !== undefined && decide(flag, context) !== false;
}

/** Every flag's answer, in compile order (the frontend API keeps the enabled ones). */
export function evaluateAll(compiled: CompiledFlags, context: EvaluationContext): Evaluation[] {
  const answers: Evaluation[] = [];
  for (const flag of compiled.flags.values()) answers.push(answer(flag, context));
  return answers;
}
