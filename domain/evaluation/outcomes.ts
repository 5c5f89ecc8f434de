// Every flag decided at once, for the endpoints that answer all of them per request (the frontend API, OFREP's bulk
// evaluation), over numbers side by side instead of the compiled objects: a request then reads a few kilobytes in
// order where the objects were scattered over the heap. A flag is kept this way when it is off, on without
// strategies, or decided by one strategy that is a share of users (strategies.ts `UserShare`) over any constraints,
// its variants sticky on the userId (`default` or `userId`) without overrides; its constraints are shared with every
// flag that has an equal one and tested once per request. Any other flag, or a context without a userId, is left to
// `decide` and `variantFor`, which answer the same (tests/evaluation-sdk-agreement.test.ts holds both to the SDK).
import type { CompiledFlag, CompiledFlags } from './compile.js';
import type { CompiledConstraint, ContextTest } from './constraints.js';
import { USER_STICKINESS } from './strategies.js';
import type { EvaluationContext } from './context.js';
import { bucketOfBlocks, IdBlocks, type HashState } from './hashing.js';
import { disabledVariant, type CompiledVariants, type EvaluatedVariant } from './variants.js';

/** A flag's outcomes are numbered from its first slot: off, on without a variant, then each of its variants. */
const [OFF, ON, FIRST_VARIANT] = [0, 1, 2];

/** How a flag is decided here. */
const [LEFT, ALWAYS_OFF, NO_STRATEGIES, ONE_SHARE] = [0, 1, 2, 3];

/**
 * Per flag, side by side: its kind, first slot, strategy hash state, constraints, variant hash state, weight line
 * (its choices in `upTo`), the share's percentage and the line's length.
 */
const [KIND, FIRST_SLOT, S_H1, S_PENDING, S_PENDING_BYTES, S_LENGTH, CHECKS_FROM, CHECKS_TO] = [0, 1, 2, 3, 4, 5, 6, 7];
const [V_H1, V_PENDING, V_PENDING_BYTES, V_LENGTH, CHOICES_FROM, CHOICES_TO, PERCENT, TOTAL_WEIGHT, FIELDS] = [8, 9, 10, 11, 12, 13, 14, 15, 16];

/** Strategy variants with weight, else the flag's; null: on without a variant; undefined: not decided here. */
function variantsOf(flag: CompiledFlag, strategyVariants: CompiledVariants | null): CompiledVariants | null | undefined {
  const chosen = strategyVariants && strategyVariants.totalWeight > 0 ? strategyVariants : flag.variants;
  if (!chosen || chosen.totalWeight <= 0) return null;
  // A weight line in 32 bits keeps the remainder that picks the point an integer one.
  const plain = USER_STICKINESS.has(chosen.stickiness) && chosen.overrides.length === 0 && Number.isInteger(chosen.totalWeight) && chosen.totalWeight <= 0x7fffffff;
  return plain ? chosen : undefined;
}

/** The same constraint (by what it says) is one check, whichever flags and segments hold it. */
const constraintKey = ({ contextName, operator, values, value, inverted, caseInsensitive }: CompiledConstraint['source']) =>
  JSON.stringify([contextName, operator, values, value, inverted, caseInsensitive]);

export class FlagOutcomes {
  /** Outcome slots of all flags. */
  readonly slots: number;
  private readonly fields: Int32Array;
  private readonly upTo: Float64Array;
  private readonly checkIds: Int32Array;
  private readonly checks: ContextTest[] = [];
  /** Per slot, the variant it answers (the shared objects of the compiled flags). */
  private readonly variants: Readonly<EvaluatedVariant>[] = [];
  /** Per check: the request it was tested for, and what it held then. */
  private readonly testedFor: Int32Array;
  private readonly held: Uint8Array;
  private request = 0;
  /** The request's userId, laid out for hashing after every flag's group. */
  private readonly userId = new IdBlocks();

  constructor(readonly compiled: CompiledFlags) {
    const flags = compiled.ordered;
    this.fields = new Int32Array(flags.length * FIELDS);
    const upTo: number[] = [];
    const checkIds: number[] = [];
    const checkIdOf = new Map<string, number>();
    for (const flag of flags) {
      const at = flag.index * FIELDS;
      const strategy = flag.strategies[0];
      const kind = !flag.enabled
        ? ALWAYS_OFF
        : flag.dependencies.length > 0 || flag.strategies.length > 1
          ? LEFT
          : strategy === undefined
            ? NO_STRATEGIES
            : strategy.share && strategy.test && !strategy.missingSegment
              ? ONE_SHARE
              : LEFT;
      const variants = kind === ALWAYS_OFF ? null : variantsOf(flag, strategy?.variants ?? null);
      if (kind === LEFT || variants === undefined) continue;
      this.fields[at + KIND] = kind;
      this.fields[at + FIRST_SLOT] = this.variants.length;
      this.variants.push(disabledVariant.flagOff, disabledVariant.flagOn, ...(variants?.choices.map((choice) => choice.answer) ?? []));
      if (kind === ONE_SHARE) {
        const share = strategy!.share!;
        this.fields[at + PERCENT] = share.percent;
        if (share.buckets) this.keep(at + S_H1, share.buckets.strategyState);
        this.fields[at + CHECKS_FROM] = checkIds.length;
        const constraints = [...strategy!.constraints, ...strategy!.segments.flatMap(({ segment }) => segment!.constraints)];
        for (const constraint of constraints) {
          const key = constraintKey(constraint.source);
          let id = checkIdOf.get(key);
          if (id === undefined) checkIdOf.set(key, (id = this.checks.push(constraint.test) - 1));
          checkIds.push(id);
        }
        this.fields[at + CHECKS_TO] = checkIds.length;
      }
      if (variants) {
        this.keep(at + V_H1, variants.buckets.variantState);
        this.fields[at + TOTAL_WEIGHT] = variants.totalWeight;
        this.fields[at + CHOICES_FROM] = upTo.length;
        for (const choice of variants.choices) upTo.push(choice.upTo);
        this.fields[at + CHOICES_TO] = upTo.length;
      }
    }
    this.slots = this.variants.length;
    this.upTo = Float64Array.from(upTo);
    this.checkIds = Int32Array.from(checkIds);
    this.testedFor = new Int32Array(this.checks.length);
    this.held = new Uint8Array(this.checks.length);
  }

  /**
   * Each flag's outcome slot for the context into `slots` (by flag index), or -1 for a flag `decide` must decide.
   * False, with nothing written, for a context without a userId (stickiness would read other fields).
   */
  decideAll(context: EvaluationContext, slots: Int32Array): boolean {
    const userId = context.userId;
    if (typeof userId !== 'string' || userId === '') return false;
    const request = this.nextRequest();
    this.userId.set(userId);
    const fields = this.fields;
    const count = this.compiled.ordered.length;
    for (let flag = 0, at = 0; flag < count; flag++, at += FIELDS) {
      const kind = fields[at + KIND];
      if (kind === LEFT) slots[flag] = -1;
      else if (kind === ALWAYS_OFF || (kind === ONE_SHARE && !(this.checksHold(at, context, request) && this.shareHolds(at)))) {
        slots[flag] = fields[at + FIRST_SLOT]! + OFF;
      } else slots[flag] = this.variantSlot(at);
    }
    return true;
  }

  /** The variant a slot answers: `disabledVariant.flagOff` for a flag that is off. */
  variantOf(slot: number): Readonly<EvaluatedVariant> {
    return this.variants[slot]!;
  }

  private keep(at: number, state: HashState): void {
    [this.fields[at], this.fields[at + 1], this.fields[at + 2], this.fields[at + 3]] = [state.h1, state.pending, state.pendingBytes, state.length];
  }

  private nextRequest(): number {
    if (this.request === 0x7fffffff) {
      this.testedFor.fill(0);
      this.request = 0;
    }
    return ++this.request;
  }

  private checksHold(at: number, context: EvaluationContext, request: number): boolean {
    const { checkIds, testedFor, held } = this;
    for (let i = this.fields[at + CHECKS_FROM]!, to = this.fields[at + CHECKS_TO]!; i < to; i++) {
      const id = checkIds[i]!;
      if (testedFor[id] !== request) {
        held[id] = this.checks[id]!(context) ? 1 : 0;
        testedFor[id] = request;
      }
      if (held[id] === 0) return false;
    }
    return true;
  }

  private shareHolds(at: number): boolean {
    const percent = this.fields[at + PERCENT]!;
    if (percent >= 100) return true;
    if (percent <= 0) return false;
    const f = this.fields;
    return bucketOfBlocks(f[at + S_H1]!, f[at + S_PENDING]!, f[at + S_PENDING_BYTES]!, f[at + S_LENGTH]!, this.userId, 100) <= percent;
  }

  /** ON without variants; else the variant at the userId's point on the weight line (-1 past its end: left to `decide`). */
  private variantSlot(at: number): number {
    const f = this.fields;
    const from = f[at + CHOICES_FROM]!;
    const to = f[at + CHOICES_TO]!;
    if (from === to) return f[at + FIRST_SLOT]! + ON;
    const point = bucketOfBlocks(f[at + V_H1]!, f[at + V_PENDING]!, f[at + V_PENDING_BYTES]!, f[at + V_LENGTH]!, this.userId, f[at + TOTAL_WEIGHT]!);
    for (let choice = from; choice < to; choice++) if (this.upTo[choice]! >= point) return f[at + FIRST_SLOT]! + FIRST_VARIANT + (choice - from);
    return -1;
  }
}
