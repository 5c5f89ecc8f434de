import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures, flagPath } from './support/fixtures.js';

// A flag's description holds at most 1,000 characters, however it is written: POST, PUT or a JSON patch.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const longest = 'd'.repeat(1000);
const tooLong = 'd'.repeat(1001);

const { newFlag, flagOf } = fixtures(() => app, unique);
const describedFlag = (description?: string) => newFlag('described', 'default', description === undefined ? {} : { description });
const storedDescription = async (name: string) => (await flagOf(name)).description;

const flagRoute = '/api/admin/projects/{projectId}/features/{featureName}';
const putDescription = (name: string, description: string) => app.admin.PUT(flagRoute, { params: { path: flagPath(name) }, body: { description } });
const patchFlag = (name: string, path: string, value: unknown, op: 'add' | 'replace' = 'replace') =>
  app.admin.PATCH(flagRoute, { params: { path: flagPath(name) }, body: [{ op, path, value }] });

describe('a flag description of 1,001 characters', () => {
  it('is refused on POST with 400 naming the description, and no flag is created', async () => {
    const name = unique('refused');
    const response = await app.admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: 'default' } }, body: { name, description: tooLong } });
    expect(expectError(response, 400, 'ValidationError').message).toContain('description');
    expect((await app.admin.GET(flagRoute, { params: { path: flagPath(name) } })).response.status).toBe(404);
  });

  it('is refused on PUT with 400 naming the description, and not stored', async () => {
    const name = await describedFlag('before');
    const response = await putDescription(name, tooLong);
    expect(expectError(response, 400, 'ValidationError').message).toContain('description');
    expect(await storedDescription(name)).toBe('before');
  });

  it('is refused on PATCH (replace) with 400 naming the description, and not stored', async () => {
    const name = await describedFlag('before');
    const response = await patchFlag(name, '/description', tooLong);
    expect(expectError(response, 400, 'ValidationError').message).toContain('description');
    expect(await storedDescription(name)).toBe('before');
  });

  it('is refused on PATCH (add, on a flag without a description) and not stored', async () => {
    const name = await describedFlag();
    const response = await patchFlag(name, '/description', tooLong, 'add');
    expect(expectError(response, 400, 'ValidationError').message).toContain('description');
    // The flag read (`Feature`) may carry `description: null`, as Unleash's does.
    expect((await storedDescription(name)) ?? null).toBeNull();
  });
});

describe('a flag description of 1,000 characters', () => {
  it('is accepted on POST and stored whole', async () => {
    const name = await describedFlag(longest);
    expect(await storedDescription(name)).toBe(longest);
  });

  it('is accepted on PUT and stored whole', async () => {
    const name = await describedFlag('before');
    const response = await putDescription(name, longest);
    expect(response.response.status, JSON.stringify(response.error)).toBe(200);
    expect(await storedDescription(name)).toBe(longest);
  });

  it('is accepted on PATCH and stored whole', async () => {
    const name = await describedFlag('before');
    const response = await patchFlag(name, '/description', longest);
    expect(response.response.status, JSON.stringify(response.error)).toBe(200);
    expect(await storedDescription(name)).toBe(longest);
  });
});

describe('a JSON patch of a flag is held to the PUT body rules', () => {
  it('refuses a type that is not a string with 400 naming the type', async () => {
    const name = await describedFlag('before');
    const response = await patchFlag(name, '/type', 7);
    expect(expectError(response, 400, 'ValidationError').message).toContain('type');
  });

  it('refuses an empty type with 400 naming the type', async () => {
    const name = await describedFlag('before');
    const response = await patchFlag(name, '/type', '');
    expect(expectError(response, 400, 'ValidationError').message).toContain('type');
  });
});
