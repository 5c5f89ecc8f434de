import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

async function eventsOfType(type: string) {
  const { data } = await app.admin.GET('/api/admin/events');
  return data!.events.filter((e) => e.type === type);
}

describe('tag types', () => {
  it('lists the built-in type simple', async () => {
    const { data, response } = await app.admin.GET('/api/admin/tag-types');
    expect(response.status).toBe(200);
    expect(data!.version).toBe(1);
    expect(data!.tagTypes).toContainEqual(expect.objectContaining({ name: 'simple', description: 'Used to simplify filtering of features', icon: '#' }));
  });

  it('creates a tag type with 201, a location and one event', async () => {
    const { data, response } = await app.admin.POST('/api/admin/tag-types', {
      body: { name: 'team', description: 'Owning team', icon: 'people' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/api/admin/tag-types/team');
    expect(data).toMatchObject({ name: 'team', description: 'Owning team', icon: 'people' });
    const events = await eventsOfType('tag-type-created');
    expect(events.filter((e) => e.data?.name === 'team')).toHaveLength(1);
  });

  it('gets one tag type with createdAt', async () => {
    const { data } = await app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'team' } } });
    expect(data!.version).toBe(1);
    expect(data!.tagType.name).toBe('team');
    expect(Number.isNaN(Date.parse(data!.tagType.createdAt!))).toBe(false);
  });

  it('answers 404 for an unknown tag type', async () => {
    const result = await app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'nothing' } } });
    expectError(result, 404, 'NotFoundError');
  });

  it('refuses a duplicate name with 409 and writes no event', async () => {
    const before = (await eventsOfType('tag-type-created')).length;
    const result = await app.admin.POST('/api/admin/tag-types', { body: { name: 'team' } });
    expectError(result, 409, 'NameExistsError');
    expect(await eventsOfType('tag-type-created')).toHaveLength(before);
  });

  it.each([
    ['a name of one character', { name: 'a' }, 'body.name'],
    ['a name of 51 characters', { name: 'x'.repeat(51) }, 'body.name'],
    ['a name that is not URL-safe', { name: 'has space' }, 'body.name'],
    ['an unknown field', { name: 'okay', colour: 'red' }, 'colour'],
    ['a wrong type', { name: 42 }, 'body.name'],
    ['no name', { description: 'x' }, 'name'],
  ])('refuses %s with 400 naming the field', async (_case, body, field) => {
    const response = await call(app, 'POST', '/api/admin/tag-types', { body });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(field);
  });

  it('updates description and icon, keeping what was not sent', async () => {
    const response = await app.admin.PUT('/api/admin/tag-types/{typeName}', {
      params: { path: { typeName: 'team' } },
      body: { description: 'The team that owns the flag' },
    });
    expect(response.response.status).toBe(200);
    const { data } = await app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'team' } } });
    expect(data!.tagType).toMatchObject({ description: 'The team that owns the flag', icon: 'people' });
    const [event] = await eventsOfType('tag-type-updated');
    expect(event).toMatchObject({ data: { description: 'The team that owns the flag' }, preData: { description: 'Owning team' } });
  });

  it('writes no event for an update that changes nothing', async () => {
    const before = (await eventsOfType('tag-type-updated')).length;
    await app.admin.PUT('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'team' } }, body: { icon: 'people' } });
    expect(await eventsOfType('tag-type-updated')).toHaveLength(before);
  });

  it('answers 404 when updating an unknown tag type', async () => {
    const result = await app.admin.PUT('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'ghost' } }, body: { icon: 'x' } });
    expectError(result, 404, 'NotFoundError');
  });

  it('deletes an unused tag type with its unattached tags', async () => {
    await app.admin.POST('/api/admin/tag-types', { body: { name: 'temporary' } });
    await app.admin.POST('/api/admin/tags', { body: { type: 'temporary', value: 'loose' } });
    const response = await app.admin.DELETE('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'temporary' } } });
    expect(response.response.status).toBe(200);
    const gone = await app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'temporary' } } });
    expect(gone.response.status).toBe(404);
    const { data } = await app.admin.GET('/api/admin/tags/{type}', { params: { path: { type: 'temporary' } } });
    expect(data!.tags).toEqual([]);
    const [event] = await eventsOfType('tag-type-deleted');
    expect(event).toMatchObject({ preData: { name: 'temporary' } });
  });

  it('never deletes simple', async () => {
    const result = await app.admin.DELETE('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'simple' } } });
    expectError(result, 409, 'ConflictError');
    const { data } = await app.admin.GET('/api/admin/tag-types');
    expect(data!.tagTypes.map((t) => t.name)).toContain('simple');
  });

  it('answers 404 when deleting an unknown tag type', async () => {
    const result = await app.admin.DELETE('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'ghost' } } });
    expectError(result, 404, 'NotFoundError');
  });
});
