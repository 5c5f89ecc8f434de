// Constraints, compiled once into a test per constraint: value lists into Sets, regexes by RE2, versions,
// dates and ranges parsed. Each operator behaves as in the SDKs' strategy/strategy.js; what cannot be parsed
// (a bad pattern, a NaN number, a missing field) makes the operator false, and `inverted` then flips it; an
// unknown operator is false either way.
import { RE2JS } from 're2js';
import semver from 'semver';
import type { components } from '../../generated/api.js';
import { inRange, parseAddress, parseRange } from './addresses.js';
import { contextReader, currentTimeOf, type EvaluationContext } from './context.js';

type ClientConstraint = components['schemas']['ClientConstraint'];

export type ContextTest = (context: EvaluationContext) => boolean;

export interface CompiledConstraint {
  readonly source: ClientConstraint;
  /** The constraint's outcome, `inverted` applied. */
  readonly test: ContextTest;
}

const never: ContextTest = () => false;

/** The SDKs' `cleanValues`: empty values dropped, the rest trimmed. */
const cleanValues = (values: readonly string[] | undefined) => (values ?? []).filter((v) => !!v).map((v) => v.trim());

export function compileConstraint(source: ClientConstraint): CompiledConstraint {
  const outcome = operatorTest(source);
  // An operator the engine does not know is false, inverted or not, as in the SDKs.
  if (outcome === null) return { source, test: never };
  return { source, test: source.inverted ? (context) => !outcome(context) : outcome };
}

function operatorTest(constraint: ClientConstraint): ContextTest | null {
  // Operators the contract does not list yet (IN_CIDR) and unknown ones arrive as plain strings.
  const operator: string = constraint.operator;
  switch (operator) {
    case 'IN':
    case 'NOT_IN':
      return inList(constraint, operator === 'IN');
    case 'STR_STARTS_WITH':
    case 'STR_ENDS_WITH':
    case 'STR_CONTAINS':
      return stringTest(constraint, operator);
    case 'NUM_EQ':
    case 'NUM_GT':
    case 'NUM_GTE':
    case 'NUM_LT':
    case 'NUM_LTE':
      return numberTest(constraint, operator);
    case 'DATE_AFTER':
    case 'DATE_BEFORE':
      return dateTest(constraint, operator);
    case 'SEMVER_EQ':
    case 'SEMVER_GT':
    case 'SEMVER_GTE':
    case 'SEMVER_LT':
    case 'SEMVER_LTE':
      return semverTest(constraint, operator);
    case 'REGEX':
      return regexTest(constraint);
    case 'IN_CIDR':
      return cidrTest(constraint);
    default:
      return null;
  }
}

function inList({ contextName, values }: ClientConstraint, wanted: boolean): ContextTest {
  const read = contextReader(contextName);
  const set = new Set(cleanValues(values));
  return (context) => {
    const value = read(context);
    return (value !== undefined && set.has(value)) === wanted;
  };
}

function stringTest({ contextName, values, caseInsensitive }: ClientConstraint, operator: string): ContextTest {
  const read = contextReader(contextName);
  const list = caseInsensitive ? cleanValues(values).map((v) => v.toLocaleLowerCase()) : cleanValues(values);
  const matches =
    operator === 'STR_STARTS_WITH'
      ? (value: string) => list.some((v) => value.startsWith(v))
      : operator === 'STR_ENDS_WITH'
        ? (value: string) => list.some((v) => value.endsWith(v))
        : (value: string) => list.some((v) => value.includes(v));
  return (context) => {
    const value = read(context);
    if (value === undefined) return false;
    return matches(caseInsensitive ? value.toLocaleLowerCase() : value);
  };
}

function numberTest({ contextName, value }: ClientConstraint, operator: string): ContextTest {
  const read = contextReader(contextName);
  const target = Number(value);
  if (Number.isNaN(target)) return never;
  const compare =
    operator === 'NUM_EQ'
      ? (n: number) => n === target
      : operator === 'NUM_GT'
        ? (n: number) => n > target
        : operator === 'NUM_GTE'
          ? (n: number) => n >= target
          : operator === 'NUM_LT'
            ? (n: number) => n < target
            : (n: number) => n <= target;
  return (context) => {
    const n = Number(read(context));
    return !Number.isNaN(n) && compare(n);
  };
}

/** The SDKs compare the context's `currentTime` (now by default), whatever the constraint's field. */
function dateTest({ value }: ClientConstraint, operator: string): ContextTest {
  const target = new Date(value as string).getTime();
  if (Number.isNaN(target)) return never;
  return operator === 'DATE_AFTER' ? (context) => currentTimeOf(context) > target : (context) => currentTimeOf(context) < target;
}

/** A context version counts only when it is strict semver without a leading `v`; the constraint's may have one. */
function semverTest({ contextName, value }: ClientConstraint, operator: string): ContextTest {
  const read = contextReader(contextName);
  const target = typeof value === 'string' ? semver.parse(value) : null;
  if (!target) return never;
  const accept =
    operator === 'SEMVER_EQ'
      ? (c: number) => c === 0
      : operator === 'SEMVER_GT'
        ? (c: number) => c > 0
        : operator === 'SEMVER_GTE'
          ? (c: number) => c >= 0
          : operator === 'SEMVER_LT'
            ? (c: number) => c < 0
            : (c: number) => c <= 0;
  return (context) => {
    const text = read(context);
    if (!text || text.startsWith('v')) return false;
    const version = semver.parse(text);
    return version !== null && accept(version.compare(target));
  };
}

/** RE2 semantics (no lookaround, no backreferences): a pattern RE2 refuses never matches. */
function regexTest({ contextName, value, caseInsensitive }: ClientConstraint): ContextTest {
  const read = contextReader(contextName);
  if (typeof value !== 'string') return never;
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(value, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return never;
  }
  return (context) => {
    const text = read(context);
    return text !== undefined && pattern.test(text);
  };
}

/** Addresses and CIDR ranges, IPv4 and IPv6; values that parse as neither are ignored. */
function cidrTest({ contextName, values }: ClientConstraint): ContextTest {
  const read = contextReader(contextName);
  const ranges = cleanValues(values)
    .map(parseRange)
    .filter((range) => range !== null);
  if (ranges.length === 0) return never;
  return (context) => {
    const text = read(context);
    const address = text === undefined ? null : parseAddress(text);
    return address !== null && ranges.some((range) => inRange(address, range));
  };
}
