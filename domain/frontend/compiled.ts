// What the frontend API evaluates: the flags a token shape sees, compiled once per snapshot (so once per change),
// with the JSON of each flag's answer written once per variant. A request then costs one evaluation of every flag
// and a concatenation; never a database read.
import type { ServedSnapshots } from '../client-features/cache.js';
import { clientFeatures, shapeKey, type Shape } from '../client-features/body.js';
import type { Snapshot } from '../client-features/snapshot.js';
import { JsonPieces, type JsonAnswer } from './fragments.js';
import { compileFlags, evaluate, type CompiledFlags, type EvaluatedVariant, type Evaluation, type EvaluationContext } from '../evaluation/index.js';
import type { CompiledFlag } from '../evaluation/compile.js';
import { decide, variantFor } from '../evaluation/evaluate.js';
import { FlagOutcomes } from '../evaluation/outcomes.js';
import { disabledVariant } from '../evaluation/variants.js';

const [TOGGLES_OPENING, ARRAY_CLOSING] = [Buffer.from('{"toggles":['), Buffer.from(']}')];

/** What `toggleOfSlot` holds for a slot not met yet, and for a flag that is off. */
const [UNKNOWN, OFF] = [-1, -2];

/** Token shapes remembered; past this, the oldest half is forgotten. */
const MAX_SHAPES = 200;

/** A flag that is on, as the frontend API lists it. */
export interface FrontendToggle {
  name: string;
  enabled: true;
  variant: Readonly<EvaluatedVariant>;
  impressionData: boolean;
}

const toggleOf = (answer: Evaluation): FrontendToggle => ({ name: answer.name, enabled: true, variant: answer.variant, impressionData: answer.impressionData });

/** The flags of one token shape in one snapshot, compiled, with their answers' JSON as it is first needed. */
export class FrontendAnswers {
  readonly compiled: CompiledFlags;
  /** Per flag index, its toggle's piece per variant object (the engine shares them: a flag has few). */
  private readonly toggles: (Map<Readonly<EvaluatedVariant>, number> | undefined)[] = [];
  private readonly pieces = new JsonPieces();
  /** Every flag decided at once (the bulk answers). */
  readonly outcomes: FlagOutcomes;
  /** Per outcome slot, the toggle's piece (OFF for none) once known; and each request's slots, by flag index. */
  private readonly slots: Int32Array;
  private readonly toggleOfSlot: Int32Array;

  constructor(
    readonly snapshot: Snapshot,
    shape: Shape,
  ) {
    const served = clientFeatures(snapshot, { ...shape, inlineSegments: false });
    this.compiled = compileFlags(served.features, 'segments' in served ? served.segments : []);
    this.outcomes = new FlagOutcomes(this.compiled);
    this.slots = new Int32Array(this.compiled.ordered.length);
    this.toggleOfSlot = new Int32Array(this.outcomes.slots).fill(UNKNOWN);
  }

  /** `{toggles}` for the context, as JSON: the flags on for it, in name order. */
  answer(context: EvaluationContext): JsonAnswer {
    const flags = this.compiled.ordered;
    const on: number[] = [];
    const decided = this.outcomes.decideAll(context, this.slots);
    for (let i = 0; i < flags.length; i++) {
      const slot = decided ? this.slots[i]! : -1;
      const toggle = slot < 0 ? this.toggleFor(flags[i]!, context) : this.toggleIn(slot, flags[i]!);
      if (toggle >= 0) on.push(toggle);
    }
    return this.pieces.join(on, on.length, TOGGLES_OPENING, ARRAY_CLOSING);
  }

  /** The toggle's piece when the flag is on for the context; negative when off. */
  private toggleFor(flag: CompiledFlag, context: EvaluationContext): number {
    const decision = decide(flag, context);
    return decision === false ? OFF : this.toggleJson(flag, variantFor(flag, decision, context));
  }

  /** The same for an outcome slot of the flag. */
  private toggleIn(slot: number, flag: CompiledFlag): number {
    let toggle = this.toggleOfSlot[slot]!;
    if (toggle === UNKNOWN) {
      const variant = this.outcomes.variantOf(slot);
      this.toggleOfSlot[slot] = toggle = variant === disabledVariant.flagOff ? OFF : this.toggleJson(flag, variant);
    }
    return toggle;
  }

  /** The flag as the frontend API lists it, when it is on for the context. */
  toggle(name: string, context: EvaluationContext): FrontendToggle | undefined {
    const answer = evaluate(this.compiled, name, context);
    return answer.enabled ? toggleOf(answer) : undefined;
  }

  private toggleJson(flag: CompiledFlag, variant: Readonly<EvaluatedVariant>): number {
    const byVariant = (this.toggles[flag.index] ??= new Map());
    let toggle = byVariant.get(variant);
    if (toggle === undefined) {
      toggle = this.pieces.add(toggleOf({ name: flag.name, enabled: true, variant, impressionData: flag.impressionData }));
      byVariant.set(variant, toggle);
    }
    return toggle;
  }
}

/** The compiled flags of every token shape that asked, each rebuilt when the snapshot changes. */
export class FrontendFlags {
  private entries = new Map<string, FrontendAnswers>();

  constructor(private readonly cache: ServedSnapshots) {}

  async answers(shape: Shape, key = shapeKey(shape)): Promise<FrontendAnswers> {
    const snapshot = await this.cache.current();
    let entry = this.entries.get(key);
    if (entry?.snapshot !== snapshot) {
      entry = new FrontendAnswers(snapshot, shape);
      if (this.entries.size >= MAX_SHAPES) this.entries = new Map([...this.entries].slice(MAX_SHAPES / 2));
      this.entries.set(key, entry);
    }
    return entry;
  }
}

const perCache = new WeakMap<ServedSnapshots, FrontendFlags>();

/** The frontend flags served from this client-feature cache (one per running app). */
export function frontendFlags(cache: ServedSnapshots): FrontendFlags {
  let flags = perCache.get(cache);
  if (!flags) perCache.set(cache, (flags = new FrontendFlags(cache)));
  return flags;
}
