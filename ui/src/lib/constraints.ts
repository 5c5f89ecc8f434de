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

/**
 * Every operator, once: its group and short label in the constraint editor's picker, and how it reads in a sentence,
 * plainly and inverted. The editor, the strategy cards, the segments and the playground all read from here.
 */
const OPERATORS: Record<Operator, { group: string; label: string; words: [plain: string, inverted: string] }> = {
  IN: { group: 'Lists', label: 'is one of', words: ['is one of', 'is not one of'] },
  NOT_IN: { group: 'Lists', label: 'is not one of', words: ['is not one of', 'is one of'] },
  STR_STARTS_WITH: { group: 'Text', label: 'starts with', words: ['starts with', 'does not start with'] },
  STR_ENDS_WITH: { group: 'Text', label: 'ends with', words: ['ends with', 'does not end with'] },
  STR_CONTAINS: { group: 'Text', label: 'contains', words: ['contains', 'does not contain'] },
  REGEX: { group: 'Text', label: 'matches the regular expression', words: ['matches the regular expression', 'does not match the regular expression'] },
  NUM_EQ: { group: 'Numbers', label: '=', words: ['equals', 'does not equal'] },
  NUM_GT: { group: 'Numbers', label: '>', words: ['is greater than', 'is not greater than'] },
  NUM_GTE: { group: 'Numbers', label: '≥', words: ['is at least', 'is not at least'] },
  NUM_LT: { group: 'Numbers', label: '<', words: ['is less than', 'is not less than'] },
  NUM_LTE: { group: 'Numbers', label: '≤', words: ['is at most', 'is not at most'] },
  DATE_AFTER: { group: 'Dates', label: 'is after', words: ['is after', 'is not after'] },
  DATE_BEFORE: { group: 'Dates', label: 'is before', words: ['is before', 'is not before'] },
  SEMVER_EQ: { group: 'Versions', label: 'version =', words: ['is version', 'is not version'] },
  SEMVER_GT: { group: 'Versions', label: 'version >', words: ['is a version after', 'is not a version after'] },
  SEMVER_GTE: { group: 'Versions', label: 'version ≥', words: ['is at least version', 'is not at least version'] },
  SEMVER_LT: { group: 'Versions', label: 'version <', words: ['is a version before', 'is not a version before'] },
  SEMVER_LTE: { group: 'Versions', label: 'version ≤', words: ['is at most version', 'is not at most version'] },
};

/** The operators grouped as the constraint editor's picker shows them, in the table's order. */
export const operatorGroups: { group: string; operators: { value: Operator; label: string }[] }[] = [];
for (const [value, { group, label }] of Object.entries(OPERATORS) as [Operator, (typeof OPERATORS)[Operator]][]) {
  const existing = operatorGroups.find((g) => g.group === group);
  if (existing) existing.operators.push({ value, label });
  else operatorGroups.push({ group, operators: [{ value, label }] });
}

/** The constraint's operator in a sentence ("is one of", "does not start with"). */
export const operatorWords = (c: Pick<Constraint, 'operator' | 'inverted'>): string =>
  OPERATORS[c.operator]?.words[c.inverted ? 1 : 0] ?? `${c.inverted ? 'not ' : ''}${c.operator}`;

/** " (ignoring case)" after the values of a text comparison that ignores case; empty otherwise. */
export const caseWords = (c: Pick<Constraint, 'operator' | 'caseInsensitive'>): string => (c.caseInsensitive && takesCaseInsensitive(c.operator) ? ' (ignoring case)' : '');

/** The values the constraint compares with: its list for list operators, else its one value (its list when it has none). */
export const constraintValues = (c: Pick<Constraint, 'operator' | 'values' | 'value'>): string[] =>
  valueInputFor(c.operator).kind === 'list' || c.value === undefined ? (c.values ?? []) : [c.value];

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

/** One line for a constraint: `country is one of SE, NO` / `appVersion is not at least version 1.2.0`. */
export function describeConstraint(constraint: Constraint): string {
  return `${constraint.contextName} ${operatorWords(constraint)} ${constraintValues(constraint).join(', ')}${caseWords(constraint)}`;
}
