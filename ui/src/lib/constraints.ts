// Which value input a constraint's operator takes, and what the service will accept in it. Pure: the constraint
// editor renders from `valueInputFor`, checks with `constraintProblem`, and sends `constraintBody`.
import type { components } from '../../../generated/api.js';

export type Constraint = components['schemas']['Constraint'];
export type Operator = components['schemas']['ConstraintOperator'];

/** How the value of an operator is entered. */
export type ValueInput =
  /** Several values (`values`); from the context field's legal values when it has some. */
  | { kind: 'list'; caseInsensitive: boolean }
  | { kind: 'number' }
  /** One RFC 3339 date-time, entered as a local date and time. */
  | { kind: 'date' }
  | { kind: 'semver' }
  | { kind: 'regex' };

export const operatorGroups: { group: string; operators: { value: Operator; label: string }[] }[] = [
  {
    group: 'Lists',
    operators: [
      { value: 'IN', label: 'is one of' },
      { value: 'NOT_IN', label: 'is not one of' },
    ],
  },
  {
    group: 'Text',
    operators: [
      { value: 'STR_STARTS_WITH', label: 'starts with' },
      { value: 'STR_ENDS_WITH', label: 'ends with' },
      { value: 'STR_CONTAINS', label: 'contains' },
      { value: 'REGEX', label: 'matches the regular expression' },
    ],
  },
  {
    group: 'Numbers',
    operators: [
      { value: 'NUM_EQ', label: '=' },
      { value: 'NUM_GT', label: '>' },
      { value: 'NUM_GTE', label: '≥' },
      { value: 'NUM_LT', label: '<' },
      { value: 'NUM_LTE', label: '≤' },
    ],
  },
  {
    group: 'Dates',
    operators: [
      { value: 'DATE_AFTER', label: 'is after' },
      { value: 'DATE_BEFORE', label: 'is before' },
    ],
  },
  {
    group: 'Versions',
    operators: [
      { value: 'SEMVER_EQ', label: 'version =' },
      { value: 'SEMVER_GT', label: 'version >' },
      { value: 'SEMVER_GTE', label: 'version ≥' },
      { value: 'SEMVER_LT', label: 'version <' },
      { value: 'SEMVER_LTE', label: 'version ≤' },
    ],
  },
];

const labels = new Map(operatorGroups.flatMap((g) => g.operators.map((o) => [o.value, o.label] as const)));
export const operatorLabel = (operator: Operator) => labels.get(operator) ?? operator;

export function valueInputFor(operator: Operator): ValueInput {
  if (operator === 'IN' || operator === 'NOT_IN') return { kind: 'list', caseInsensitive: false };
  if (operator.startsWith('STR_')) return { kind: 'list', caseInsensitive: true };
  if (operator.startsWith('NUM_')) return { kind: 'number' };
  if (operator.startsWith('DATE_')) return { kind: 'date' };
  if (operator.startsWith('SEMVER_')) return { kind: 'semver' };
  return { kind: 'regex' };
}

/** Whether "ignore case" means something for the operator (text comparisons and regular expressions). */
export const takesCaseInsensitive = (operator: Operator) => operator.startsWith('STR_') || operator === 'REGEX';

const decimal = /^-?\d+(\.\d+)?$/;
const rfc3339 = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;
// Semantic Versioning 2.0.0's own grammar (semver.org), without a leading `v`.
const semverPattern =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** What is wrong with the constraint's value for its operator, in words; undefined when the service will take it. */
export function constraintProblem(constraint: Constraint): string | undefined {
  if (!constraint.contextName) return 'Choose a context field.';
  const input = valueInputFor(constraint.operator);
  if (input.kind === 'list') return (constraint.values ?? []).length === 0 ? 'Add at least one value.' : undefined;
  const value = constraint.value ?? '';
  if (value === '') return 'Enter a value.';
  if (input.kind === 'number' && !decimal.test(value)) return `"${value}" is not a number.`;
  if (input.kind === 'date' && (!rfc3339.test(value) || Number.isNaN(Date.parse(value)))) return `"${value}" is not a date and time.`;
  if (input.kind === 'semver' && !semverPattern.test(value)) return `"${value}" is not a semantic version such as 1.2.3.`;
  if (input.kind === 'regex') {
    try {
      new RegExp(value, constraint.caseInsensitive ? 'i' : '');
    } catch {
      return `"${value}" is not a regular expression.`;
    }
  }
  return undefined;
}

/**
 * The constraint after its operator changed: values carried over where the new input can hold them (a list keeps
 * its values between list operators; one value moves between a list and a single input when it is still valid).
 */
export function withOperator(constraint: Constraint, operator: Operator): Constraint {
  const from = valueInputFor(constraint.operator).kind;
  const to = valueInputFor(operator).kind;
  const base: Constraint = { contextName: constraint.contextName, operator, inverted: constraint.inverted ?? false };
  if (takesCaseInsensitive(operator)) base.caseInsensitive = constraint.caseInsensitive ?? false;
  if (to === 'list') {
    const values = from === 'list' ? (constraint.values ?? []) : constraint.value ? [constraint.value] : [];
    return { ...base, values };
  }
  const carried = from === 'list' ? (constraint.values?.length === 1 ? constraint.values[0] : undefined) : from === to ? constraint.value : undefined;
  const candidate = { ...base, value: carried ?? '' };
  return carried !== undefined && constraintProblem(candidate) === undefined ? candidate : { ...base, value: '' };
}

/** The constraint as the API takes it: `values` for list operators, `value` for the others, nothing else. */
export function constraintBody(constraint: Constraint): Constraint {
  const body: Constraint = { contextName: constraint.contextName, operator: constraint.operator, inverted: constraint.inverted ?? false };
  if (takesCaseInsensitive(constraint.operator)) body.caseInsensitive = constraint.caseInsensitive ?? false;
  if (valueInputFor(constraint.operator).kind === 'list') body.values = [...new Set((constraint.values ?? []).map((v) => v.trim()).filter(Boolean))];
  else body.value = (constraint.value ?? '').trim();
  return body;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A `datetime-local` input's value (local time, `2026-01-31T12:00`) as an RFC 3339 instant. `offsetMinutes` is
 * the zone's offset as `Date#getTimezoneOffset` gives it (minutes behind UTC); the browser's own by default.
 */
export function localInputToIso(local: string, offsetMinutes?: number): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!match) return '';
  const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const offset = offsetMinutes ?? new Date(asUtc).getTimezoneOffset();
  return new Date(asUtc + offset * 60_000).toISOString().replace('.000Z', 'Z');
}

/** The reverse: an instant as a `datetime-local` value in the zone `offsetMinutes` behind UTC. */
export function isoToLocalInput(iso: string, offsetMinutes?: number): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const local = new Date(time - (offsetMinutes ?? new Date(time).getTimezoneOffset()) * 60_000);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
}

/** One line for a constraint: `country is one of SE, NO` / `not appVersion version ≥ 1.2.0`. */
export function describeConstraint(constraint: Constraint): string {
  const values = valueInputFor(constraint.operator).kind === 'list' ? (constraint.values ?? []).join(', ') : (constraint.value ?? '');
  const flags = [constraint.inverted ? 'not ' : '', constraint.caseInsensitive && takesCaseInsensitive(constraint.operator) ? ' (ignoring case)' : ''];
  return `${flags[0]}${constraint.contextName} ${operatorLabel(constraint.operator)} ${values}${flags[1]}`;
}
