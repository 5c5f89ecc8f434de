// OFREP answers as JSON: each flag's written once per outcome (the deciding strategy and the variant), and the bulk
// answer joined from them per request, as the frontend API's toggles are. Finding a known answer costs two array
// reads and, for a flag whose variant varies, one map lookup: no per-request object, no reason worked out again.
import type { CompiledFlag } from '../evaluation/compile.js';
import { decide, variantFor, type Decision } from '../evaluation/evaluate.js';
import type { EvaluatedVariant, EvaluationContext } from '../evaluation/index.js';
import type { FrontendAnswers } from '../frontend/compiled.js';
import { FragmentList, fragmentOf, type JsonAnswer, type JsonFragment } from '../frontend/fragments.js';
import { evaluationOf, reasonOf } from './resolve.js';
import type { CountedAnswer } from './usage.js';

export interface AnswerFragment extends JsonFragment, CountedAnswer {}

/** The answers one decision gave: the first variant's, then any other variant's. */
interface DecisionAnswers {
  readonly variant: Readonly<EvaluatedVariant>;
  readonly fragment: AnswerFragment;
  others?: Map<Readonly<EvaluatedVariant>, AnswerFragment>;
}

const [FLAGS_OPENING, ARRAY_CLOSING] = [Buffer.from('{"flags":['), Buffer.from(']}')];

/** 0 for off, 1 for on without strategies, 2 + its index for the strategy that let the context in. */
const decisionSlot = (decision: Decision) => (decision === false ? 0 : decision === true ? 1 : 2 + decision.index);

/** The answers written for one FrontendAnswers' flags, numbered in the order written (what counting indexes). */
export class OfrepAnswers {
  readonly written: AnswerFragment[] = [];
  /** Per flag index, per decision slot. */
  private readonly byFlag: (DecisionAnswers | undefined)[][] = [];

  of(flag: CompiledFlag, context: EvaluationContext): AnswerFragment {
    const decision = decide(flag, context);
    const variant = variantFor(flag, decision, context);
    const byDecision = (this.byFlag[flag.index] ??= []);
    const slot = decisionSlot(decision);
    const known = byDecision[slot];
    if (known === undefined) return (byDecision[slot] = { variant, fragment: this.write(flag, decision, variant) }).fragment;
    if (known.variant === variant) return known.fragment;
    known.others ??= new Map();
    let fragment = known.others.get(variant);
    if (fragment === undefined) known.others.set(variant, (fragment = this.write(flag, decision, variant)));
    return fragment;
  }

  private write(flag: CompiledFlag, decision: Decision, variant: Readonly<EvaluatedVariant>): AnswerFragment {
    const evaluation = evaluationOf(flag, { variant, reason: reasonOf(flag, decision) });
    const fragment = { ...fragmentOf(evaluation), slot: this.written.length, key: flag.name, enabled: evaluation.metadata.featureEnabled, variant: evaluation.variant };
    this.written.push(fragment);
    return fragment;
  }
}

const answersOf = new WeakMap<FrontendAnswers, OfrepAnswers>();

/** The OFREP answers of these compiled flags (one table per token shape and snapshot). */
export function ofrepAnswers(answers: FrontendAnswers): OfrepAnswers {
  let table = answersOf.get(answers);
  if (!table) answersOf.set(answers, (table = new OfrepAnswers()));
  return table;
}

/** `{flags}` for the context, as JSON with its validator, and the answers to count with the table they are from. */
export function bulkEvaluation(answers: FrontendAnswers, context: EvaluationContext): JsonAnswer & { table: AnswerFragment[]; counted: AnswerFragment[] } {
  const table = ofrepAnswers(answers);
  const list = new FragmentList<AnswerFragment>(FLAGS_OPENING, ARRAY_CLOSING);
  for (const flag of answers.compiled.flags.values()) list.add(table.of(flag, context));
  return { ...list.finish(), table: table.written, counted: list.items };
}
