import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';

// SDKs evaluate the REGEX operator with RE2, so the admin API accepts exactly the patterns RE2 compiles:
// inline flags yes, lookaround and backreferences no. Checked wherever constraints are written.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();

const re2Patterns = ['^(?i)abc$', '(?m)^foo$', '^(?s)a.b$'];
const notRe2Patterns = ['(?=a)', '(a)\\1'];

const regex = (value: string, extra: object = {}) => ({ contextName: 'userId', operator: 'REGEX', value, ...extra });

async function createFlag() {
  const name = unique('regex-flag');
  const response = await call(app, 'POST', '/api/admin/projects/default/features', { body: { name } });
  expect(response.status, response.text).toBe(201);
  return `/api/admin/projects/default/features/${name}/environments/development/strategies`;
}

async function createSegment(constraints: object[] = []) {
  const response = await call(app, 'POST', '/api/admin/segments', { body: { name: unique('regex-segment'), constraints } });
  expect(response.status, response.text).toBe(201);
  return response.json as { id: number; name: string; constraints: { value?: string }[] };
}

function expectRefusedNaming(response: Awaited<ReturnType<typeof call>>, pattern: string) {
  const message = expectError(response, 400, 'ValidationError').message;
  expect(message).toContain('constraints[0]');
  expect(message).toContain(pattern);
}

describe('REGEX constraints on strategies', () => {
  it.each(re2Patterns)('accepts the RE2 pattern %s and stores it as sent', async (pattern) => {
    const path = await createFlag();
    const response = await call(app, 'POST', path, { body: { name: 'default', constraints: [regex(pattern)] } });
    expect(response.status, response.text).toBe(200);
    const list = await call(app, 'GET', path);
    expect(list.json[0].constraints[0]).toMatchObject({ operator: 'REGEX', value: pattern });
  });

  it('accepts an RE2 pattern with an inline flag when caseInsensitive is set too', async () => {
    const path = await createFlag();
    const response = await call(app, 'POST', path, { body: { name: 'default', constraints: [regex('^(?i)abc$', { caseInsensitive: true })] } });
    expect(response.status, response.text).toBe(200);
  });

  it.each(notRe2Patterns)('refuses %s, which RE2 does not support, with 400 naming the constraint, adding nothing', async (pattern) => {
    const path = await createFlag();
    expectRefusedNaming(await call(app, 'POST', path, { body: { name: 'default', constraints: [regex(pattern)] } }), pattern);
    expect((await call(app, 'GET', path)).json).toEqual([]);
  });

  it.each(notRe2Patterns)('refuses %s on PUT of a strategy, keeping it', async (pattern) => {
    const path = await createFlag();
    const created = await call(app, 'POST', path, { body: { name: 'default', constraints: [regex('^kept$')] } });
    expect(created.status, created.text).toBe(200);
    const response = await call(app, 'PUT', `${path}/${created.json.id}`, { body: { name: 'default', constraints: [regex(pattern)] } });
    expectRefusedNaming(response, pattern);
    expect((await call(app, 'GET', path)).json[0].constraints[0].value).toBe('^kept$');
  });

  it.each(notRe2Patterns)('refuses %s in a JSON patch of a strategy', async (pattern) => {
    const path = await createFlag();
    const created = await call(app, 'POST', path, { body: { name: 'default', constraints: [regex('^kept$')] } });
    const response = await call(app, 'PATCH', `${path}/${created.json.id}`, { body: [{ op: 'replace', path: '/constraints/0/value', value: pattern }] });
    expectRefusedNaming(response, pattern);
  });
});

describe('REGEX constraints on segments', () => {
  it.each(re2Patterns)('accepts the RE2 pattern %s and stores it as sent', async (pattern) => {
    const segment = await createSegment([regex(pattern)]);
    const read = await call(app, 'GET', `/api/admin/segments/${segment.id}`);
    expect(read.json.constraints[0]).toMatchObject({ operator: 'REGEX', value: pattern });
  });

  it.each(notRe2Patterns)('refuses %s on create with 400 naming the constraint', async (pattern) => {
    const name = unique('refused-segment');
    expectRefusedNaming(await call(app, 'POST', '/api/admin/segments', { body: { name, constraints: [regex(pattern)] } }), pattern);
    const list = await call(app, 'GET', '/api/admin/segments');
    expect(list.json.segments.map((s: { name: string }) => s.name)).not.toContain(name);
  });

  it.each(notRe2Patterns)('refuses %s on update with 400 naming the constraint, keeping the segment', async (pattern) => {
    const segment = await createSegment([regex('^kept$')]);
    const response = await call(app, 'PUT', `/api/admin/segments/${segment.id}`, { body: { name: segment.name, constraints: [regex(pattern)] } });
    expectRefusedNaming(response, pattern);
    expect((await call(app, 'GET', `/api/admin/segments/${segment.id}`)).json.constraints[0].value).toBe('^kept$');
  });
});
