// The playground's answer in words: what a strategy came to, why a flag came out as it did, and the value the context
// had for a constraint's field. Read from the answer, never recomputed. Strategies and operators themselves are said
// as everywhere else, by ui/src/lib/strategy-words.ts and ui/src/lib/constraints.ts.
import type { components } from '../../../../generated/api.js';

export type Feature = components['schemas']['PlaygroundFeature'];
export type Strategy = components['schemas']['PlaygroundStrategy'];
export type ConstraintResult = components['schemas']['PlaygroundConstraint'];
/** One flag's answer in one environment, with the context it was evaluated for (custom fields at the top). */
export type Answer = components['schemas']['AdvancedPlaygroundEnvironmentFeature'];

/** `n` strategies, with the plural right. */
const strategies = (n: number) => `${n} ${n === 1 ? 'strategy' : 'strategies'}`;

/** Why the flag came out as it did, in a sentence. */
export function why(f: Feature): string {
  if (!f.isEnabledInCurrentEnvironment) return 'off in this environment';
  if (f.hasUnsatisfiedDependency) return 'a dependency is not met';
  const n = f.strategies.data.length;
  const { result } = f.strategies;
  if (n === 0) return 'no strategies, so on for everyone';
  if (result === true) return n === 1 ? '1 strategy matched' : `one of ${strategies(n)} matched`;
  if (result === 'unknown') return `${strategies(n)}, none built in matched; a custom one might`;
  return n === 1 ? 'no strategy matched for this context' : `${strategies(n)}, none matched`;
}

/** Whether every constraint of the strategy and of its segments holds. */
const preconditionsHold = (s: Strategy) => s.constraints.every((c) => c.result) && s.segments.every((segment) => segment.result);

/** What the strategy came to for the context, in a short phrase and a sentence saying why. */
export function strategyOutcome(s: Strategy): { matched: boolean; label: string; because: string } {
  if (s.disabled) return { matched: false, label: 'disabled', because: 'Disabled: listed, never applied.' };
  const { enabled, evaluationStatus } = s.result;
  if (evaluationStatus === 'incomplete') {
    return enabled === 'unknown'
      ? { matched: false, label: 'unknown', because: 'Its constraints and segments hold, but it is a custom strategy: only an SDK that implements it can decide (counts as off here).' }
      : { matched: false, label: 'not matched', because: 'A constraint or segment does not hold.' };
  }
  if (enabled === true) return { matched: true, label: 'matched', because: 'Everything it asks for holds, so it applies.' };
  if (!preconditionsHold(s)) return { matched: false, label: 'not matched', because: 'A constraint or segment does not hold.' };
  const rollout = s.name === 'flexibleRollout' || s.name.startsWith('gradualRollout');
  return {
    matched: false,
    label: 'not matched',
    because: rollout
      ? 'Its constraints and segments hold, but the context falls outside the rollout.'
      : 'Its constraints and segments hold, but its own parameters leave the context out.',
  };
}

/** The value the context had for a field (the top level, then `properties`, as the SDKs read it); undefined when not set. */
export function contextValueOf(context: Record<string, unknown>, field: string): string | undefined {
  const top = Object.hasOwn(context, field) ? context[field] : undefined;
  if (typeof top === 'string') return top;
  const properties = context.properties;
  if (typeof properties === 'object' && properties !== null && Object.hasOwn(properties, field)) {
    const value = (properties as Record<string, unknown>)[field];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** The variant the flag gives, in words, or undefined when it gives none. */
export const variantWords = (f: Feature) => (f.isEnabled && f.variant.enabled ? f.variant.name : undefined);
