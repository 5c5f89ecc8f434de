import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

/** The number of events the service holds, as the event list reports it. */
async function eventCount(): Promise<number> {
  const { data, response } = await app.admin.GET('/api/admin/events');
  expect(response.status).toBe(200);
  return data!.totalEvents;
}

const { latestEventId, eventsSince } = eventReader(() => app);

async function createTagType(name: string) {
  const result = await app.admin.POST('/api/admin/tag-types', { body: { name } });
  expect(result.response.status).toBe(201);
}

const { createTag, flagsWithTags } = fixtures(() => app, uniqueNames());

const getTag = (type: string, value: string) => app.admin.GET('/api/admin/tags/{type}/{value}', { params: { path: { type, value } } });
const deleteTag = (type: string, value: string) => app.admin.DELETE('/api/admin/tags/{type}/{value}', { params: { path: { type, value } } });

describe('creating a tag', () => {
  it('answers 201 with a location, the tag in a version-1 envelope, and writes one tag-created event', async () => {
    const since = await latestEventId();
    const { data, response } = await app.admin.POST('/api/admin/tags', { body: { type: 'simple', value: 'created-one' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/api/admin/tags/simple/created-one');
    expect(data).toEqual({ version: 1, tag: { type: 'simple', value: 'created-one' } });

    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'tag-created',
      data: { type: 'simple', value: 'created-one' },
      preData: null,
      featureName: null,
      project: null,
    });
  });

  it('gives a location that percent-encodes the value and leads to the tag', async () => {
    const value = 'team a/b 50%';
    const { response } = await app.admin.POST('/api/admin/tags', { body: { type: 'simple', value } });
    expect(response.status).toBe(201);
    const location = response.headers.get('location')!;
    expect(location).toBe(`/api/admin/tags/simple/${encodeURIComponent(value)}`);
    // Raw: the Location header is followed as the service wrote it.
    const fetched = await call(app, 'GET', location);
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual({ version: 1, tag: { type: 'simple', value } });
  });

  it('accepts values of exactly 2 and 50 characters and inner whitespace', async () => {
    for (const value of ['ab', 'v'.repeat(50), 'has inner space']) {
      const { data, response } = await app.admin.POST('/api/admin/tags', { body: { type: 'simple', value } });
      expect(response.status).toBe(201);
      expect(data!.tag).toEqual({ type: 'simple', value });
    }
  });

  it('accepts a tag of a tag type other than simple', async () => {
    await createTagType('create-custom');
    const { data, response } = await app.admin.POST('/api/admin/tags', { body: { type: 'create-custom', value: 'custom-value' } });
    expect(response.status).toBe(201);
    expect(data!.tag).toEqual({ type: 'create-custom', value: 'custom-value' });
    const fetched = await getTag('create-custom', 'custom-value');
    expect(fetched.response.status).toBe(200);
  });

  it('refuses a duplicate with 409 NameExistsError and writes no event', async () => {
    await createTag('simple', 'duplicate-me');
    const before = await eventCount();
    const result = await app.admin.POST('/api/admin/tags', { body: { type: 'simple', value: 'duplicate-me' } });
    const error = expectError(result, 409, 'NameExistsError');
    expect(error.message).toContain('duplicate-me');
    expect(await eventCount()).toBe(before);
  });

  it('creates a tag once when the same tag is created concurrently', async () => {
    const before = await eventCount();
    const results = await Promise.all(
      [0, 1, 2].map(() => app.admin.POST('/api/admin/tags', { body: { type: 'simple', value: 'concurrent-create' } })),
    );
    expect(results.map((r) => r.response.status).sort()).toEqual([201, 409, 409]);
    for (const refused of results.filter((r) => r.response.status === 409)) expectError(refused, 409, 'NameExistsError');
    expect(await eventCount()).toBe(before + 1);
  });

  it('refuses a tag whose type does not exist with 400 ValidationError naming the type, and writes no event', async () => {
    const before = await eventCount();
    const response = await app.admin.POST('/api/admin/tags', { body: { type: 'no-such-type', value: 'orphan' } });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain('type');
    expect(error.message).toContain('no-such-type');
    expect(await eventCount()).toBe(before);
    const { data } = await app.admin.GET('/api/admin/tags/{type}', { params: { path: { type: 'no-such-type' } } });
    expect(data!.tags).toEqual([]);
  });

  async function expectTagRefusedNaming(send: () => Promise<Parameters<typeof expectError>[0]>, field: string) {
    const before = await eventCount();
    const error = expectError(await send(), 400, 'ValidationError');
    expect(error.message).toContain(field);
    expect(await eventCount()).toBe(before);
  }

  it.each([
    ['a value of one character', { type: 'simple', value: 'a' }, 'body.value'],
    ['a value of 51 characters', { type: 'simple', value: 'v'.repeat(51) }, 'body.value'],
    ['a value with leading whitespace', { type: 'simple', value: ' leading' }, 'body.value'],
    ['a value with trailing whitespace', { type: 'simple', value: 'trailing ' }, 'body.value'],
    ['a value with a trailing tab', { type: 'simple', value: 'tabbed\t' }, 'body.value'],
    ['a type of one character', { type: 's', value: 'okay' }, 'body.type'],
    ['a type of 51 characters', { type: 't'.repeat(51), value: 'okay' }, 'body.type'],
    ['a type that is not URL-safe', { type: 'has space', value: 'okay' }, 'body.type'],
  ])('refuses %s with 400 ValidationError naming the field, and writes no event', async (_case, body, field) => {
    await expectTagRefusedNaming(() => app.admin.POST('/api/admin/tags', { body }), field);
  });

  // Bodies the types forbid, so sent raw.
  it.each([
    ['an unknown field', { type: 'simple', value: 'okay', colour: 'red' }, 'colour'],
    ['a value of the wrong JSON type', { type: 'simple', value: 42 }, 'body.value'],
    ['a type of the wrong JSON type', { type: ['simple'], value: 'okay' }, 'body.type'],
    ['a missing value', { type: 'simple' }, 'value'],
    ['a missing type', { value: 'okay' }, 'type'],
  ])('refuses %s with 400 ValidationError naming the field, and writes no event', async (_case, body, field) => {
    await expectTagRefusedNaming(() => call(app, 'POST', '/api/admin/tags', { body }), field);
  });

  it('refuses a body that is not an object with 400 ValidationError', async () => {
    const before = await eventCount();
    for (const body of ['[]', '"simple"', 'null']) {
      expectError(await call(app, 'POST', '/api/admin/tags', { body }), 400, 'ValidationError');
    }
    expect(await eventCount()).toBe(before);
  });

  it('refuses a body that is not JSON with 415 ContentTypeerror and writes no event', async () => {
    const before = await eventCount();
    const response = await call(app, 'POST', '/api/admin/tags', { body: 'type=simple&value=form', contentType: 'application/x-www-form-urlencoded' });
    expectError(response, 415, 'ContentTypeerror');
    expect(await eventCount()).toBe(before);
    expect((await getTag('simple', 'form')).response.status).toBe(404);
  });

  it('refuses a caller without a credential with 401', async () => {
    const before = await eventCount();
    const response = await app.clientWith().POST('/api/admin/tags', { body: { type: 'simple', value: 'anonymous' } });
    expectError(response, 401, 'AuthenticationRequired');
    expect(await eventCount()).toBe(before);
    expect((await getTag('simple', 'anonymous')).response.status).toBe(404);
  });
});

describe('reading tags', () => {
  it('lists every tag in a version-1 envelope', async () => {
    await createTagType('list-all');
    await createTag('list-all', 'first');
    await createTag('simple', 'list-all-second');
    const { data, response } = await app.admin.GET('/api/admin/tags');
    expect(response.status).toBe(200);
    expect(data!.version).toBe(1);
    expect(data!.tags).toContainEqual({ type: 'list-all', value: 'first' });
    expect(data!.tags).toContainEqual({ type: 'simple', value: 'list-all-second' });
    for (const tag of data!.tags) expect(Object.keys(tag).sort()).toEqual(['type', 'value']);
  });

  it('lists only the tags of one type', async () => {
    await createTagType('by-type');
    await createTag('by-type', 'one');
    await createTag('by-type', 'two');
    await createTag('simple', 'by-type-not-this');
    const { data, response } = await app.admin.GET('/api/admin/tags/{type}', { params: { path: { type: 'by-type' } } });
    expect(response.status).toBe(200);
    expect(data!.version).toBe(1);
    expect(data!.tags).toHaveLength(2);
    expect(data!.tags).toEqual(expect.arrayContaining([
      { type: 'by-type', value: 'one' },
      { type: 'by-type', value: 'two' },
    ]));
  });

  it('answers 200 with an empty list for a type that does not exist', async () => {
    const { data, response } = await app.admin.GET('/api/admin/tags/{type}', { params: { path: { type: 'never-created' } } });
    expect(response.status).toBe(200);
    expect(data).toEqual({ version: 1, tags: [] });
  });

  it('answers 200 with an empty list for a type that exists but has no tags', async () => {
    await createTagType('empty-type');
    const { data, response } = await app.admin.GET('/api/admin/tags/{type}', { params: { path: { type: 'empty-type' } } });
    expect(response.status).toBe(200);
    expect(data).toEqual({ version: 1, tags: [] });
  });

  it('gets one tag in a version-1 envelope', async () => {
    await createTag('simple', 'get-me');
    const { data, response } = await getTag('simple', 'get-me');
    expect(response.status).toBe(200);
    expect(data).toEqual({ version: 1, tag: { type: 'simple', value: 'get-me' } });
  });

  it('answers 404 NotFoundError for an unknown tag, naming it', async () => {
    const result = await getTag('simple', 'never-made');
    const error = expectError(result, 404, 'NotFoundError');
    expect(error.message).toContain('never-made');
  });

  it('answers 404 for a value that exists only under another type', async () => {
    await createTagType('other-type');
    await createTag('simple', 'shared-value');
    expectError(await getTag('other-type', 'shared-value'), 404, 'NotFoundError');
  });

  it('answers a path parameter longer than the contract allows with a contract error', async () => {
    // The contract bounds path parameters at 100 characters and lists 400 for these operations.
    const response = await getTag('simple', 'x'.repeat(101));
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain('value');
  });
});

describe('deleting a tag', () => {
  it('deletes a tag with 200 and writes one tag-deleted event', async () => {
    await createTag('simple', 'delete-me');
    const since = await latestEventId();
    const { response } = await deleteTag('simple', 'delete-me');
    expect(response.status).toBe(200);
    expectError(await getTag('simple', 'delete-me'), 404, 'NotFoundError');
    const { data } = await app.admin.GET('/api/admin/tags');
    expect(data!.tags).not.toContainEqual({ type: 'simple', value: 'delete-me' });

    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'tag-deleted', data: { type: 'simple', value: 'delete-me' }, featureName: null, project: null });
  });

  it('answers 404 NotFoundError for an unknown tag and writes no event', async () => {
    const before = await eventCount();
    const result = await deleteTag('simple', 'not-there');
    const error = expectError(result, 404, 'NotFoundError');
    expect(error.message).toContain('not-there');
    expect(await eventCount()).toBe(before);
  });

  it('answers 404 when the tag was deleted already, and writes no second event', async () => {
    await createTag('simple', 'delete-twice');
    expect((await deleteTag('simple', 'delete-twice')).response.status).toBe(200);
    const before = await eventCount();
    expectError(await deleteTag('simple', 'delete-twice'), 404, 'NotFoundError');
    expect(await eventCount()).toBe(before);
  });

  it('deletes a tag once when it is deleted concurrently', async () => {
    for (let round = 0; round < 5; round++) {
      const value = `concurrent-delete-${round}`;
      await createTag('simple', value);
      const before = await eventCount();
      const results = await Promise.all([0, 1, 2].map(() => deleteTag('simple', value)));
      expect(results.map((r) => r.response.status).sort()).toEqual([200, 404, 404]);
      expect(await eventCount()).toBe(before + 1);
    }
  });

  it('removes the tag from every flag: one feature-untagged per flag, then tag-deleted', async () => {
    await createTagType('doomed-type');
    await createTag('doomed-type', 'doomed');
    await createTag('simple', 'survivor');
    await flagsWithTags(['untag-flag-a'], [{ type: 'doomed-type', value: 'doomed' }, { type: 'simple', value: 'survivor' }]);
    await flagsWithTags(['untag-flag-b'], [{ type: 'doomed-type', value: 'doomed' }]);
    await flagsWithTags(['untag-flag-untouched'], [{ type: 'simple', value: 'survivor' }]);
    const since = await latestEventId();

    const { response } = await deleteTag('doomed-type', 'doomed');
    expect(response.status).toBe(200);
    expectError(await getTag('doomed-type', 'doomed'), 404, 'NotFoundError');
    expect((await app.admin.GET('/api/admin/tags/{type}', { params: { path: { type: 'doomed-type' } } })).data!.tags).toEqual([]);
    // The other tag is untouched.
    expect((await getTag('simple', 'survivor')).response.status).toBe(200);

    const events = await eventsSince(since);
    const untagged = events.filter((e) => e.type === 'feature-untagged');
    expect(untagged).toHaveLength(2);
    expect(untagged.map((e) => e.featureName).sort()).toEqual(['untag-flag-a', 'untag-flag-b']);
    for (const event of untagged) {
      expect(event).toMatchObject({ project: 'default', preData: { type: 'doomed-type', value: 'doomed' } });
    }
    // Each event lists the tags the flag still carries.
    expect(untagged.find((e) => e.featureName === 'untag-flag-a')!.tags).toEqual([{ type: 'simple', value: 'survivor' }]);
    expect(untagged.find((e) => e.featureName === 'untag-flag-b')!.tags).toEqual([]);

    const deleted = events.filter((e) => e.type === 'tag-deleted');
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ data: { type: 'doomed-type', value: 'doomed' } });
    expect(events).toHaveLength(3);
  });

  it('frees the tag type once its tag is gone from every flag', async () => {
    await createTagType('freed-type');
    await createTag('freed-type', 'freed');
    await flagsWithTags(['freed-flag'], [{ type: 'freed-type', value: 'freed' }]);
    expect((await deleteTag('freed-type', 'freed')).response.status).toBe(200);
    const { response } = await app.admin.DELETE('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'freed-type' } } });
    expect(response.status).toBe(200);
  });
});

describe('deleting a tag type whose tag is on a flag', () => {
  it('refuses with 409 ConflictError and changes nothing', async () => {
    await createTagType('pinned-type');
    await createTag('pinned-type', 'pinned');
    await createTag('pinned-type', 'loose');
    await flagsWithTags(['pinned-flag'], [{ type: 'pinned-type', value: 'pinned' }]);
    const before = await eventCount();

    const result = await app.admin.DELETE('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'pinned-type' } } });
    const error = expectError(result, 409, 'ConflictError');
    expect(error.message).toContain('pinned-type');

    expect(await eventCount()).toBe(before);
    const type = await app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'pinned-type' } } });
    expect(type.response.status).toBe(200);
    const { data } = await app.admin.GET('/api/admin/tags/{type}', { params: { path: { type: 'pinned-type' } } });
    expect(data!.tags).toHaveLength(2);
    expect(data!.tags).toEqual(expect.arrayContaining([
      { type: 'pinned-type', value: 'pinned' },
      { type: 'pinned-type', value: 'loose' },
    ]));

    // The flag still carries the tag: deleting the tag now untags it.
    const since = await latestEventId();
    expect((await deleteTag('pinned-type', 'pinned')).response.status).toBe(200);
    const untagged = (await eventsSince(since)).filter((e) => e.type === 'feature-untagged');
    expect(untagged.map((e) => e.featureName)).toEqual(['pinned-flag']);
  });
});
