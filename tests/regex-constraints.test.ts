import type { components } from '../client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { envPath, fixtures } from './support/fixtures.js';

// SDKs evaluate the REGEX operator with RE2, so the admin API accepts exactly the patterns RE2 compiles:
// inline flags yes, lookaround and backreferences no. Checked wherever constraints are written.

type Constraint = components['schemas']['Constraint'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newFlag, addStrategy, strategiesOf, createSegment } = fixtures(() => app, unique);

const re2Patterns = ['^(?i)abc$', '(?m)^foo$', '^(?s)a.b$'];
const notRe2Patterns = ['(?=a)', '(a)\\1'];

const regex = (value: string, extra: Partial<Constraint> = {}): Constraint => ({ contextName: 'userId', operator: 'REGEX', value, ...extra });

const strategiesRoute = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies';
const strategyRoute = `${strategiesRoute}/{strategyId}` as const;
const segmentRoute = '/api/admin/segments/{segmentId}';

/** Tries to add a `default` strategy with the constraint to the flag in development. */
const postConstrained = (flag: string, constraint: Constraint) =>
  app.admin.POST(strategiesRoute, { params: { path: envPath(flag) }, body: { name: 'default', constraints: [constraint] } });

const readSegment = async (segmentId: number) => (await app.admin.GET(segmentRoute, { params: { path: { segmentId } } })).data!;

function expectRefusedNaming(response: Parameters<typeof expectError>[0], pattern: string) {
  const message = expectError(response, 400, 'ValidationError').message;
  expect(message).toContain('constraints[0]');
  expect(message).toContain(pattern);
}

describe('REGEX constraints on strategies', () => {
  it.each(re2Patterns)('accepts the RE2 pattern %s and stores it as sent', async (pattern) => {
    const flag = await newFlag('regex-flag');
    const response = await postConstrained(flag, regex(pattern));
    expect(response.response.status, JSON.stringify(response.error)).toBe(200);
    expect((await strategiesOf(flag))[0]!.constraints[0]).toMatchObject({ operator: 'REGEX', value: pattern });
  });

  it('accepts an RE2 pattern with an inline flag when caseInsensitive is set too', async () => {
    const flag = await newFlag('regex-flag');
    const response = await postConstrained(flag, regex('^(?i)abc$', { caseInsensitive: true }));
    expect(response.response.status, JSON.stringify(response.error)).toBe(200);
  });

  it.each(notRe2Patterns)('refuses %s, which RE2 does not support, with 400 naming the constraint, adding nothing', async (pattern) => {
    const flag = await newFlag('regex-flag');
    expectRefusedNaming(await postConstrained(flag, regex(pattern)), pattern);
    expect(await strategiesOf(flag)).toEqual([]);
  });

  it.each(notRe2Patterns)('refuses %s on PUT of a strategy, keeping it', async (pattern) => {
    const flag = await newFlag('regex-flag');
    const created = await addStrategy(flag, { name: 'default', constraints: [regex('^kept$')] });
    const response = await app.admin.PUT(strategyRoute, {
      params: { path: { ...envPath(flag), strategyId: created.id } },
      body: { name: 'default', constraints: [regex(pattern)] },
    });
    expectRefusedNaming(response, pattern);
    expect((await strategiesOf(flag))[0]!.constraints[0]!.value).toBe('^kept$');
  });

  it.each(notRe2Patterns)('refuses %s in a JSON patch of a strategy', async (pattern) => {
    const flag = await newFlag('regex-flag');
    const created = await addStrategy(flag, { name: 'default', constraints: [regex('^kept$')] });
    const response = await app.admin.PATCH(strategyRoute, {
      params: { path: { ...envPath(flag), strategyId: created.id } },
      body: [{ op: 'replace', path: '/constraints/0/value', value: pattern }],
    });
    expectRefusedNaming(response, pattern);
  });
});

describe('REGEX constraints on segments', () => {
  it.each(re2Patterns)('accepts the RE2 pattern %s and stores it as sent', async (pattern) => {
    const segment = await createSegment({ name: unique('regex-segment'), constraints: [regex(pattern)] });
    expect((await readSegment(segment.id)).constraints[0]).toMatchObject({ operator: 'REGEX', value: pattern });
  });

  it.each(notRe2Patterns)('refuses %s on create with 400 naming the constraint', async (pattern) => {
    const name = unique('refused-segment');
    expectRefusedNaming(await app.admin.POST('/api/admin/segments', { body: { name, constraints: [regex(pattern)] } }), pattern);
    const list = await app.admin.GET('/api/admin/segments');
    expect(list.data!.segments.map((s) => s.name)).not.toContain(name);
  });

  it.each(notRe2Patterns)('refuses %s on update with 400 naming the constraint, keeping the segment', async (pattern) => {
    const segment = await createSegment({ name: unique('regex-segment'), constraints: [regex('^kept$')] });
    const response = await app.admin.PUT(segmentRoute, { params: { path: { segmentId: segment.id } }, body: { name: segment.name, constraints: [regex(pattern)] } });
    expectRefusedNaming(response, pattern);
    expect((await readSegment(segment.id)).constraints[0]!.value).toBe('^kept$');
  });
});
