import type { components } from '../client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { envPath, fixtures } from './support/fixtures.js';

type Constraint = components['schemas']['Constraint'];

// How a constraint's values are read for its operator: list operators take `values`, the others one `value`,
// and each form is checked the way SDKs will read it. The operators' happy paths are in feature-strategies.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newFlag, strategiesOf } = fixtures(() => app, unique);

/** Adds a strategy with the one constraint on userId to a new flag; answers its answer and the strategies then listed. */
async function withConstraint(constraint: Omit<Constraint, 'contextName'>) {
  const flag = await newFlag('constraint-flag');
  const added = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
    params: { path: envPath(flag) },
    body: { name: 'default', constraints: [{ contextName: 'userId', ...constraint }] },
  });
  return { added, listed: await strategiesOf(flag) };
}

async function expectConstraintRefused(constraint: Omit<Constraint, 'contextName'>, mention: string) {
  const { added, listed } = await withConstraint(constraint);
  const message = expectError(added, 400, 'ValidationError').message;
  expect(message).toContain('constraints[0]');
  expect(message).toContain(mention);
  expect(listed).toEqual([]);
  return message;
}

describe('one value or a list', () => {
  it('takes the one item of `values` as the value of an operator that needs one value', async () => {
    const { added, listed } = await withConstraint({ operator: 'NUM_EQ', values: ['42'] });
    expect(added.response.status, JSON.stringify(added.error)).toBe(200);
    expect(added.data!.constraints[0]).toMatchObject({ operator: 'NUM_EQ', value: '42', values: [] });
    expect(listed[0]!.constraints).toEqual(added.data!.constraints);
  });

  it('refuses two items in `values` for an operator that needs one value', async () => {
    await expectConstraintRefused({ operator: 'NUM_EQ', values: ['1', '2'] }, 'NUM_EQ needs one value');
  });

  it('takes a single `value` as the one item of a list operator\'s values', async () => {
    const { added, listed } = await withConstraint({ operator: 'STR_CONTAINS', value: 'mid' });
    expect(added.response.status, JSON.stringify(added.error)).toBe(200);
    expect(added.data!.constraints[0]).toMatchObject({ operator: 'STR_CONTAINS', values: ['mid'] });
    expect(listed[0]!.constraints).toEqual(added.data!.constraints);
  });

  it('refuses an empty value for REGEX, which would match everything', async () => {
    await expectConstraintRefused({ operator: 'REGEX', value: '' }, 'REGEX needs one value');
  });
});

describe('numbers, dates and versions', () => {
  it.each(['v12', '1x5', '1.', '.5', '+3'])('refuses %s for NUM_GT: only digits, an optional minus and decimals', async (value) => {
    await expectConstraintRefused({ operator: 'NUM_GT', value }, `"${value}" is not a number`);
  });

  it.each([
    ['hour 24', '2024-01-31T24:00:00Z'],
    ['no offset (a local time SDKs would read in their own zone)', '2024-01-31T12:00:00'],
    ['a space instead of T', '2024-01-31 12:00:00Z'],
    ['31 April', '2024-04-31T00:00:00Z'],
    ['29 February of a common year', '2023-02-29T00:00:00Z'],
  ])('refuses a date-time with %s for DATE_AFTER', async (_case, value) => {
    await expectConstraintRefused({ operator: 'DATE_AFTER', value }, 'is not an RFC 3339 date-time');
  });

  it.each([
    ['29 February of a leap year', '2024-02-29T00:00:00Z'],
    ['the last day of December', '2024-12-31T23:59:59Z'],
    ['lower-case t and z', '2024-01-31t12:00:00z'],
    ['the largest offset east', '2024-01-31T12:00:00+23:59'],
    ['an offset west', '2024-01-31T12:00:00-20:00'],
  ])('accepts %s for DATE_BEFORE', async (_case, value) => {
    const { added } = await withConstraint({ operator: 'DATE_BEFORE', value });
    expect(added.response.status, JSON.stringify(added.error)).toBe(200);
    expect(added.data!.constraints[0]!.value).toBe(value);
  });

  it.each(['1.2.3 ', ' 1.2.3', '1.2.3\n'])('refuses the version %j, which semver would trim, for SEMVER_EQ', async (value) => {
    await expectConstraintRefused({ operator: 'SEMVER_EQ', value }, 'is not a valid semantic version');
  });
});

describe('REGEX', () => {
  it('says why RE2 refuses a pattern, in RE2\'s words without its "error parsing regexp" prefix', async () => {
    const message = await expectConstraintRefused({ operator: 'REGEX', value: '(?=a)' }, 'invalid or unsupported Perl syntax: `(?=`');
    expect(message).not.toContain('error parsing regexp');
  });
});
