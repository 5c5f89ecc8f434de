// A lone UTF-16 surrogate is text PostgreSQL cannot store (jsonb refuses it, text turns it into U+FFFD):
// refused with 400 naming the field, wherever it comes in.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';

let app: TestApp;
const unique = uniqueNames();

beforeAll(async () => {
  app = await startTestApp();
});

const tagType = (typeName: string) => app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName } } });

describe('a lone surrogate in a JSON body', () => {
  it('refuses a tag type whose description is a lone high surrogate, naming the field', async () => {
    const name = unique('tag-type');
    const response = await call(app, 'POST', '/api/admin/tag-types', { body: `{"name":"${name}","description":"\\ud800"}` });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain('body.description');
    expect(error.message).toContain('surrogate');
    expect((await tagType(name)).response.status).toBe(404);
  });

  it('refuses a lone low surrogate, and a high one followed by another high one', async () => {
    for (const text of ['x\\udc00', '\\uDBFF\\uD800y', 'a\\ud800b\\udc00']) {
      const response = await call(app, 'POST', '/api/admin/tag-types', { body: `{"name":"${unique('tag-type')}","description":"${text}"}` });
      expect(expectError(response, 400, 'ValidationError').message, text).toContain('body.description');
    }
  });

  it('accepts a surrogate pair, escaped or not, and stores the character', async () => {
    const name = unique('tag-type');
    const created = await call(app, 'POST', '/api/admin/tag-types', { body: `{"name":"${name}","description":"\\ud83d\\ude80 and 🚀"}` });
    expect(created.status, created.text).toBe(201);
    expect((await tagType(name)).data!.tagType.description).toBe('🚀 and 🚀');
  });

  it('refuses a lone surrogate in a segment constraint value (jsonb), naming its place', async () => {
    const name = unique('segment');
    const body = `{"name":"${name}","constraints":[{"contextName":"userId","operator":"IN","values":["a","b\\udfff"]}]}`;
    const error = expectError(await call(app, 'POST', '/api/admin/segments', { body }), 400, 'ValidationError');
    expect(error.message).toContain('body.constraints.0.values.1');
    const segments = (await app.admin.GET('/api/admin/segments')).data!.segments;
    expect(segments.map((s) => s.name)).not.toContain(name);
  });

  it('refuses a lone surrogate in a field name, showing it escaped', async () => {
    const body = '{"development":1,"\\ud800":2}';
    const error = expectError(await call(app, 'PUT', '/api/admin/environments/sort-order', { body }), 400, 'ValidationError');
    expect(error.message).toContain('body.\\ud800');
    expect(error.message).not.toMatch(/[\ud800-\udfff]/);
  });

  it('names the field of a NUL character too', async () => {
    const body = `{"name":"${unique('tag-type')}","description":"a\\u0000b"}`;
    const error = expectError(await call(app, 'POST', '/api/admin/tag-types', { body }), 400, 'ValidationError');
    expect(error.message).toContain('body.description');
    expect(error.message).toContain('NUL');
  });

  it('refuses the registration of an SDK whose application name holds a lone surrogate', async () => {
    const body = `{"appName":"x\\ud800","interval":10000,"started":"2024-01-01T00:00:00Z","strategies":[]}`;
    expect(expectError(await call(app, 'POST', '/api/client/register', { body }), 400, 'ValidationError').message).toContain('body.appName');
  });
});

describe('a lone surrogate in a path or query', () => {
  // A query or path is percent-decoded as UTF-8: the bytes a surrogate would have (ED A0 80) are invalid
  // UTF-8 and stay as sent, so no lone surrogate can come in this way; these answer as any other text.
  it('answers a percent-encoded surrogate in a query value as plain text', async () => {
    const response = await call(app, 'GET', '/api/admin/search/features?query=%ED%A0%80');
    expect(response.status, response.text).toBe(200);
    expect(response.json.total).toBe(0);
  });

  it('answers a percent-encoded surrogate in a path parameter with 400 or 404', async () => {
    const response = await call(app, 'GET', '/api/admin/projects/%ED%A0%80');
    expect([400, 404]).toContain(response.status);
    expect(response.json).toEqual({ id: expect.any(String), name: expect.any(String), message: expect.any(String) });
  });

  it('names the query field of a NUL character', async () => {
    const error = expectError(await call(app, 'GET', '/api/admin/search/features?query=a%00b'), 400, 'ValidationError');
    expect(error.message).toContain('querystring.query');
  });

  it('ignores a NUL character in a query parameter the operation does not declare, as any unknown parameter', async () => {
    const response = await call(app, 'GET', '/api/admin/tag-types?unknown=a%00b');
    expect(response.status, response.text).toBe(200);
  });
});
