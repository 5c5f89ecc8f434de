// OFREP answers as JSON: each flag's written once per outcome (the deciding strategy and the variant), and the bulk
// answer joined from them per request, as the frontend API's toggles are. Finding a known answer costs two array
// reads and, for a flag whose variant varies, one map lookup: no per-request object, no reason worked out again.
import type { CompiledFlag } from '../evaluation/compile.js';
import { decide, variantFor, type Decision } from '../evaluation/evaluate.js';
import type { EvaluatedVariant, EvaluationContext } from '../evaluation/index.js';
import type { FrontendAnswers } from '../frontend/compiled.js';
import type { FlagOutcomes } from '../evaluation/outcomes.js';
import { JsonPieces, type JsonAnswer } from '../frontend/fragments.js';
import { evaluationOf, reasonOf } from './resolve.js';
import type { CountedAnswer } from './usage.js';

/** The answers one decision gave: the first variant's piece, then any other variant's. */
interface DecisionAnswers {
  readonly variant: Readonly<EvaluatedVariant>;
  readonly piece: number;
  others?: Map<Readonly<EvaluatedVariant>, number>;
}

const [FLAGS_OPENING, ARRAY_CLOSING] = [Buffer.from('{"flags":['), Buffer.from(']}')];

/** 0 for off, 1 for on without strategies, 2 + its index for the strategy that let the context in. */
const decisionSlot = (decision: Decision) => (decision === false ? 0 : decision === true ? 1 : 2 + decision.index);

/** The answers written for one FrontendAnswers' flags: their JSON pieces, and what each counts as (by piece number). */
export class OfrepAnswers {
  readonly pieces = new JsonPieces();
  readonly written: CountedAnswer[] = [];
  /** Per flag index, per decision slot. */
  private readonly byFlag: (DecisionAnswers | undefined)[][] = [];
  /** Per outcome slot of `outcomes`, its piece once known (-1 before); and each request's slots, by flag index. */
  private readonly pieceOfSlot: Int32Array;
  private readonly slots: Int32Array;

  constructor(private readonly outcomes: FlagOutcomes) {
    this.pieceOfSlot = new Int32Array(outcomes.slots).fill(-1);
    this.slots = new Int32Array(outcomes.compiled.ordered.length);
  }

  /** Every flag's piece for the context, in the compiled order. */
  all(context: EvaluationContext): number[] {
    const flags = this.outcomes.compiled.ordered;
    const pieces = new Array<number>(flags.length);
    const decided = this.outcomes.decideAll(context, this.slots);
    for (let i = 0; i < flags.length; i++) {
      const slot = decided ? this.slots[i]! : -1;
      if (slot < 0) pieces[i] = this.of(flags[i]!, context);
      else {
        let piece = this.pieceOfSlot[slot]!;
        if (piece < 0) this.pieceOfSlot[slot] = piece = this.of(flags[i]!, context);
        pieces[i] = piece;
      }
    }
    return pieces;
  }

  /** The number of the piece that answers `flag` for the context. */
  of(flag: CompiledFlag, context: EvaluationContext): number {
    const decision = decide(flag, context);
    const variant = variantFor(flag, decision, context);
    const byDecision = (this.byFlag[flag.index] ??= []);
    const slot = decisionSlot(decision);
    const known = byDecision[slot];
    if (known === undefined) return (byDecision[slot] = { variant, piece: this.write(flag, decision, variant) }).piece;
    if (known.variant === variant) return known.piece;
    known.others ??= new Map();
    let piece = known.others.get(variant);
    if (piece === undefined) known.others.set(variant, (piece = this.write(flag, decision, variant)));
    return piece;
  }

  private write(flag: CompiledFlag, decision: Decision, variant: Readonly<EvaluatedVariant>): number {
    const evaluation = evaluationOf(flag, { variant, reason: reasonOf(flag, decision) });
    this.written.push({ key: flag.name, enabled: evaluation.metadata.featureEnabled, variant: evaluation.variant });
    return this.pieces.add(evaluation);
  }
}

const answersOf = new WeakMap<FrontendAnswers, OfrepAnswers>();

/** The OFREP answers of these compiled flags (one table per token shape and snapshot). */
export function ofrepAnswers(answers: FrontendAnswers): OfrepAnswers {
  let table = answersOf.get(answers);
  if (!table) answersOf.set(answers, (table = new OfrepAnswers(answers.outcomes)));
  return table;
}

/** `{flags}` for the context, as JSON with its validator, and the pieces to count with the table they are from. */
export function bulkEvaluation(answers: FrontendAnswers, context: EvaluationContext): JsonAnswer & { table: readonly CountedAnswer[]; counted: number[] } {
  const table = ofrepAnswers(answers);
  const counted = table.all(context);
  return { ...table.pieces.join(counted, counted.length, FLAGS_OPENING, ARRAY_CLOSING), table: table.written, counted };
}
