// The playground's answers, shaped as Unleash's playground answers them: each flag with whether it is on, its
// variant and every strategy (in order, disabled ones not evaluated) with its constraints' and segments' results.
import type { components } from '../../generated/api.js';
import { badRequest } from '../../kernel/errors.js';
import { explain, type EvaluationContext, type StrategyExplanation } from '../evaluation/index.js';
import type { EnvironmentFlags } from './flags.js';

type PlaygroundFeature = components['schemas']['PlaygroundFeature'];
type PlaygroundStrategy = components['schemas']['PlaygroundStrategy'];
type PlaygroundContextValues = components['schemas']['PlaygroundContextValues'];

/** At most this many evaluations (environments × flags × context combinations) per advanced request, as in Unleash. */
export const MAX_EVALUATIONS = 15_000;

/** Where Unleash's admin UI edits the strategy. */
const editLink = (project: string, flag: string, environment: string, id: string) =>
  `/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(flag)}/strategies/edit?environmentId=${encodeURIComponent(environment)}&strategyId=${encodeURIComponent(id)}`;

function strategyAnswer(explained: StrategyExplanation, disabled: boolean, project: string, flag: string, environment: string): PlaygroundStrategy {
  const { result } = explained;
  const id = explained.id ?? '';
  return {
    id,
    name: explained.name,
    ...(typeof explained.title === 'string' && { title: explained.title }),
    disabled,
    parameters: explained.parameters,
    result: disabled
      ? { evaluationStatus: 'unevaluated', enabled: 'unknown' }
      : result.evaluationStatus === 'complete' && result.variant
        ? { evaluationStatus: 'complete', enabled: result.enabled, variant: result.variant, variants: explained.variants }
        : { evaluationStatus: result.evaluationStatus, enabled: result.enabled },
    constraints: explained.constraints,
    segments: explained.segments,
    links: { edit: editLink(project, flag, environment, id) },
  };
}

/** One flag of the environment explained for the context. */
export function playgroundFeature(flags: EnvironmentFlags, name: string, context: EvaluationContext): PlaygroundFeature {
  const explained = explain(flags.compiled, name, context)!;
  const disabled = explain(flags.disabled, name, context)?.strategies.data ?? [];
  const answer = (strategy: StrategyExplanation, isDisabled: boolean) => strategyAnswer(strategy, isDisabled, explained.projectId, name, flags.environment);
  const position = (strategy: PlaygroundStrategy) => flags.order.get(strategy.id) ?? 0;
  const data = [...explained.strategies.data.map((s) => answer(s, false)), ...disabled.map((s) => answer(s, true))].sort((a, b) => position(a) - position(b));
  const applying = explained.strategies.data.find((s) => s.result.enabled === true);
  return {
    name,
    projectId: explained.projectId,
    isEnabled: explained.isEnabled,
    isEnabledInCurrentEnvironment: explained.isEnabledInCurrentEnvironment,
    hasUnsatisfiedDependency: explained.hasUnsatisfiedDependency,
    strategies: { result: explained.strategies.result, data },
    variant: explained.variant,
    // The applying strategy's variants when it has some, as Unleash lists them; else the flag's.
    variants: applying?.variants.length ? applying.variants : explained.variants,
  };
}

/**
 * Every context made of one value per field: a field holds a list, or a string whose commas separate values (as
 * in Unleash); custom fields in `properties` are combined too and come out at the top level. The context comes
 * without null fields (domain/evaluation/context-input.ts). 400 when the evaluations would pass MAX_EVALUATIONS.
 */
export function contextCombinations(context: EvaluationContext, evaluationsPerContext: number): Record<string, string>[] {
  const fields: [string, string[]][] = [];
  const add = (field: string, value: PlaygroundContextValues) => fields.push([field, typeof value === 'string' ? value.split(',') : value]);
  for (const [field, value] of Object.entries(context)) {
    if (field !== 'properties') add(field, value as PlaygroundContextValues);
    else for (const [property, values] of Object.entries(value as Record<string, PlaygroundContextValues>)) add(property, values);
  }
  const count = fields.reduce((product, [, values]) => product * values.length, 1);
  const evaluations = count * Math.max(1, evaluationsPerContext);
  if (evaluations > MAX_EVALUATIONS) {
    throw badRequest(
      `This request would make ${evaluations} evaluations (${count} context combinations × ${evaluationsPerContext} flags in all environments), ` +
        `more than ${MAX_EVALUATIONS}: list fewer values, environments or projects.`,
    );
  }
  return fields.reduce<Record<string, string>[]>((all, [field, values]) => all.flatMap((combination) => values.map((value) => ({ ...combination, [field]: value }))), [{}]);
}
