import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { clientAs, userWithSession } from './support/users.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const EVENT_FIELDS = ['id', 'createdAt', 'type', 'createdBy', 'createdByUserId', 'environment', 'project', 'featureName', 'data', 'preData', 'tags'];
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

async function allRecent() {
  const { data, response } = await app.admin.GET('/api/admin/events');
  expect(response.status).toBe(200);
  return data!;
}

async function ofProject(project: string) {
  const { data, response } = await app.admin.GET('/api/admin/events', { params: { query: { project } } });
  expect(response.status).toBe(200);
  return data!;
}

const { createTag, flagsWithTags, newProject, createFlag, turnOn, turnOff } = fixtures(() => app, uniqueNames());

function expectNewestFirst(events: { id: number }[]) {
  for (let i = 1; i < events.length; i++) expect(events[i - 1]!.id).toBeGreaterThan(events[i]!.id);
}

describe('the event list', () => {
  it('answers a version-1 envelope, newest first, every event with every field of the schema', async () => {
    await createTag('simple', 'shape-one');
    await createTag('simple', 'shape-two');
    const body = await allRecent();
    expect(body.version).toBe(1);
    expect(body.events.length).toBeGreaterThanOrEqual(2);
    expect(body.totalEvents).toBe(body.events.length);
    expectNewestFirst(body.events);

    const [second, first] = body.events;
    expect(second).toMatchObject({ type: 'tag-created', data: { type: 'simple', value: 'shape-two' } });
    expect(first).toMatchObject({ type: 'tag-created', data: { type: 'simple', value: 'shape-one' } });

    for (const event of body.events) {
      expect(Object.keys(event).sort()).toEqual([...EVENT_FIELDS].sort());
      expect(Number.isInteger(event.id)).toBe(true);
      expect(event.id).toBeGreaterThanOrEqual(1);
      expect(event.createdAt).toMatch(RFC_3339);
      expect(Number.isNaN(Date.parse(event.createdAt))).toBe(false);
      expect(typeof event.type).toBe('string');
      expect(typeof event.createdBy).toBe('string');
      expect(Array.isArray(event.tags)).toBe(true);
    }
  });

  it('writes a tag-created event with the tag as data and nothing else set', async () => {
    await createTag('simple', 'plain-event');
    const [event] = (await allRecent()).events;
    expect(event).toEqual({
      id: expect.any(Number),
      createdAt: expect.any(String),
      type: 'tag-created',
      createdBy: 'admin',
      createdByUserId: -42,
      environment: null,
      project: null,
      featureName: null,
      data: { type: 'simple', value: 'plain-event' },
      preData: null,
      tags: [],
    });
  });

  it('gives each change a higher id than the one before', async () => {
    await createTag('simple', 'order-a');
    const a = (await allRecent()).events[0]!;
    await createTag('simple', 'order-b');
    const b = (await allRecent()).events[0]!;
    expect(a.data).toEqual({ type: 'simple', value: 'order-a' });
    expect(b.data).toEqual({ type: 'simple', value: 'order-b' });
    expect(b.id).toBeGreaterThan(a.id);
  });

  it("names the admin token's name as createdBy and -42 as createdByUserId", async () => {
    await createTag('simple', 'by-admin');
    const [byAdmin] = (await allRecent()).events;
    expect(byAdmin).toMatchObject({ type: 'tag-created', data: { value: 'by-admin' }, createdBy: 'admin', createdByUserId: -42 });

    const created = await app.admin.POST('/api/admin/api-tokens', { body: { tokenName: 'ops-robot', type: 'admin' } });
    expect(created.response.status).toBe(201);
    const other = app.clientWith(created.data!.secret);
    const tagged = await other.POST('/api/admin/tags', { body: { type: 'simple', value: 'by-ops-robot' } });
    expect(tagged.response.status).toBe(201);
    const [byRobot] = (await allRecent()).events;
    expect(byRobot).toMatchObject({ type: 'tag-created', data: { value: 'by-ops-robot' }, createdBy: 'ops-robot', createdByUserId: -42 });
  });

  it('writes no event for a change that fails', async () => {
    await createTag('simple', 'exists-already');
    const before = await allRecent();
    expectError(await app.admin.POST('/api/admin/tags', { body: { type: 'simple', value: 'exists-already' } }), 409, 'NameExistsError');
    expectError(await app.admin.POST('/api/admin/tags', { body: { type: 'ghost-type', value: 'nope' } }), 400, 'ValidationError');
    expectError(await app.admin.DELETE('/api/admin/tags/{type}/{value}', { params: { path: { type: 'simple', value: 'ghost' } } }), 404, 'NotFoundError');
    const after = await allRecent();
    expect(after.totalEvents).toBe(before.totalEvents);
    expect(after.events[0]!.id).toBe(before.events[0]!.id);
  });

  it('needs a credential', async () => {
    expectError(await app.clientWith().GET('/api/admin/events'), 401, 'AuthenticationRequired');
  });
});

describe('events of a flag', () => {
  it('writes feature-untagged with the flag, its project and the tags it still carries', async () => {
    await createTag('simple', 'untag-gone');
    await createTag('simple', 'untag-kept-1');
    await createTag('simple', 'untag-kept-2');
    await flagsWithTags(['untag-flag'], [
      { type: 'simple', value: 'untag-gone' },
      { type: 'simple', value: 'untag-kept-1' },
      { type: 'simple', value: 'untag-kept-2' },
    ]);
    const since = (await allRecent()).events[0]!.id;
    const deleted = await app.admin.DELETE('/api/admin/tags/{type}/{value}', { params: { path: { type: 'simple', value: 'untag-gone' } } });
    expect(deleted.response.status).toBe(200);

    const events = (await allRecent()).events.filter((e) => e.id > since);
    expect(events.map((e) => e.type).sort()).toEqual(['feature-untagged', 'tag-deleted']);
    const untagged = events.find((e) => e.type === 'feature-untagged')!;
    expect(untagged).toMatchObject({
      featureName: 'untag-flag',
      project: 'default',
      preData: { type: 'simple', value: 'untag-gone' },
      createdBy: 'admin',
      createdByUserId: -42,
    });
    expect(untagged.tags).toHaveLength(2);
    expect(untagged.tags).toEqual(expect.arrayContaining([
      { type: 'simple', value: 'untag-kept-1' },
      { type: 'simple', value: 'untag-kept-2' },
    ]));
  });
});

describe('more than 100 events', () => {
  it('lists the newest 100 and counts all of them in totalEvents', async () => {
    const before = (await allRecent()).totalEvents;
    const batches: string[][] = [];
    for (let b = 0; b < 21; b++) batches.push(Array.from({ length: 5 }, (_, i) => `bulk-${b}-${i}`));
    for (const batch of batches) await Promise.all(batch.map((value) => createTag('simple', value)));

    const body = await allRecent();
    expect(body.totalEvents).toBe(before + 105);
    expect(body.events).toHaveLength(100);
    expectNewestFirst(body.events);
    // The first batch holds the five oldest of the 105 events: they are the ones left out.
    const listed = body.events.map((e) => e.data?.value);
    expect(listed.sort()).toEqual(batches.slice(1).flat().sort());
  });
});

describe('events of one project', () => {
  it('lists only that project, newest first, with totalEvents counting them', async () => {
    await app.db.insert(t.projects).values({ id: 'event-project', name: 'Event project' });
    await createTag('simple', 'project-split');
    await createTag('simple', 'project-kept');
    await flagsWithTags(['in-event-project-1', 'in-event-project-2'], [
      { type: 'simple', value: 'project-split' },
      { type: 'simple', value: 'project-kept' },
    ], 'event-project');
    await flagsWithTags(['in-default-project'], [{ type: 'simple', value: 'project-split' }]);
    const defaultBefore = (await ofProject('default')).totalEvents;

    const deleted = await app.admin.DELETE('/api/admin/tags/{type}/{value}', { params: { path: { type: 'simple', value: 'project-split' } } });
    expect(deleted.response.status).toBe(200);

    const body = await ofProject('event-project');
    expect(body.version).toBe(1);
    expect(body.totalEvents).toBe(2);
    expect(body.events).toHaveLength(2);
    expectNewestFirst(body.events);
    for (const event of body.events) {
      expect(event).toMatchObject({
        type: 'feature-untagged',
        project: 'event-project',
        preData: { type: 'simple', value: 'project-split' },
        tags: [{ type: 'simple', value: 'project-kept' }],
      });
      expect(Object.keys(event).sort()).toEqual([...EVENT_FIELDS].sort());
    }
    expect(body.events.map((e) => e.featureName).sort()).toEqual(['in-event-project-1', 'in-event-project-2']);

    const inDefault = await ofProject('default');
    expect(inDefault.totalEvents).toBe(defaultBefore + 1);
    expect(inDefault.events[0]).toMatchObject({ type: 'feature-untagged', featureName: 'in-default-project', project: 'default' });
    for (const event of inDefault.events) expect(event.project).toBe('default');
  });

  it('lists every event of the project, even more than 100', async () => {
    await createTag('simple', 'on-many-flags');
    const names = Array.from({ length: 102 }, (_, i) => `many-flags-${i}`);
    await flagsWithTags(names, [{ type: 'simple', value: 'on-many-flags' }]);
    const before = await ofProject('default');

    const deleted = await app.admin.DELETE('/api/admin/tags/{type}/{value}', { params: { path: { type: 'simple', value: 'on-many-flags' } } });
    expect(deleted.response.status).toBe(200);

    const body = await ofProject('default');
    expect(body.events.length).toBe(before.events.length + 102);
    expect(body.totalEvents).toBe(body.events.length);
    expect(body.events.length).toBeGreaterThan(100);
    expectNewestFirst(body.events);
    for (const event of body.events) expect(event.project).toBe('default');
    const untagged = body.events.filter((e) => e.type === 'feature-untagged' && e.preData?.value === 'on-many-flags');
    expect(untagged.map((e) => e.featureName).sort()).toEqual([...names].sort());

    // Without a project the list still stops at 100.
    const recent = await allRecent();
    expect(recent.events).toHaveLength(100);
    expect(recent.totalEvents).toBeGreaterThan(100);
  });

  it('answers an empty list for an unknown project', async () => {
    const body = await ofProject('no-such-project');
    expect(body).toEqual({ version: 1, events: [], totalEvents: 0 });
  });

  it('answers an empty list for a project that exists but has no events', async () => {
    await app.db.insert(t.projects).values({ id: 'quiet-project', name: 'Quiet' });
    await createTag('simple', 'quiet-tag');
    await flagsWithTags(['quiet-flag'], [{ type: 'simple', value: 'quiet-tag' }], 'quiet-project');
    expect(await ofProject('quiet-project')).toEqual({ version: 1, events: [], totalEvents: 0 });
  });
});

describe('events of one flag', () => {

  const eventsOf = (featureName: string, client = app.admin) => client.GET('/api/admin/events/{featureName}', { params: { path: { featureName } } });

  async function flagEvents(featureName: string) {
    const { data, response } = await eventsOf(featureName);
    expect(response.status).toBe(200);
    return data!;
  }

  it("lists the flag's events only, newest first, with its name as toggleName", async () => {
    await createFlag('default', 'audited-flag');
    await createFlag('default', 'audited-neighbour');
    await turnOn('audited-flag');
    await turnOn('audited-neighbour');
    await turnOff('audited-flag');

    const body = await flagEvents('audited-flag');
    expect(body).toMatchObject({ version: 1, toggleName: 'audited-flag', totalEvents: 4 });
    // Turning on an environment without strategies adds the default one first.
    expect(body.events.map((e) => e.type)).toEqual(['feature-environment-disabled', 'feature-environment-enabled', 'feature-strategy-add', 'feature-created']);
    expectNewestFirst(body.events);
    for (const event of body.events) {
      expect(event.featureName).toBe('audited-flag');
      expect(Object.keys(event).sort()).toEqual([...EVENT_FIELDS].sort());
    }
  });

  it('keeps the events of the project a flag left, after it moved', async () => {
    const from = await newProject('events-from');
    const to = await newProject('events-to');
    await createFlag(from, 'moving-flag');
    const moved = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', {
      params: { path: { projectId: from, featureName: 'moving-flag' } },
      body: { newProjectId: to },
    });
    expect(moved.response.status).toBe(200);
    await turnOn('moving-flag', 'development', to);

    const body = await flagEvents('moving-flag');
    expect(body.events.map((e) => [e.type, e.project])).toEqual([
      ['feature-environment-enabled', to],
      ['feature-strategy-add', to],
      ['feature-project-change', to],
      ['feature-created', from],
    ]);
  });

  it("still lists a deleted flag's events, its deletion first", async () => {
    await createFlag('default', 'short-lived-flag');
    const archived = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}', {
      params: { path: { projectId: 'default', featureName: 'short-lived-flag' } },
    });
    expect(archived.response.status).toBe(202);
    const deleted = await app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName: 'short-lived-flag' } } });
    expect(deleted.response.status).toBe(200);

    const body = await flagEvents('short-lived-flag');
    expect(body.events.map((e) => e.type)).toEqual(['feature-deleted', 'feature-archived', 'feature-created']);
  });

  it('answers an empty list for a name no event mentions', async () => {
    expect(await flagEvents('never-a-flag')).toEqual({ version: 1, toggleName: 'never-a-flag', events: [], totalEvents: 0 });
  });

  it('is open to a Viewer, as reading the flag is', async () => {
    await createFlag('default', 'viewed-flag');
    const viewer = await userWithSession(app, 'Viewer');
    const { data, response } = await eventsOf('viewed-flag', clientAs(app, viewer));
    expect(response.status).toBe(200);
    expect(data!.events.map((e) => e.type)).toEqual(['feature-created']);
  });

  it('needs a credential', async () => {
    expectError(await eventsOf('viewed-flag', app.clientWith()), 401, 'AuthenticationRequired');
  });
});
