// The playground's view of one evaluation: every strategy, constraint and segment with its own result, whether
// the dependencies hold, and the variant given. Shaped after Unleash's PlaygroundFeatureSchema. Kept apart from
// the plain path: it evaluates everything (no short-circuit) and allocates freely.
import type { components } from '../../generated/api.js';
import type { CompiledConstraint } from './constraints.js';
import type { CompiledFlag, CompiledFlags, CompiledStrategy, StrategyInput } from './compile.js';
import type { EvaluationContext } from './context.js';
import { dependencySatisfied, variantFor, type Decision } from './evaluate.js';
import { selectVariant, type EvaluatedVariant } from './variants.js';

type ClientConstraint = components['schemas']['ClientConstraint'];
type Dependency = components['schemas']['Dependency'];
type Variant = components['schemas']['Variant'];
type StrategyVariant = components['schemas']['StrategyVariant'];

export type ConstraintExplanation = ClientConstraint & { result: boolean };

export interface SegmentExplanation {
  id: number;
  /** Empty for an id that names no segment. */
  name: string;
  /** False for an id that names no segment. */
  result: boolean;
  constraints: ConstraintExplanation[];
}

/**
 * As Unleash's playground: a built-in strategy is evaluated completely. A custom strategy cannot be: it is
 * `unknown` when its constraints and segments hold and false otherwise, and counts as false for the flag.
 */
export type StrategyResult =
  | { evaluationStatus: 'complete'; enabled: boolean; variant?: Readonly<EvaluatedVariant> }
  | { evaluationStatus: 'incomplete'; enabled: false | 'unknown' };

export interface StrategyExplanation {
  name: string;
  /** The strategy's id when the flags were compiled with it. */
  id: string | undefined;
  title: string | null | undefined;
  parameters: Record<string, string>;
  disabled: false;
  result: StrategyResult;
  constraints: ConstraintExplanation[];
  segments: SegmentExplanation[];
  variants: StrategyVariant[];
}

export type DependencyExplanation = Dependency & { satisfied: boolean };

export interface FlagExplanation {
  name: string;
  projectId: string;
  /** What an SDK answers. */
  isEnabled: boolean;
  /** Whether the flag is switched on in the environment at all. */
  isEnabledInCurrentEnvironment: boolean;
  hasUnsatisfiedDependency: boolean;
  dependencies: DependencyExplanation[];
  strategies: {
    /** True when a strategy applies (or there are none); `unknown` when none does but a custom one might. */
    result: boolean | 'unknown';
    data: StrategyExplanation[];
  };
  variant: Readonly<EvaluatedVariant>;
  variants: Variant[];
  impressionData: boolean;
}

const explainConstraint = ({ source, test }: CompiledConstraint, context: EvaluationContext): ConstraintExplanation => ({
  ...source,
  result: test(context),
});

function explainStrategy(strategy: CompiledStrategy, context: EvaluationContext): StrategyExplanation {
  const source: StrategyInput = strategy.source;
  const constraints = strategy.constraints.map((c) => explainConstraint(c, context));
  const segments = strategy.segments.map(({ id, segment }): SegmentExplanation => {
    if (!segment) return { id, name: '', result: false, constraints: [] };
    const explained = segment.constraints.map((c) => explainConstraint(c, context));
    return { id, name: segment.name, result: explained.every((c) => c.result), constraints: explained };
  });
  const preconditions = constraints.every((c) => c.result) && segments.every((s) => s.result);
  let result: StrategyResult;
  if (strategy.test === null) {
    result = { evaluationStatus: 'incomplete', enabled: preconditions ? 'unknown' : false };
  } else {
    const enabled = preconditions && strategy.test(context);
    const choice = enabled && strategy.variants ? selectVariant(strategy.variants, context) : null;
    result = choice ? { evaluationStatus: 'complete', enabled, variant: choice.answer } : { evaluationStatus: 'complete', enabled };
  }
  return {
    name: source.name,
    id: source.id,
    title: source.title,
    parameters: source.parameters ?? {},
    disabled: false,
    result,
    constraints,
    segments,
    variants: source.variants ?? [],
  };
}

function explainFlag(flag: CompiledFlag, context: EvaluationContext): FlagExplanation {
  const dependencies = flag.dependencies.map((dependency) => ({ ...dependency.source, satisfied: dependencySatisfied(dependency, context) }));
  const data = flag.strategies.map((strategy) => explainStrategy(strategy, context));
  const applying = data.findIndex((s) => s.result.enabled === true);
  const result = flag.strategies.length === 0 || applying >= 0 ? true : data.some((s) => s.result.enabled === 'unknown') ? 'unknown' : false;
  const hasUnsatisfiedDependency = dependencies.some((d) => !d.satisfied);
  const on = flag.enabled && !hasUnsatisfiedDependency && result === true;
  // The same strategy the plain path would pick, so the variant is the one an SDK gives.
  const decision: Decision = !on ? false : applying >= 0 ? (flag.strategies[applying] as CompiledStrategy) : true;
  const fromStrategy = data[applying]?.result;
  const variant = on && fromStrategy && 'variant' in fromStrategy && fromStrategy.variant ? fromStrategy.variant : variantFor(flag, decision, context);
  return {
    name: flag.name,
    projectId: flag.source.project,
    isEnabled: on,
    isEnabledInCurrentEnvironment: flag.enabled,
    hasUnsatisfiedDependency,
    dependencies,
    strategies: { result, data },
    variant,
    variants: flag.source.variants ?? [],
    impressionData: flag.impressionData,
  };
}

/** How the flag is decided for the context, step by step; undefined for an unknown flag. */
export function explain(compiled: CompiledFlags, flagName: string, context: EvaluationContext): FlagExplanation | undefined {
  const flag = compiled.flags.get(flagName);
  return flag && explainFlag(flag, context);
}
