// One flag's OpenFeature answer, from the evaluation engine's own decision: the value, the variant, and the reason
// the contract's OfrepEvaluation describes.
import type { components } from '../../generated/api.js';
import type { CompiledFlag, CompiledStrategy } from '../evaluation/compile.js';
import type { Decision } from '../evaluation/evaluate.js';
import type { EvaluatedVariant } from '../evaluation/variants.js';

export type OfrepEvaluation = components['schemas']['OfrepEvaluation'];
type Reason = OfrepEvaluation['reason'];

/** The strategies whose own test is a share of the contexts, by their percentage parameter. */
const SHARES: Record<string, string> = {
  flexibleRollout: 'rollout',
  gradualRolloutUserId: 'percentage',
  gradualRolloutSessionId: 'percentage',
  gradualRolloutRandom: 'percentage',
};

/** The strategies that pick contexts by a list (of users, addresses, hosts). */
const LISTS: ReadonlySet<string> = new Set(['userWithId', 'remoteAddress', 'applicationHostname']);

function reasonOn(strategy: CompiledStrategy): Reason {
  const { name, parameters, constraints, segments } = strategy.source;
  if ((constraints?.length ?? 0) > 0 || (segments?.length ?? 0) > 0 || LISTS.has(name)) return 'TARGETING_MATCH';
  const share = SHARES[name];
  return share !== undefined && Number(parameters?.[share]) < 100 ? 'SPLIT' : 'STATIC';
}

export function reasonOf(flag: CompiledFlag, decision: Decision): Reason {
  if (!flag.enabled) return 'DISABLED';
  if (decision === false) return 'DEFAULT';
  return decision === true ? 'STATIC' : reasonOn(decision);
}

/** A variant's payload as the value its type says; a variant without one is its name. */
function valueOf(variant: Readonly<EvaluatedVariant>): unknown {
  const payload = variant.payload;
  if (!payload) return variant.name;
  if (payload.type === 'number') return Number(payload.value);
  if (payload.type === 'json') {
    try {
      return JSON.parse(payload.value) as unknown;
    } catch {
      return payload.value;
    }
  }
  return payload.value;
}

const hasVariants = (flag: CompiledFlag) => flag.variants !== null || flag.strategies.some((strategy) => strategy.variants !== null);

/** What decides a flag's answer for a context: the variant it gets and why. Equal outcomes give equal answers. */
export interface Outcome {
  variant: Readonly<EvaluatedVariant>;
  reason: Reason;
}

/** Whether an answer's reason means the flag is on for the context. */
const featureEnabled = (reason: Reason) => reason !== 'DISABLED' && reason !== 'DEFAULT';

export function evaluationOf(flag: CompiledFlag, { variant, reason }: Outcome): OfrepEvaluation {
  const enabled = featureEnabled(reason);
  const metadata = { featureEnabled: enabled, variantEnabled: variant.enabled, impressionData: flag.impressionData };
  // A flag with variants answers its variant; a flag that is off, or on without a variant for this context, answers
  // whether it is on. A flag with variants that is off answers no value: the application's default stands.
  if (variant.enabled) return { key: flag.name, reason, variant: variant.name, value: valueOf(variant), metadata };
  if (!enabled && hasVariants(flag)) return { key: flag.name, reason, metadata };
  return { key: flag.name, reason, value: enabled, metadata };
}
