import { beforeAll, describe, expect, it } from 'vitest';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const project = await app.admin.POST('/api/admin/projects', { body: { id: 'elsewhere', name: 'Elsewhere' } });
  expect(project.response.status).toBe(201);
});

const unique = uniqueNames();
const { newFlag, createSegment, strategiesOf } = fixtures(() => app, unique);

const { latestEventId, eventsSince } = eventReader(() => app);

async function getSegment(segmentId: number) {
  const result = await app.admin.GET('/api/admin/segments/{segmentId}', { params: { path: { segmentId } } });
  expect(result.response.status).toBe(200);
  return result.data!;
}

async function segmentNames() {
  const { data, response } = await app.admin.GET('/api/admin/segments');
  expect(response.status).toBe(200);
  return data!.segments.map((s) => s.name);
}

/** Tries to add a `default` strategy using the segments; the typed answer. */
async function addStrategyWith(featureName: string, segments: number[], environment = 'development', projectId = 'default') {
  return app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
    params: { path: { projectId, featureName, environment } },
    body: { name: 'default', segments },
  });
}

describe('segments', () => {
  it('creates a segment with 201, a location, normalised constraints and one event', async () => {
    const name = unique('beta-users');
    const before = await latestEventId();
    const result = await app.admin.POST('/api/admin/segments', {
      body: {
        name,
        description: 'People in the beta',
        constraints: [
          { contextName: 'userId', operator: 'IN', values: ['a', 'b'] },
          { contextName: 'version', operator: 'SEMVER_GTE', value: '2.0.0', inverted: true },
        ],
      },
    });
    expect(result.response.status).toBe(201);
    const segment = result.data!;
    expect(Number.isInteger(segment.id)).toBe(true);
    expect(result.response.headers.get('location')).toBe(`/api/admin/segments/${segment.id}`);
    expect(segment).toMatchObject({
      name,
      description: 'People in the beta',
      project: null,
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['a', 'b'], caseInsensitive: false, inverted: false },
        { contextName: 'version', operator: 'SEMVER_GTE', value: '2.0.0', caseInsensitive: false, inverted: true },
      ],
      usedInFeatures: 0,
      usedInProjects: 0,
    });
    expect(Number.isNaN(Date.parse(segment.createdAt))).toBe(false);

    expect(await getSegment(segment.id)).toEqual(segment);
    const { data } = await app.admin.GET('/api/admin/segments');
    expect(data!.segments).toContainEqual(segment);

    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'segment-created', data: { id: segment.id, name, description: 'People in the beta' } });
  });

  it('creates a segment scoped to a project', async () => {
    const before = await latestEventId();
    const segment = await createSegment({ name: unique('scoped'), project: 'default', constraints: [] });
    expect(segment.project).toBe('default');
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'segment-created', project: 'default', data: { id: segment.id, project: 'default' } });
  });

  it('refuses a segment for an unknown project with 400, adding nothing', async () => {
    const name = unique('unknown-project');
    const before = await latestEventId();
    const error = expectError(await app.admin.POST('/api/admin/segments', { body: { name, project: 'no-such-project', constraints: [] } }), 400, 'ValidationError');
    expect(error.message).toContain('no-such-project');
    expect(await segmentNames()).not.toContain(name);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 for an unknown segment on get, put and delete', async () => {
    const before = await latestEventId();
    expectError(await app.admin.GET('/api/admin/segments/{segmentId}', { params: { path: { segmentId: 987654 } } }), 404, 'NotFoundError');
    expectError(
      await app.admin.PUT('/api/admin/segments/{segmentId}', { params: { path: { segmentId: 987654 } }, body: { name: unique('ghost'), constraints: [] } }),
      404,
      'NotFoundError',
    );
    expectError(await app.admin.DELETE('/api/admin/segments/{segmentId}', { params: { path: { segmentId: 987654 } } }), 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a duplicate name with 409, on create and on update, writing nothing', async () => {
    const taken = await createSegment({ name: unique('taken'), constraints: [] });
    const other = await createSegment({ name: unique('other'), constraints: [] });
    const before = await latestEventId();
    expectError(await app.admin.POST('/api/admin/segments', { body: { name: taken.name, constraints: [] } }), 409, 'NameExistsError');
    expectError(
      await app.admin.PUT('/api/admin/segments/{segmentId}', { params: { path: { segmentId: other.id } }, body: { name: taken.name, constraints: [] } }),
      409,
      'NameExistsError',
    );
    expect((await segmentNames()).filter((n) => n === taken.name)).toHaveLength(1);
    expect((await getSegment(other.id)).name).toBe(other.name);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('updates a segment with 204 and records data and preData', async () => {
    const original = await createSegment({ name: unique('to-update'), description: 'old', constraints: [{ contextName: 'userId', operator: 'IN', values: ['x'] }] });
    const newName = unique('updated');
    const before = await latestEventId();
    const result = await app.admin.PUT('/api/admin/segments/{segmentId}', {
      params: { path: { segmentId: original.id } },
      body: { name: newName, description: 'new', constraints: [{ contextName: 'age', operator: 'NUM_GTE', value: '18' }] },
    });
    expect(result.response.status).toBe(204);
    const after = await getSegment(original.id);
    expect(after).toMatchObject({
      id: original.id,
      name: newName,
      description: 'new',
      constraints: [{ contextName: 'age', operator: 'NUM_GTE', value: '18', caseInsensitive: false, inverted: false }],
    });
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'segment-updated',
      data: { id: original.id, name: newName, description: 'new' },
      preData: { id: original.id, name: original.name, description: 'old' },
    });
  });

  it('keeps its own name on update without a conflict', async () => {
    const segment = await createSegment({ name: unique('same-name'), constraints: [] });
    const result = await app.admin.PUT('/api/admin/segments/{segmentId}', {
      params: { path: { segmentId: segment.id } },
      body: { name: segment.name, description: 'described now', constraints: [] },
    });
    expect(result.response.status).toBe(204);
    expect((await getSegment(segment.id)).description).toBe('described now');
  });

  it('deletes an unused segment with 204 and an event', async () => {
    const segment = await createSegment({ name: unique('to-delete'), constraints: [] });
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/segments/{segmentId}', { params: { path: { segmentId: segment.id } } });
    expect(result.response.status).toBe(204);
    expectError(await app.admin.GET('/api/admin/segments/{segmentId}', { params: { path: { segmentId: segment.id } } }), 404, 'NotFoundError');
    expect(await segmentNames()).not.toContain(segment.name);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'segment-deleted', preData: { id: segment.id, name: segment.name } });
  });

  const badConstraints: [string, object, string][] = [
    ['a non-number for NUM_LT', { contextName: 'age', operator: 'NUM_LT', value: 'old' }, 'old'],
    ['a non-RFC-3339 date for DATE_AFTER', { contextName: 'currentTime', operator: 'DATE_AFTER', value: '31/01/2024' }, '31/01/2024'],
    ['an invalid semver for SEMVER_GT', { contextName: 'version', operator: 'SEMVER_GT', value: '1.x' }, '1.x'],
    ['a regex that does not compile', { contextName: 'userId', operator: 'REGEX', value: '*bad' }, '*bad'],
    ['empty values for IN', { contextName: 'userId', operator: 'IN', values: [] }, 'values'],
    ['an unknown operator', { contextName: 'userId', operator: 'BETWEEN', values: ['1'] }, 'operator'],
  ];

  it.each(badConstraints)('refuses to create a segment with %s, adding no row and no event', async (_case, constraint, mention) => {
    const name = unique('bad-constraint');
    const before = await latestEventId();
    const error = expectError(await call(app, 'POST', '/api/admin/segments', { body: { name, constraints: [constraint] } }), 400, 'ValidationError');
    expect(error.message).toContain(mention);
    expect(await segmentNames()).not.toContain(name);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each(badConstraints)('refuses to update a segment with %s, keeping it', async (_case, constraint, mention) => {
    const segment = await createSegment({ name: unique('bad-update'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['keep'] }] });
    const before = await latestEventId();
    const response = await call(app, 'PUT', `/api/admin/segments/${segment.id}`, { body: { name: segment.name, constraints: [constraint] } });
    expect(expectError(response, 400, 'ValidationError').message).toContain(mention);
    expect(await getSegment(segment.id)).toEqual(segment);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['no constraints', { name: 'no-constraints' }, 'constraints'],
    ['a blank name', { name: '   ', constraints: [] }, 'name'],
    ['an unknown field', { name: 'field', constraints: [], colour: 'red' }, 'colour'],
  ])('refuses a segment with %s with 400', async (_case, body, mention) => {
    const error = expectError(await call(app, 'POST', '/api/admin/segments', { body }), 400, 'ValidationError');
    expect(error.message).toContain(mention);
  });
});

describe('segments used by strategies', () => {
  it('links a segment to a strategy, counts its use and refuses to delete it while used', async () => {
    const segment = await createSegment({ name: unique('in-use'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
    const flag = await newFlag('segmented');
    const added = await addStrategyWith(flag, [segment.id]);
    expect(added.response.status).toBe(200);
    expect(added.data!.segments).toEqual([segment.id]);
    expect((await strategiesOf(flag))[0]!.segments).toEqual([segment.id]);
    expect(await getSegment(segment.id)).toMatchObject({ usedInFeatures: 1, usedInProjects: 1 });

    const before = await latestEventId();
    const refused = await app.admin.DELETE('/api/admin/segments/{segmentId}', { params: { path: { segmentId: segment.id } } });
    expectError(refused, 409, 'ConflictError');
    expect((await getSegment(segment.id)).name).toBe(segment.name);
    expect(await eventsSince(before)).toEqual([]);

    const removed = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { projectId: 'default', featureName: flag, environment: 'development', strategyId: added.data!.id } },
    });
    expect(removed.response.status).toBe(200);
    expect((await getSegment(segment.id)).usedInFeatures).toBe(0);
    const deleted = await app.admin.DELETE('/api/admin/segments/{segmentId}', { params: { path: { segmentId: segment.id } } });
    expect(deleted.response.status).toBe(204);
  });

  it('counts distinct flags and projects in usedInFeatures and usedInProjects', async () => {
    const segment = await createSegment({ name: unique('widely-used'), constraints: [] });
    const first = await newFlag('uses-a');
    const second = await newFlag('uses-b');
    const third = await newFlag('uses-c', 'elsewhere');
    expect((await addStrategyWith(first, [segment.id], 'development')).response.status).toBe(200);
    expect((await addStrategyWith(first, [segment.id], 'production')).response.status).toBe(200);
    expect((await addStrategyWith(second, [segment.id])).response.status).toBe(200);
    expect((await addStrategyWith(third, [segment.id], 'development', 'elsewhere')).response.status).toBe(200);
    expect(await getSegment(segment.id)).toMatchObject({ usedInFeatures: 3, usedInProjects: 2 });
    const { data } = await app.admin.GET('/api/admin/segments');
    expect(data!.segments.find((s) => s.id === segment.id)).toMatchObject({ usedInFeatures: 3, usedInProjects: 2 });
  });

  it('refuses a strategy naming a segment that does not exist with 400, adding nothing', async () => {
    const flag = await newFlag('missing-segment');
    const before = await latestEventId();
    const error = expectError(await addStrategyWith(flag, [876543]), 400, 'ValidationError');
    expect(error.message).toContain('876543');
    expect(await strategiesOf(flag)).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a strategy using a segment of another project with 400', async () => {
    const segment = await createSegment({ name: unique('other-project'), project: 'elsewhere', constraints: [] });
    const flag = await newFlag('foreign-segment');
    const before = await latestEventId();
    expectError(await addStrategyWith(flag, [segment.id]), 400, 'ValidationError');
    expect(await strategiesOf(flag)).toEqual([]);
    expect((await getSegment(segment.id)).usedInFeatures).toBe(0);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses to move a used segment into a project other than its flags\' with 409, and moves an unused one', async () => {
    const used = await createSegment({ name: unique('move-used'), constraints: [] });
    const flag = await newFlag('move-user');
    expect((await addStrategyWith(flag, [used.id])).response.status).toBe(200);
    const before = await latestEventId();
    const refused = await app.admin.PUT('/api/admin/segments/{segmentId}', {
      params: { path: { segmentId: used.id } },
      body: { name: used.name, project: 'elsewhere', constraints: [] },
    });
    expectError(refused, 409, 'ConflictError');
    expect((await getSegment(used.id)).project).toBeNull();
    expect(await eventsSince(before)).toEqual([]);

    const same = await app.admin.PUT('/api/admin/segments/{segmentId}', {
      params: { path: { segmentId: used.id } },
      body: { name: used.name, project: 'default', constraints: [] },
    });
    expect(same.response.status).toBe(204);
    expect((await getSegment(used.id)).project).toBe('default');

    const unused = await createSegment({ name: unique('move-unused'), constraints: [] });
    const moved = await app.admin.PUT('/api/admin/segments/{segmentId}', {
      params: { path: { segmentId: unused.id } },
      body: { name: unused.name, project: 'elsewhere', constraints: [] },
    });
    expect(moved.response.status).toBe(204);
    expect((await getSegment(unused.id)).project).toBe('elsewhere');
  });

  it('changes the segments of a strategy with PUT', async () => {
    const one = await createSegment({ name: unique('swap-one'), constraints: [] });
    const two = await createSegment({ name: unique('swap-two'), constraints: [] });
    const flag = await newFlag('swap');
    const added = await addStrategyWith(flag, [one.id]);
    const result = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { projectId: 'default', featureName: flag, environment: 'development', strategyId: added.data!.id } },
      body: { name: 'default', segments: [two.id] },
    });
    expect(result.response.status).toBe(200);
    expect(result.data!.segments).toEqual([two.id]);
    expect((await getSegment(one.id)).usedInFeatures).toBe(0);
    expect((await getSegment(two.id)).usedInFeatures).toBe(1);
  });
});
