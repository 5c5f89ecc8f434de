// Variants: which one a context gets, as the SDKs' variant.js picks it. Overrides first, then a point on the
// weight line from the stickiness value hashed with the variant seed. Weights are used as served: the service
// already turned `variable` weights into numbers when the variants were written (domain/flags/strategy-rules.ts).
import type { components } from '../../generated/api.js';
import { contextReader, stringField, type ContextReader, type EvaluationContext } from './context.js';
import { bucketsOf, type GroupBuckets } from './hashing.js';

type Variant = components['schemas']['Variant'];
type StrategyVariant = components['schemas']['StrategyVariant'];
type Payload = components['schemas']['Payload'];

/** The variant a context gets, in the shape SDKs return it. */
export interface EvaluatedVariant {
  name: string;
  enabled: boolean;
  payload?: Payload;
  feature_enabled: boolean;
  featureEnabled: boolean;
}

/** The `disabled` variant: for a flag that is off, or on without a variant for the context. Shared; frozen. */
export const disabledVariant = {
  flagOff: Object.freeze({ name: 'disabled', enabled: false, feature_enabled: false, featureEnabled: false }),
  flagOn: Object.freeze({ name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true }),
} as const satisfies Record<string, EvaluatedVariant>;

export interface VariantChoice {
  readonly source: Variant | StrategyVariant;
  /** End of this variant's stretch of the weight line. */
  readonly upTo: number;
  /** What a context that gets this variant is answered. Shared; frozen. */
  readonly answer: Readonly<EvaluatedVariant>;
}

interface VariantOverride {
  readonly contextName: string;
  readonly read: ContextReader;
  readonly values: ReadonlySet<string>;
  readonly choice: VariantChoice;
}

export interface CompiledVariants {
  /** The variant group's hashing, its groupId hashed once. */
  readonly buckets: GroupBuckets;
  /** `default`, `random` or a context field. */
  readonly stickiness: string;
  /** The value hashed to pick a variant (see `seedReader`). */
  readonly seedOf: (context: EvaluationContext) => string;
  readonly totalWeight: number;
  /** Variants with a weight, in order. */
  readonly choices: readonly VariantChoice[];
  /** In variant order, so the first variant with a matching override wins. */
  readonly overrides: readonly VariantOverride[];
}

/** Null when there are no variants to pick from. */
export function compileVariants(variants: readonly (Variant | StrategyVariant)[], groupId: string, stickiness: string | undefined): CompiledVariants | null {
  if (variants.length === 0) return null;
  let upTo = 0;
  const choices: VariantChoice[] = [];
  const overrides: VariantOverride[] = [];
  for (const source of variants) {
    const weight = source.weight ?? 0;
    upTo += weight;
    const answer: EvaluatedVariant = { name: source.name, enabled: true, feature_enabled: true, featureEnabled: true };
    if (source.payload) answer.payload = source.payload;
    const choice: VariantChoice = { source, upTo, answer: Object.freeze(answer) };
    if (weight > 0) choices.push(choice);
    for (const override of ('overrides' in source && source.overrides) || []) {
      overrides.push({ contextName: override.contextName, read: contextReader(override.contextName), values: new Set(override.values), choice });
    }
  }
  const chosen = stickiness || 'default';
  return { buckets: bucketsOf(groupId), stickiness: chosen, seedOf: seedReader(chosen), totalWeight: upTo, choices, overrides };
}

/** The variant for the context; null when the weights add up to nothing. */
export function selectVariant(variants: CompiledVariants, context: EvaluationContext): VariantChoice | null {
  if (variants.totalWeight <= 0) return null;
  for (const override of variants.overrides) {
    const value = override.read(context);
    if (value !== undefined && override.values.has(value)) return override.choice;
  }
  const point = variants.buckets.variant(variants.seedOf(context), variants.totalWeight);
  for (const choice of variants.choices) if (choice.upTo >= point) return choice;
  return null;
}

/** The SDKs' `getSeed`: the first of userId, sessionId, remoteAddress by default; a random one when missing. */
function seedReader(stickiness: string): (context: EvaluationContext) => string {
  if (stickiness === 'default') {
    return (context) => stringField(context, 'userId') ?? stringField(context, 'sessionId') ?? stringField(context, 'remoteAddress') ?? randomSeed();
  }
  const read = contextReader(stickiness);
  return (context) => read(context) || randomSeed();
}

const randomSeed = () => String(Math.round(Math.random() * 100000));
