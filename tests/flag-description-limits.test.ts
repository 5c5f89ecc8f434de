import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';

// A flag's description holds at most 1,000 characters, however it is written: POST, PUT or a JSON patch.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const longest = 'd'.repeat(1000);
const tooLong = 'd'.repeat(1001);

const flagPath = (name: string) => `/api/admin/projects/default/features/${name}`;

async function createFlag(description?: string) {
  const name = unique('described');
  const response = await call(app, 'POST', '/api/admin/projects/default/features', { body: { name, ...(description !== undefined && { description }) } });
  expect(response.status, response.text).toBe(201);
  return name;
}

async function storedDescription(name: string) {
  const response = await call(app, 'GET', flagPath(name));
  expect(response.status).toBe(200);
  return response.json.description as string | null | undefined;
}

describe('a flag description of 1,001 characters', () => {
  it('is refused on POST with 400 naming the description, and no flag is created', async () => {
    const name = unique('refused');
    const response = await call(app, 'POST', '/api/admin/projects/default/features', { body: { name, description: tooLong } });
    expect(expectError(response, 400, 'ValidationError').message).toContain('description');
    expect((await call(app, 'GET', flagPath(name))).status).toBe(404);
  });

  it('is refused on PUT with 400 naming the description, and not stored', async () => {
    const name = await createFlag('before');
    const response = await call(app, 'PUT', flagPath(name), { body: { description: tooLong } });
    expect(expectError(response, 400, 'ValidationError').message).toContain('description');
    expect(await storedDescription(name)).toBe('before');
  });

  it('is refused on PATCH (replace) with 400 naming the description, and not stored', async () => {
    const name = await createFlag('before');
    const response = await call(app, 'PATCH', flagPath(name), { body: [{ op: 'replace', path: '/description', value: tooLong }] });
    expect(expectError(response, 400, 'ValidationError').message).toContain('description');
    expect(await storedDescription(name)).toBe('before');
  });

  it('is refused on PATCH (add, on a flag without a description) and not stored', async () => {
    const name = await createFlag();
    const response = await call(app, 'PATCH', flagPath(name), { body: [{ op: 'add', path: '/description', value: tooLong }] });
    expect(expectError(response, 400, 'ValidationError').message).toContain('description');
    // The flag read (`Feature`) may carry `description: null`, as Unleash's does.
    expect((await storedDescription(name)) ?? null).toBeNull();
  });
});

describe('a flag description of 1,000 characters', () => {
  it('is accepted on POST and stored whole', async () => {
    const name = await createFlag(longest);
    expect(await storedDescription(name)).toBe(longest);
  });

  it('is accepted on PUT and stored whole', async () => {
    const name = await createFlag('before');
    const response = await call(app, 'PUT', flagPath(name), { body: { description: longest } });
    expect(response.status, response.text).toBe(200);
    expect(await storedDescription(name)).toBe(longest);
  });

  it('is accepted on PATCH and stored whole', async () => {
    const name = await createFlag('before');
    const response = await call(app, 'PATCH', flagPath(name), { body: [{ op: 'replace', path: '/description', value: longest }] });
    expect(response.status, response.text).toBe(200);
    expect(await storedDescription(name)).toBe(longest);
  });
});

describe('a JSON patch of a flag is held to the PUT body rules', () => {
  it('refuses a type that is not a string with 400 naming the type', async () => {
    const name = await createFlag('before');
    const response = await call(app, 'PATCH', flagPath(name), { body: [{ op: 'replace', path: '/type', value: 7 }] });
    expect(expectError(response, 400, 'ValidationError').message).toContain('type');
  });

  it('refuses an empty type with 400 naming the type', async () => {
    const name = await createFlag('before');
    const response = await call(app, 'PATCH', flagPath(name), { body: [{ op: 'replace', path: '/type', value: '' }] });
    expect(expectError(response, 400, 'ValidationError').message).toContain('type');
  });
});
