// OFREP answers as JSON: each flag's written once per outcome (variant and reason), and the bulk answer joined from
// them per request, as the frontend API's toggles are.
import type { CompiledFlag } from '../evaluation/compile.js';
import type { EvaluatedVariant, EvaluationContext } from '../evaluation/index.js';
import type { FrontendAnswers } from '../frontend/compiled.js';
import { FragmentList, fragmentOf, type JsonAnswer, type JsonFragment } from '../frontend/fragments.js';
import { evaluationOf, outcomeOf, type OfrepEvaluation } from './resolve.js';
import type { CountedAnswer } from './usage.js';

type Reason = OfrepEvaluation['reason'];

export interface AnswerFragment extends JsonFragment, CountedAnswer {}

/** Per flag, per variant object (the engine shares them: a flag has few), per reason. */
type Fragments = Map<CompiledFlag, Map<Readonly<EvaluatedVariant>, Partial<Record<Reason, AnswerFragment>>>>;

const fragmentsOf = new WeakMap<FrontendAnswers, Fragments>();

function fragmentsFor(answers: FrontendAnswers): Fragments {
  let fragments = fragmentsOf.get(answers);
  if (!fragments) fragmentsOf.set(answers, (fragments = new Map()));
  return fragments;
}

function fragment(fragments: Fragments, flag: CompiledFlag, context: EvaluationContext): AnswerFragment {
  const outcome = outcomeOf(flag, context);
  let byVariant = fragments.get(flag);
  if (!byVariant) fragments.set(flag, (byVariant = new Map()));
  let byReason = byVariant.get(outcome.variant);
  if (!byReason) byVariant.set(outcome.variant, (byReason = {}));
  let found = byReason[outcome.reason];
  if (!found) {
    const evaluation = evaluationOf(flag, outcome);
    found = byReason[outcome.reason] = { ...fragmentOf(evaluation), key: flag.name, enabled: evaluation.metadata.featureEnabled, variant: evaluation.variant };
  }
  return found;
}

/** `{flags}` for the context, as JSON with its validator, and the answers to count. */
export function bulkEvaluation(answers: FrontendAnswers, context: EvaluationContext): JsonAnswer & { counted: CountedAnswer[] } {
  const fragments = fragmentsFor(answers);
  const list = new FragmentList('{"flags":[', ']}');
  const counted: AnswerFragment[] = [];
  for (const flag of answers.compiled.flags.values()) {
    const piece = fragment(fragments, flag, context);
    list.add(piece);
    counted.push(piece);
  }
  return { ...list.finish(), counted };
}

/** One flag's answer for the context, as JSON. */
export const flagEvaluation = (answers: FrontendAnswers, flag: CompiledFlag, context: EvaluationContext): AnswerFragment =>
  fragment(fragmentsFor(answers), flag, context);
