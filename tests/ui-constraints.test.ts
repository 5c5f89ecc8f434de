// The admin UI's constraint value inputs (ui/src/lib/constraints.ts): each operator gets the input its value
// needs, and what the editor accepts is what the service accepts; a strategy's conditions read as a sentence.
import { describe, expect, it } from 'vitest';
import { normalizeConstraint } from '../domain/flags/strategy-rules.js';
import {
  constraintBody,
  caseWords,
  constraintProblem,
  constraintValues,
  describeConstraint,
  isoToLocalInput,
  localInputToIso,
  operatorGroups,
  operatorWords,
  valueInputFor,
  withOperator,
  type Constraint,
  type Operator,
} from '../ui/src/lib/constraints.js';
import { parameterWords, rolloutWords, strategyClauses, strategyHeadline, strategyKind, timeAgo } from '../ui/src/lib/strategy-words.js';

const serverAccepts = (constraint: Constraint) => {
  try {
    normalizeConstraint(constraint, 'constraint');
    return true;
  } catch {
    return false;
  }
};

describe('the value input of each operator', () => {
  it('offers every operator of the contract once', () => {
    const offered = operatorGroups.flatMap((g) => g.operators.map((o) => o.value)).sort();
    expect(offered).toEqual(['DATE_AFTER', 'DATE_BEFORE', 'IN', 'NOT_IN', 'NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE', 'REGEX', 'SEMVER_EQ', 'SEMVER_GT', 'SEMVER_GTE', 'SEMVER_LT', 'SEMVER_LTE', 'STR_CONTAINS', 'STR_ENDS_WITH', 'STR_STARTS_WITH']);
  });

  it('takes a list of values for IN and NOT_IN, without ignoring case', () => {
    expect([valueInputFor('IN'), valueInputFor('NOT_IN')]).toEqual([
      { kind: 'list', caseInsensitive: false },
      { kind: 'list', caseInsensitive: false },
    ]);
  });

  it('takes a list of values for the text operators, which may ignore case', () => {
    expect(valueInputFor('STR_CONTAINS')).toEqual({ kind: 'list', caseInsensitive: true });
  });

  it('takes one number, date, version or regular expression for the other operators', () => {
    expect((['NUM_GTE', 'DATE_BEFORE', 'SEMVER_LT', 'REGEX'] as Operator[]).map((op) => valueInputFor(op).kind)).toEqual(['number', 'date', 'semver', 'regex']);
  });
});

describe('what the editor accepts', () => {
  const cases: Constraint[] = [
    { contextName: 'userId', operator: 'IN', values: ['1', '2'] },
    { contextName: 'userId', operator: 'IN', values: [] },
    { contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'] },
    { contextName: 'age', operator: 'NUM_GT', value: '18' },
    { contextName: 'age', operator: 'NUM_GT', value: '-1.5' },
    { contextName: 'age', operator: 'NUM_GT', value: '1e3' },
    { contextName: 'age', operator: 'NUM_GT', value: 'eighteen' },
    { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2026-01-31T12:00:00Z' },
    { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2026-01-31T12:00:00.250+02:00' },
    { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2026-01-31' },
    { contextName: 'currentTime', operator: 'DATE_BEFORE', value: 'tomorrow' },
    { contextName: 'appVersion', operator: 'SEMVER_GTE', value: '1.2.3' },
    { contextName: 'appVersion', operator: 'SEMVER_GTE', value: '1.2.3-beta.1+build.5' },
    { contextName: 'appVersion', operator: 'SEMVER_GTE', value: 'v1.2.3' },
    { contextName: 'appVersion', operator: 'SEMVER_GTE', value: '1.2' },
    { contextName: 'userId', operator: 'REGEX', value: '^beta-[0-9]+$' },
    { contextName: 'userId', operator: 'REGEX', value: '([a-z' },
    { contextName: 'userId', operator: 'NUM_EQ', value: '' },
  ];

  it.each(cases.map((c) => [describeConstraint(c), c] as const))('agrees with the service on %s', (_name, constraint) => {
    expect(constraintProblem(constraint) === undefined).toBe(serverAccepts(constraint));
  });

  it('asks for a context field first', () => {
    expect(constraintProblem({ contextName: '', operator: 'IN', values: ['a'] })).toBe('Choose a context field.');
  });

  it('says why a version is refused', () => {
    expect(constraintProblem({ contextName: 'appVersion', operator: 'SEMVER_EQ', value: '1.2' })).toBe('"1.2" is not a semantic version such as 1.2.3.');
  });
});

describe('changing the operator', () => {
  it('keeps the values between list operators', () => {
    expect(withOperator({ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }, 'STR_CONTAINS')).toEqual({
      contextName: 'userId',
      operator: 'STR_CONTAINS',
      inverted: false,
      caseInsensitive: false,
      values: ['a', 'b'],
    });
  });

  it('moves a single list value into a number input when it is a number', () => {
    expect(withOperator({ contextName: 'age', operator: 'IN', values: ['42'] }, 'NUM_GT').value).toBe('42');
  });

  it('empties the value when it does not fit the new operator', () => {
    expect(withOperator({ contextName: 'age', operator: 'IN', values: ['abc'] }, 'NUM_GT').value).toBe('');
    expect(withOperator({ contextName: 'age', operator: 'NUM_GT', value: '5' }, 'DATE_AFTER').value).toBe('');
  });

  it('keeps the value between operators of one kind', () => {
    expect(withOperator({ contextName: 'v', operator: 'SEMVER_GT', value: '2.0.0' }, 'SEMVER_LT').value).toBe('2.0.0');
  });

  it('turns one value into a list of one', () => {
    expect(withOperator({ contextName: 'v', operator: 'REGEX', value: 'x' }, 'IN').values).toEqual(['x']);
  });

  it('keeps "not" across operators', () => {
    expect(withOperator({ contextName: 'v', operator: 'IN', values: [], inverted: true }, 'NUM_EQ').inverted).toBe(true);
  });
});

describe('the constraint as sent', () => {
  it('sends values without blanks or repeats for a list operator, and no single value', () => {
    expect(constraintBody({ contextName: 'userId', operator: 'IN', values: [' a', 'a', '', 'b'], value: 'stray' })).toEqual({
      contextName: 'userId',
      operator: 'IN',
      inverted: false,
      values: ['a', 'b'],
    });
  });

  it('sends one trimmed value and "ignore case" for a regular expression', () => {
    expect(constraintBody({ contextName: 'userId', operator: 'REGEX', value: ' ^a ', values: ['stray'], caseInsensitive: true })).toEqual({
      contextName: 'userId',
      operator: 'REGEX',
      inverted: false,
      caseInsensitive: true,
      value: '^a',
    });
  });
});

describe('dates entered in local time', () => {
  it('turns a local date and time into a UTC instant, in a zone behind UTC and one ahead', () => {
    expect(localInputToIso('2026-01-31T12:00', 300)).toBe('2026-01-31T17:00:00Z');
    expect(localInputToIso('2026-01-31T12:00', -60)).toBe('2026-01-31T11:00:00Z');
  });

  it('shows an instant as the local date and time it is in the zone', () => {
    expect(isoToLocalInput('2026-01-31T17:00:00Z', 300)).toBe('2026-01-31T12:00');
  });

  it('round-trips a date across a day boundary', () => {
    expect(localInputToIso(isoToLocalInput('2026-03-01T00:30:00Z', -120), -120)).toBe('2026-03-01T00:30:00Z');
  });

  it('leaves an unfinished input empty, which the editor reports', () => {
    expect(localInputToIso('2026-01-')).toBe('');
  });
});

describe('a constraint read as a sentence', () => {
  it('says each operator plainly and inverted, ignoring case only where the operator compares text', () => {
    expect(operatorWords({ operator: 'IN' })).toBe('is one of');
    expect(operatorWords({ operator: 'IN', inverted: true })).toBe('is not one of');
    expect(operatorWords({ operator: 'NOT_IN', inverted: true })).toBe('is one of');
    expect(operatorWords({ operator: 'STR_STARTS_WITH', inverted: true })).toBe('does not start with');
    expect([caseWords({ operator: 'STR_STARTS_WITH', caseInsensitive: true }), caseWords({ operator: 'REGEX', caseInsensitive: true })]).toEqual([' (ignoring case)', ' (ignoring case)']);
    expect([caseWords({ operator: 'NUM_GTE', caseInsensitive: true }), caseWords({ operator: 'STR_CONTAINS', caseInsensitive: false })]).toEqual(['', '']);
    expect(operatorWords({ operator: 'SEMVER_LT' })).toBe('is a version before');
  });

  it('compares list operators with their list and the others with their one value', () => {
    expect(constraintValues({ operator: 'STR_CONTAINS', values: ['a', 'b'], value: 'x' })).toEqual(['a', 'b']);
    expect(constraintValues({ operator: 'NUM_EQ', values: ['1'], value: '2' })).toEqual(['2']);
    expect(constraintValues({ operator: 'NUM_EQ', values: ['1'] })).toEqual(['1']);
  });

  it('puts the inversion in the verb: one line per constraint', () => {
    expect(describeConstraint({ contextName: 'country', operator: 'IN', values: ['SE', 'NO'] })).toBe('country is one of SE, NO');
    expect(describeConstraint({ contextName: 'appVersion', operator: 'SEMVER_GTE', inverted: true, value: '1.2.0' })).toBe('appVersion is not at least version 1.2.0');
    expect(describeConstraint({ contextName: 'email', operator: 'STR_ENDS_WITH', caseInsensitive: true, values: ['@x.io'] })).toBe('email ends with @x.io (ignoring case)');
  });
});

describe('a strategy read as a sentence (ui/src/lib/strategy-words.ts)', () => {
  const definitions = [{ name: 'tenant', title: 'Tenants', displayName: 'Tenants', parameters: [{ name: 'tenantIds', type: 'list' as const, description: '', required: true }] }];
  const strategy = (name: string, parameters: Record<string, string> = {}, more: { constraints?: Constraint[]; segments?: number[] } = {}) => ({
    name,
    parameters,
    constraints: more.constraints ?? [],
    segments: more.segments ?? [],
  });

  it("names the built-in strategies as Unleash does, and a custom one by its definition's title", () => {
    expect(['flexibleRollout', 'default', 'userWithId', 'remoteAddress', 'applicationHostname'].map((name) => strategyKind(name, []))).toEqual([
      'Gradual rollout',
      'Standard',
      'User IDs',
      'IPs',
      'Hosts',
    ]);
    expect(strategyKind('tenant', definitions)).toBe('Tenants');
    expect(strategyKind('unknown', definitions)).toBe('unknown');
  });

  it('says a rollout in words, default stickiness included', () => {
    expect(rolloutWords({ rollout: '25', stickiness: 'userId', groupId: 'my-flag' })).toBe('25% of users, by userId, group my-flag');
    expect(rolloutWords({ rollout: '5', stickiness: 'default', groupId: '' })).toBe('5% of users, by default stickiness');
  });

  it('lists segments first, then constraints, then what the parameters ask', () => {
    const clauses = strategyClauses(strategy('flexibleRollout', { rollout: '50', stickiness: 'default', groupId: 'g' }, { segments: [7], constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }] }), []);
    expect(clauses).toEqual([
      { kind: 'segment', id: 7 },
      { kind: 'words', text: 'appName is one of web' },
      { kind: 'words', text: '50% of users, by default stickiness, group g' },
    ]);
  });

  it('says the Standard strategy without conditions is on for everyone, and only its constraints when it has some', () => {
    expect(strategyClauses(strategy('default'), [])).toEqual([{ kind: 'words', text: 'On for everyone' }]);
    expect(strategyClauses(strategy('default', {}, { constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }] }), [])).toEqual([{ kind: 'words', text: 'userId is one of a' }]);
  });

  it('says the lists of the user, IP and host strategies, and the parameters of a custom one', () => {
    expect(parameterWords(strategy('userWithId', { userIds: 'ann, bob' }), [])).toBe('userId is one of ann, bob');
    expect(parameterWords(strategy('remoteAddress', { IPs: '10.0.0.1' }), [])).toBe('IP is one of 10.0.0.1');
    expect(parameterWords(strategy('applicationHostname', { hostNames: 'web-1,web-2' }), [])).toBe('hostname is one of web-1, web-2');
    expect(parameterWords(strategy('tenant', { tenantIds: 'acme' }), definitions)).toBe('tenantIds is acme');
    expect(parameterWords(strategy('tenant', { tenantIds: '' }), definitions)).toBeUndefined();
  });

  it('says a strategy in one line, its name then what its parameters ask, the older rollouts included', () => {
    expect(strategyHeadline(strategy('flexibleRollout', { rollout: '25', stickiness: 'userId', groupId: 'f' }), [])).toBe('Gradual rollout: 25% of users, by userId, group f');
    expect(strategyHeadline(strategy('default'), [])).toBe('Standard');
    expect(strategyHeadline(strategy('gradualRolloutSessionId', { percentage: '10', groupId: 'f' }), [])).toBe('Gradual rollout (sessionId): 10% of users, by sessionId, group f');
    expect(strategyHeadline(strategy('gradualRolloutRandom', { percentage: '5' }), [])).toBe('Random rollout: 5% of users, at random');
    expect(strategyHeadline(strategy('tenant', { tenantIds: 'acme' }), definitions)).toBe('Tenants: tenantIds is acme');
  });

  it('says how long ago an instant was in words', () => {
    const now = Date.parse('2026-01-31T12:00:00Z');
    expect(timeAgo('2026-01-31T11:59:40Z', now)).toBe('just now');
    expect(timeAgo('2026-01-31T11:57:00Z', now)).toBe('3 minutes ago');
    expect(timeAgo('2026-01-31T11:00:00Z', now)).toBe('1 hour ago');
    expect(timeAgo('2026-01-29T12:00:00Z', now)).toBe('2 days ago');
    // A clock slightly ahead of the browser's is not "in the future".
    expect(timeAgo('2026-01-31T12:00:05Z', now)).toBe('just now');
  });
});
