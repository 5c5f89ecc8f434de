// The playground's answer in words: a strategy as a sentence, what it came to, why a flag came out as it did, and the
// value the context had for a constraint's field. Read from the answer, never recomputed.
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

/** A comma-separated list parameter, as the SDKs split it. */
const listOf = (value: string | undefined) => (value ?? '').split(/\s*,\s*/).filter(Boolean);

/** Who a rollout's stickiness counts. */
function stickinessWords(stickiness: string | undefined): string {
  if (!stickiness || stickiness === 'default') return 'userId, else sessionId';
  if (stickiness === 'random') return 'chance (random)';
  return stickiness;
}

/** The strategy as a person would say it: "Gradual rollout 25% by userId", "User IDs: alice, bob". */
export function strategyWords(strategy: Pick<Strategy, 'name' | 'parameters'>): string {
  const p = strategy.parameters;
  switch (strategy.name) {
    case 'default':
      return 'Standard (on for everyone)';
    case 'flexibleRollout':
      return `Gradual rollout ${p.rollout ?? '100'}% by ${stickinessWords(p.stickiness)}`;
    case 'userWithId':
      return `User IDs: ${listOf(p.userIds).join(', ') || 'none'}`;
    case 'gradualRolloutUserId':
      return `Gradual rollout ${p.percentage ?? '0'}% by userId`;
    case 'gradualRolloutSessionId':
      return `Gradual rollout ${p.percentage ?? '0'}% by sessionId`;
    case 'gradualRolloutRandom':
      return `Random ${p.percentage ?? '0'}%`;
    case 'remoteAddress':
      return `IP addresses: ${listOf(p.IPs).join(', ') || 'none'}`;
    case 'applicationHostname':
      return `Hosts: ${listOf(p.hostNames).join(', ') || 'none'}`;
    default: {
      const parameters = Object.entries(p).map(([name, value]) => `${name} ${value}`);
      return `Custom strategy ${strategy.name}${parameters.length ? ` (${parameters.join(', ')})` : ''}`;
    }
  }
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

type Operator = ConstraintResult['operator'];

/** Each operator in words, as it reads plainly and inverted. */
const OPERATORS: Record<Operator, [plain: string, inverted: string]> = {
  IN: ['is one of', 'is not one of'],
  NOT_IN: ['is not one of', 'is one of'],
  STR_STARTS_WITH: ['starts with', 'does not start with'],
  STR_ENDS_WITH: ['ends with', 'does not end with'],
  STR_CONTAINS: ['contains', 'does not contain'],
  REGEX: ['matches the regular expression', 'does not match the regular expression'],
  NUM_EQ: ['equals', 'does not equal'],
  NUM_GT: ['is greater than', 'is not greater than'],
  NUM_GTE: ['is at least', 'is not at least'],
  NUM_LT: ['is less than', 'is not less than'],
  NUM_LTE: ['is at most', 'is not at most'],
  DATE_AFTER: ['is after', 'is not after'],
  DATE_BEFORE: ['is before', 'is not before'],
  SEMVER_EQ: ['is version', 'is not version'],
  SEMVER_GT: ['is a version after', 'is not a version after'],
  SEMVER_GTE: ['is at least version', 'is not at least version'],
  SEMVER_LT: ['is a version before', 'is not a version before'],
  SEMVER_LTE: ['is at most version', 'is not at most version'],
};

/** The constraint's operator in words ("is one of", "does not start with"), "ignoring case" where it says so. */
export function operatorWords(c: Pick<ConstraintResult, 'operator' | 'inverted' | 'caseInsensitive'>): string {
  const words = OPERATORS[c.operator]?.[c.inverted ? 1 : 0] ?? `${c.inverted ? 'not ' : ''}${c.operator}`;
  const ignoresCase = c.caseInsensitive && (c.operator.startsWith('STR_') || c.operator === 'REGEX');
  return ignoresCase ? `${words} (ignoring case)` : words;
}

/** The values the constraint compares with: its list, or its one value. */
export const constraintValues = (c: Pick<ConstraintResult, 'operator' | 'values' | 'value'>): string[] =>
  c.operator === 'IN' || c.operator === 'NOT_IN' || c.operator.startsWith('STR_') ? c.values : c.value !== undefined ? [c.value] : c.values;
