// Rules a schema cannot express for strategies: constraint values per operator, variant weights, parameters.
import { RE2JS } from 're2js';
import semver from 'semver';
import type { components } from '../../generated/api.js';
import { badRequest } from '../../kernel/errors.js';

type Constraint = components['schemas']['Constraint'];
type Variant = components['schemas']['Variant'];

const listOperators = new Set(['IN', 'NOT_IN', 'STR_STARTS_WITH', 'STR_ENDS_WITH', 'STR_CONTAINS']);
const rfc3339 = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;
const decimal = /^-?\d+(\.\d+)?$/;

/** An RFC 3339 date-time whose day exists in its month (Date.parse would roll 02-30 over to March). */
function isRfc3339(value: string): boolean {
  const match = rfc3339.exec(value);
  if (!match || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** SDKs evaluate REGEX with RE2: inline flags such as `(?i)` are fine, lookaround and backreferences are not. */
function checkRe2(pattern: string, caseInsensitive: boolean, where: string) {
  try {
    RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : 'it does not compile';
    throw badRequest(`${where}.value: "${pattern}" is not a regular expression RE2 (which SDKs evaluate it with) accepts: ${reason}.`);
  }
}

function singleValue(constraint: Constraint, where: string): string {
  const value = constraint.value ?? (constraint.values?.length === 1 ? constraint.values[0] : undefined);
  if (value === undefined || value === '') throw badRequest(`${where}.value: ${constraint.operator} needs one value in "value".`);
  return value;
}

/** A constraint as stored: its values checked for its operator, flags defaulted. */
export function normalizeConstraint(constraint: Constraint, where: string) {
  const base = { contextName: constraint.contextName, operator: constraint.operator, caseInsensitive: constraint.caseInsensitive ?? false, inverted: constraint.inverted ?? false };
  if (listOperators.has(constraint.operator)) {
    const values = constraint.values ?? (constraint.value !== undefined ? [constraint.value] : []);
    if (values.length === 0) throw badRequest(`${where}.values: ${constraint.operator} needs at least one value.`);
    return { ...base, values };
  }
  const value = singleValue(constraint, where);
  const op = constraint.operator;
  if (op.startsWith('NUM_') && !decimal.test(value)) throw badRequest(`${where}.value: "${value}" is not a number, which ${op} needs.`);
  if (op.startsWith('DATE_') && !isRfc3339(value)) {
    throw badRequest(`${where}.value: "${value}" is not an RFC 3339 date-time (e.g. 2026-01-31T12:00:00Z), which ${op} needs.`);
  }
  if (op.startsWith('SEMVER_') && (semver.valid(value) === null || !/^\d/.test(value) || value.trim() !== value)) throw badRequest(`${where}.value: "${value}" is not a valid semantic version, which ${op} needs.`);
  if (op === 'REGEX') checkRe2(value, constraint.caseInsensitive ?? false, where);
  return { ...base, values: [] as string[], value };
}

export function normalizeConstraints(constraints: Constraint[] | undefined, where: string) {
  return (constraints ?? []).map((c, i) => normalizeConstraint(c, `${where}[${i}]`));
}

function checkPayload(variant: Variant, where: string) {
  const payload = variant.payload;
  if (!payload) return;
  if (payload.type === 'json') {
    try {
      JSON.parse(payload.value);
    } catch {
      throw badRequest(`${where}.payload.value: the json payload of "${variant.name}" does not parse as JSON.`);
    }
  }
  if (payload.type === 'number' && !decimal.test(payload.value)) {
    throw badRequest(`${where}.payload.value: the number payload of "${variant.name}" is not a number.`);
  }
}

/**
 * Variants as Unleash stores them: fixed weights kept, the rest of 1000 shared by the variable ones
 * (the remainder going to the first), stickiness defaulted.
 */
export function normalizeVariants<V extends Variant>(variants: V[], where: string, defaultStickiness = 'default') {
  const names = new Set<string>();
  variants.forEach((variant, i) => {
    if (names.has(variant.name)) throw badRequest(`${where}[${i}].name: the variant name "${variant.name}" is used twice.`);
    names.add(variant.name);
    checkPayload(variant, `${where}[${i}]`);
  });
  if (variants.length === 0) return [];
  const fixedTotal = variants.filter((v) => v.weightType === 'fix').reduce((sum, v) => sum + (v.weight ?? 0), 0);
  const variableCount = variants.filter((v) => v.weightType !== 'fix').length;
  if (fixedTotal > 1000) throw badRequest(`${where}: the fixed weights add up to ${fixedTotal}, more than 1000.`);
  if (variableCount === 0 && fixedTotal !== 1000) throw badRequest(`${where}: with only fixed weights, they must add up to 1000 (they add up to ${fixedTotal}).`);
  const share = variableCount > 0 ? Math.floor((1000 - fixedTotal) / variableCount) : 0;
  let remainder = variableCount > 0 ? 1000 - fixedTotal - share * variableCount : 0;
  return variants.map((variant) => {
    const fixed = variant.weightType === 'fix';
    const weight = fixed ? (variant.weight ?? 0) : share + (remainder > 0 ? 1 : 0);
    if (!fixed && remainder > 0) remainder--;
    return {
      ...variant,
      weight,
      weightType: fixed ? ('fix' as const) : ('variable' as const),
      stickiness: variant.stickiness ?? defaultStickiness,
    };
  });
}

/** Parameter values as strings; a gradual rollout gets its defaults (its groupId the flag's name, when there is a flag) and a checked percentage. */
export function normalizeParameters(
  strategyName: string,
  parameters: Record<string, string | number | boolean> | undefined,
  featureName: string | null,
  defaultStickiness: string,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(parameters ?? {})) result[key] = String(value);
  if (strategyName === 'flexibleRollout') {
    result.rollout ??= '100';
    result.stickiness ??= defaultStickiness;
    if (featureName !== null) result.groupId ??= featureName;
    const rollout = Number(result.rollout);
    if (!/^\d+$/.test(result.rollout) || rollout > 100) throw badRequest(`parameters.rollout: "${result.rollout}" is not a percentage from 0 to 100.`);
  }
  return result;
}
