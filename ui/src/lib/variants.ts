// Variant weights as the service stores them: out of 1000, fixed weights kept and the rest shared by the
// variable variants (the remainder to the first ones). The editor shows the balanced weights while one types,
// and says what the service would refuse before sending.
import type { components } from '../../../generated/api.js';

export type Variant = components['schemas']['Variant'];

export const TOTAL_WEIGHT = 1000;

const isFixed = (variant: Variant) => variant.weightType === 'fix';

/** The variants with every variable weight set to its share of what the fixed ones leave. */
export function balanceVariants<V extends Variant>(variants: V[]): V[] {
  const fixedTotal = variants.filter(isFixed).reduce((sum, v) => sum + (v.weight ?? 0), 0);
  const variableCount = variants.filter((v) => !isFixed(v)).length;
  if (variableCount === 0) return variants.map((v) => ({ ...v, weightType: 'fix' as const, weight: v.weight ?? 0 }));
  const left = Math.max(0, TOTAL_WEIGHT - fixedTotal);
  const share = Math.floor(left / variableCount);
  let remainder = left - share * variableCount;
  return variants.map((variant) => {
    if (isFixed(variant)) return { ...variant, weight: variant.weight ?? 0 };
    const weight = share + (remainder > 0 ? 1 : 0);
    if (remainder > 0) remainder--;
    return { ...variant, weight, weightType: 'variable' as const };
  });
}

/** Why the service would refuse these variants, in words; undefined when they are fine. */
export function variantsProblem(variants: Variant[]): string | undefined {
  const seen = new Set<string>();
  for (const variant of variants) {
    if (!variant.name) return 'Every variant needs a name.';
    if (seen.has(variant.name)) return `The name "${variant.name}" is used twice.`;
    seen.add(variant.name);
    if (isFixed(variant) && (!Number.isInteger(variant.weight) || variant.weight! < 0 || variant.weight! > TOTAL_WEIGHT)) {
      return `The weight of "${variant.name}" must be from 0 % to 100 %.`;
    }
    if (variant.payload?.type === 'json') {
      try {
        JSON.parse(variant.payload.value);
      } catch {
        return `The JSON payload of "${variant.name}" does not parse.`;
      }
    }
    if (variant.payload?.type === 'number' && !/^-?\d+(\.\d+)?$/.test(variant.payload.value)) return `The number payload of "${variant.name}" is not a number.`;
  }
  if (variants.length === 0) return undefined;
  const fixedTotal = variants.filter(isFixed).reduce((sum, v) => sum + (v.weight ?? 0), 0);
  if (fixedTotal > TOTAL_WEIGHT) return `The fixed weights add up to ${percent(fixedTotal)}, more than 100 %.`;
  if (variants.every(isFixed) && fixedTotal !== TOTAL_WEIGHT) return `With only fixed weights they must add up to 100 % (now ${percent(fixedTotal)}).`;
  return undefined;
}

/** A weight out of 1000 as a percentage: 333 → "33.3 %". */
export const percent = (weight: number) => `${Number((weight / 10).toFixed(1))} %`;

/** A percentage typed in (one decimal) as a weight out of 1000. */
export const weightOfPercent = (value: number) => Math.round(value * 10);

/** The variants as the API takes them: balanced, without fields the editor keeps for itself. */
export function variantsBody(variants: Variant[]): Variant[] {
  return balanceVariants(variants).map(({ name, weight, weightType, stickiness, payload, overrides }) => ({
    name,
    weight,
    weightType,
    stickiness: stickiness || 'default',
    ...(payload && payload.value !== '' && { payload }),
    ...(overrides && overrides.length > 0 && { overrides }),
  }));
}
