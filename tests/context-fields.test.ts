import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures } from './support/fixtures.js';

type CreateContextField = components['schemas']['CreateContextField'];
type Constraint = components['schemas']['Constraint'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const project = await app.admin.POST('/api/admin/projects', { body: { id: 'ctx-other', name: 'Other' } });
  expect(project.response.status).toBe(201);
});

const unique = uniqueNames();
const { newFlag, addStrategy, createSegment, archiveFlag } = fixtures(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);

const fieldPath = (contextField: string) => ({ params: { path: { contextField } } });

async function createField(body: Partial<CreateContextField> = {}) {
  const result = await app.admin.POST('/api/admin/context', { body: { name: unique('field'), ...body } });
  if (result.response.status !== 201) throw new Error(`creating a context field failed: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data!;
}

async function getField(name: string) {
  const result = await app.admin.GET('/api/admin/context/{contextField}', fieldPath(name));
  expect(result.response.status).toBe(200);
  return result.data!;
}

async function listFields() {
  const { data, response } = await app.admin.GET('/api/admin/context');
  expect(response.status).toBe(200);
  return data!;
}

/** The strategies whose constraints, or segments' constraints, use the context field. */
async function strategiesUsing(name: string) {
  const result = await app.admin.GET('/api/admin/context/{contextField}/strategies', fieldPath(name));
  expect(result.response.status).toBe(200);
  return result.data!.strategies;
}

/** A `default` strategy with these constraints and segments (none unless given). */
const defaultStrategy = (fields: { constraints?: Constraint[]; segments?: number[] }) => ({ name: 'default', constraints: [], segments: [], ...fields });

const on = (contextName: string): Constraint => ({ contextName, operator: 'IN', values: ['x'] });

describe('creating context fields', () => {
  it('creates a field with defaults, 201, a location and one event', async () => {
    const name = unique('region');
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/context', { body: { name } });
    expect(result.response.status).toBe(201);
    expect(result.response.headers.get('location')).toBe(`/api/admin/context/${name}`);
    const field = result.data!;
    expect(field).toMatchObject({ name, description: null, stickiness: false, sortOrder: 10, legalValues: [], usedInFeatures: 0, usedInProjects: 0 });
    expect(Number.isNaN(Date.parse(field.createdAt!))).toBe(false);
    expect(await getField(name)).toEqual(field);

    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'context-field-created',
      data: { name, description: null, stickiness: false, sortOrder: 10, legalValues: [] },
    });
  });

  it('creates a field with every property and a name using every allowed punctuation character', async () => {
    const name = unique("tier.(a)_b~c!'*");
    const legalValues = [{ value: 'gold', description: 'Paying most' }, { value: 'silver' }];
    const result = await app.admin.POST('/api/admin/context', { body: { name, description: 'Customer tier', stickiness: true, sortOrder: -3, legalValues } });
    expect(result.response.status).toBe(201);
    expect(result.response.headers.get('location')).toBe(`/api/admin/context/${encodeURIComponent(name)}`);
    expect(result.data).toMatchObject({ name, description: 'Customer tier', stickiness: true, sortOrder: -3, legalValues });
    expect(await getField(name)).toMatchObject({ name, legalValues });
  });

  it('refuses a taken name with 409 NameExistsError, before any other check, and writes no event', async () => {
    const field = await createField();
    const before = await latestEventId();
    const error = expectError(await app.admin.POST('/api/admin/context', { body: { name: field.name } }), 409, 'NameExistsError');
    expect(error.message).toContain(field.name);
    expectError(await app.admin.POST('/api/admin/context', { body: { name: 'userId' } }), 409, 'NameExistsError');
    const duplicateValues = { name: field.name, legalValues: [{ value: 'a' }, { value: 'a' }] };
    expectError(await app.admin.POST('/api/admin/context', { body: duplicateValues }), 409, 'NameExistsError');
    expect((await listFields()).filter((f) => f.name === field.name)).toHaveLength(1);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['a name with invalid characters', { name: 'has space' }, 'name'],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
    ['an unknown field', { name: 'okay-name', colour: 'red' }, 'colour'],
    ['a name of the wrong type', { name: 42 }, 'name'],
    ['a stickiness of the wrong type', { name: 'okay-name', stickiness: 'yes' }, 'stickiness'],
    ['a sortOrder of the wrong type', { name: 'okay-name', sortOrder: 'first' }, 'sortOrder'],
    ['a legal value without value', { name: 'okay-name', legalValues: [{ description: 'x' }] }, 'value'],
    ['a legal value listed twice', { name: 'okay-name', legalValues: [{ value: 'a' }, { value: 'b' }, { value: 'a' }] }, 'legalValues[2].value'],
    ['no name', { description: 'x' }, 'name'],
  ])('refuses %s with 400 naming the field, adding nothing', async (_case, body, mention) => {
    const before = await latestEventId();
    const error = expectError(await call(app, 'POST', '/api/admin/context', { body }), 400, 'ValidationError');
    expect(error.message).toContain(mention);
    expect((await listFields()).map((f) => f.name)).not.toContain('okay-name');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('names the duplicated legal value', async () => {
    const body = { name: unique('dupes'), legalValues: [{ value: 'north' }, { value: 'north' }] };
    const error = expectError(await app.admin.POST('/api/admin/context', { body }), 400, 'ValidationError');
    expect(error.message).toContain('"north"');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await call(app, 'POST', '/api/admin/context', { body: 'name=plain', contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
  });
});

describe('validating context field names', () => {
  it('answers 200 without a body for a free name', async () => {
    const { data, response } = await app.admin.POST('/api/admin/context/validate', { body: { name: unique('free') } });
    expect(response.status).toBe(200);
    // The client answers undefined data for an empty body only.
    expect(data).toBeUndefined();
  });

  it('answers 409 NameExistsError for a taken name', async () => {
    const field = await createField();
    const error = expectError(await app.admin.POST('/api/admin/context/validate', { body: { name: field.name } }), 409, 'NameExistsError');
    expect(error.message).toContain(field.name);
    expectError(await app.admin.POST('/api/admin/context/validate', { body: { name: 'environment' } }), 409, 'NameExistsError');
  });

  it('refuses an invalid name with 400 naming the field', async () => {
    const error = expectError(await app.admin.POST('/api/admin/context/validate', { body: { name: 'no/slash' } }), 400, 'ValidationError');
    expect(error.message).toContain('name');
  });
});

describe('listing and reading context fields', () => {
  it('lists the five built-in fields', async () => {
    const fields = await listFields();
    for (const name of ['environment', 'userId', 'appName', 'currentTime', 'sessionId']) {
      expect(fields.find((f) => f.name === name)).toMatchObject({ name, legalValues: [], usedInFeatures: expect.any(Number) });
    }
    expect(fields.find((f) => f.name === 'sessionId')!.stickiness).toBe(true);
  });

  it('orders by sortOrder, then name', async () => {
    const late = await createField({ name: unique('order-b'), sortOrder: 500 });
    const lateFirst = await createField({ name: unique('order-a'), sortOrder: 500 });
    const early = await createField({ name: unique('order-c'), sortOrder: -500 });
    const fields = await listFields();
    const sortOrders = fields.map((f) => f.sortOrder);
    expect(sortOrders).toEqual([...sortOrders].sort((a, b) => a - b));
    const mine = fields.map((f) => f.name).filter((n) => [late.name, lateFirst.name, early.name].includes(n));
    expect(mine).toEqual([early.name, lateFirst.name, late.name]);
    expect(fields[0]!.name).toBe(early.name);
  });

  it('answers 404 NotFoundError for an unknown field', async () => {
    const error = expectError(await app.admin.GET('/api/admin/context/{contextField}', fieldPath('no-such-field')), 404, 'NotFoundError');
    expect(error.message).toContain('no-such-field');
  });
});

describe('updating context fields', () => {
  it('changes what is sent, keeps the rest, replaces the legal values and records data and preData', async () => {
    const field = await createField({ description: 'old', sortOrder: 7, legalValues: [{ value: 'a' }, { value: 'b', description: 'bee' }] });
    const before = await latestEventId();
    const result = await app.admin.PUT('/api/admin/context/{contextField}', {
      ...fieldPath(field.name),
      body: { name: field.name, stickiness: true, legalValues: [{ value: 'c' }] },
    });
    expect(result.response.status).toBe(200);
    const expected = { ...field, stickiness: true, legalValues: [{ value: 'c' }] };
    expect(result.data).toEqual(expected);
    expect(await getField(field.name)).toEqual(expected);

    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'context-field-updated',
      data: { name: field.name, description: 'old', stickiness: true, sortOrder: 7, legalValues: [{ value: 'c' }] },
      preData: { name: field.name, description: 'old', stickiness: false, sortOrder: 7, legalValues: [{ value: 'a' }, { value: 'b', description: 'bee' }] },
    });
  });

  it('clears the description with null and leaves legal values alone when they are not sent', async () => {
    const field = await createField({ description: 'to clear', legalValues: [{ value: 'keep' }] });
    const result = await app.admin.PUT('/api/admin/context/{contextField}', { ...fieldPath(field.name), body: { description: null, sortOrder: 3 } });
    expect(result.response.status).toBe(200);
    expect(result.data).toMatchObject({ description: null, sortOrder: 3, legalValues: [{ value: 'keep' }] });
  });

  it('writes no event for an update that changes nothing', async () => {
    const field = await createField({ description: 'same', legalValues: [{ value: 'one' }] });
    const before = await latestEventId();
    const result = await app.admin.PUT('/api/admin/context/{contextField}', {
      ...fieldPath(field.name),
      body: { name: field.name, description: 'same', legalValues: [{ value: 'one' }] },
    });
    expect(result.response.status).toBe(200);
    expect(result.data).toEqual(field);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['a rename', (name: string) => ({ name: `${name}-renamed` }), 'name'],
    ['duplicate legal values', () => ({ legalValues: [{ value: 'x' }, { value: 'x' }] }), 'legalValues[1].value'],
    ['an unknown field', () => ({ colour: 'red' }), 'colour'],
    ['a sortOrder of the wrong type', () => ({ sortOrder: 1.5 }), 'sortOrder'],
  ])('refuses %s with 400 naming the field, changing nothing', async (_case, body, mention) => {
    const field = await createField({ legalValues: [{ value: 'kept' }] });
    const before = await latestEventId();
    const error = expectError(await call(app, 'PUT', `/api/admin/context/${field.name}`, { body: body(field.name) }), 400, 'ValidationError');
    expect(error.message).toContain(mention);
    expect(await getField(field.name)).toEqual(field);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 for an unknown field', async () => {
    const result = await app.admin.PUT('/api/admin/context/{contextField}', { ...fieldPath('ghost-field'), body: { description: 'x' } });
    expectError(result, 404, 'NotFoundError');
  });
});

describe('legal values', () => {
  it('adds a value, replaces the description of an existing one and removes one, each with an event', async () => {
    const field = await createField({ legalValues: [{ value: 'a' }] });
    let before = await latestEventId();
    const added = await app.admin.POST('/api/admin/context/{contextField}/legal-values', { ...fieldPath(field.name), body: { value: 'b', description: 'bee' } });
    expect(added.response.status).toBe(200);
    expect(added.data!.legalValues).toEqual([{ value: 'a' }, { value: 'b', description: 'bee' }]);
    let events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'context-field-updated',
      data: { name: field.name, legalValues: [{ value: 'a' }, { value: 'b', description: 'bee' }] },
      preData: { name: field.name, legalValues: [{ value: 'a' }] },
    });

    const replaced = await app.admin.POST('/api/admin/context/{contextField}/legal-values', { ...fieldPath(field.name), body: { value: 'a', description: 'ay' } });
    expect(replaced.response.status).toBe(200);
    expect(replaced.data!.legalValues).toEqual([{ value: 'a', description: 'ay' }, { value: 'b', description: 'bee' }]);

    before = await latestEventId();
    const removed = await app.admin.DELETE('/api/admin/context/{contextField}/legal-values/{legalValue}', {
      params: { path: { contextField: field.name, legalValue: 'b' } },
    });
    expect(removed.response.status).toBe(200);
    expect(removed.data!.legalValues).toEqual([{ value: 'a', description: 'ay' }]);
    expect((await getField(field.name)).legalValues).toEqual([{ value: 'a', description: 'ay' }]);
    events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'context-field-updated',
      data: { legalValues: [{ value: 'a', description: 'ay' }] },
      preData: { legalValues: [{ value: 'a', description: 'ay' }, { value: 'b', description: 'bee' }] },
    });
  });

  it('removes a value whose path segment needs encoding', async () => {
    const field = await createField({ legalValues: [{ value: 'a b/c?' }, { value: 'other' }] });
    const { data, response } = await app.admin.DELETE('/api/admin/context/{contextField}/legal-values/{legalValue}', {
      params: { path: { contextField: field.name, legalValue: 'a b/c?' } },
    });
    expect(response.status).toBe(200);
    expect(data!.legalValues).toEqual([{ value: 'other' }]);
  });

  it('writes no event when a value is added again unchanged', async () => {
    const field = await createField({ legalValues: [{ value: 'same', description: 'd' }] });
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/context/{contextField}/legal-values', { ...fieldPath(field.name), body: { value: 'same', description: 'd' } });
    expect(result.response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 when the field is unknown or the value is not there, changing nothing', async () => {
    const field = await createField({ legalValues: [{ value: 'present' }] });
    const before = await latestEventId();
    expectError(
      await app.admin.POST('/api/admin/context/{contextField}/legal-values', { ...fieldPath('ghost-field'), body: { value: 'v' } }),
      404,
      'NotFoundError',
    );
    expectError(
      await app.admin.DELETE('/api/admin/context/{contextField}/legal-values/{legalValue}', { params: { path: { contextField: 'ghost-field', legalValue: 'v' } } }),
      404,
      'NotFoundError',
    );
    const missing = expectError(
      await app.admin.DELETE('/api/admin/context/{contextField}/legal-values/{legalValue}', { params: { path: { contextField: field.name, legalValue: 'absent' } } }),
      404,
      'NotFoundError',
    );
    expect(missing.message).toContain('absent');
    expect((await getField(field.name)).legalValues).toEqual([{ value: 'present' }]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a legal value with an unknown property or no value with 400', async () => {
    const field = await createField();
    const extra = expectError(await call(app, 'POST', `/api/admin/context/${field.name}/legal-values`, { body: { value: 'v', colour: 'red' } }), 400, 'ValidationError');
    expect(extra.message).toContain('colour');
    const noValue = expectError(await call(app, 'POST', `/api/admin/context/${field.name}/legal-values`, { body: { description: 'd' } }), 400, 'ValidationError');
    expect(noValue.message).toContain('value');
  });
});

describe('context fields used by strategies', () => {
  it('counts active flags and their projects, directly and through segments, leaving archived flags out', async () => {
    const field = await createField();
    const direct = await newFlag('direct');
    const twoEnvironments = await addStrategy(direct, defaultStrategy({ constraints: [on(field.name)] }));
    await addStrategy(direct, defaultStrategy({ constraints: [on(field.name), on(field.name)] }), 'production');
    const segment = await createSegment({ constraints: [on(field.name)] });
    const viaSegment = await newFlag('via-segment');
    await addStrategy(viaSegment, defaultStrategy({ segments: [segment.id] }));
    const elsewhere = await newFlag('elsewhere', 'ctx-other');
    await addStrategy(elsewhere, defaultStrategy({ constraints: [on(field.name)] }), 'development', 'ctx-other');
    const archived = await newFlag('archived', 'ctx-other');
    await addStrategy(archived, defaultStrategy({ constraints: [on(field.name)] }), 'development', 'ctx-other');
    await archiveFlag('ctx-other', archived);
    const unrelated = await newFlag('unrelated');
    await addStrategy(unrelated, defaultStrategy({ constraints: [on('userId')] }));

    expect(await getField(field.name)).toMatchObject({ usedInFeatures: 3, usedInProjects: 2 });
    expect((await listFields()).find((f) => f.name === field.name)).toMatchObject({ usedInFeatures: 3, usedInProjects: 2 });

    const strategies = await strategiesUsing(field.name);
    expect(strategies).toHaveLength(5);
    expect(strategies).toContainEqual({
      id: twoEnvironments.id,
      featureName: direct,
      projectId: 'default',
      environment: 'development',
      strategyName: 'default',
      archived: false,
    });
    expect(strategies.filter((s) => s.featureName === direct).map((s) => s.environment).sort()).toEqual(['development', 'production']);
    expect(strategies).toContainEqual(expect.objectContaining({ featureName: viaSegment, projectId: 'default', archived: false }));
    expect(strategies).toContainEqual(expect.objectContaining({ featureName: elsewhere, projectId: 'ctx-other', archived: false }));
    expect(strategies).toContainEqual(expect.objectContaining({ featureName: archived, projectId: 'ctx-other', archived: true }));
    expect(strategies.map((s) => s.featureName)).not.toContain(unrelated);
  });

  it('lists no strategies for an unused field and answers 404 for an unknown one', async () => {
    const field = await createField();
    expect(await strategiesUsing(field.name)).toEqual([]);
    expectError(await app.admin.GET('/api/admin/context/{contextField}/strategies', fieldPath('ghost-field')), 404, 'NotFoundError');
  });
});

describe('deleting context fields', () => {
  it('deletes an unused field with 200 and an event holding preData', async () => {
    const field = await createField({ description: 'going', legalValues: [{ value: 'v' }] });
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/context/{contextField}', fieldPath(field.name));
    expect(result.response.status).toBe(200);
    expectError(await app.admin.GET('/api/admin/context/{contextField}', fieldPath(field.name)), 404, 'NotFoundError');
    expect((await listFields()).map((f) => f.name)).not.toContain(field.name);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'context-field-deleted',
      preData: { name: field.name, description: 'going', stickiness: false, sortOrder: 10, legalValues: [{ value: 'v' }] },
    });
  });

  it('answers 404 for an unknown field', async () => {
    expectError(await app.admin.DELETE('/api/admin/context/{contextField}', fieldPath('ghost-field')), 404, 'NotFoundError');
  });

  it('refuses with 409 while a strategy constrains on the field, even of an archived flag, and deletes once it no longer does', async () => {
    const field = await createField();
    const flag = await newFlag('blocking');
    const strategy = await addStrategy(flag, defaultStrategy({ constraints: [on('userId'), on(field.name)] }));
    await archiveFlag('default', flag);
    const before = await latestEventId();
    const error = expectError(await app.admin.DELETE('/api/admin/context/{contextField}', fieldPath(field.name)), 409, 'ConflictError');
    expect(error.message).toContain(flag);
    expect((await getField(field.name)).name).toBe(field.name);
    expect(await eventsSince(before)).toEqual([]);

    const revived = await app.admin.POST('/api/admin/projects/{projectId}/revive', { params: { path: { projectId: 'default' } }, body: { features: [flag] } });
    expect(revived.response.status).toBe(200);
    const updated = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { projectId: 'default', featureName: flag, environment: 'development', strategyId: strategy.id } },
      body: { name: 'default', constraints: [on('userId')] },
    });
    expect(updated.response.status).toBe(200);
    const result = await app.admin.DELETE('/api/admin/context/{contextField}', fieldPath(field.name));
    expect(result.response.status).toBe(200);
  });

  it('refuses with 409 while a segment constrains on the field, even an unused one, and deletes once it no longer does', async () => {
    const field = await createField();
    const segment = await createSegment({ constraints: [on(field.name)] });
    const before = await latestEventId();
    const error = expectError(await app.admin.DELETE('/api/admin/context/{contextField}', fieldPath(field.name)), 409, 'ConflictError');
    expect(error.message).toContain(segment.name);
    expect(await eventsSince(before)).toEqual([]);

    const updated = await app.admin.PUT('/api/admin/segments/{segmentId}', { params: { path: { segmentId: segment.id } }, body: { name: segment.name, constraints: [] } });
    expect(updated.response.status).toBe(204);
    const result = await app.admin.DELETE('/api/admin/context/{contextField}', fieldPath(field.name));
    expect(result.response.status).toBe(200);
  });
});
