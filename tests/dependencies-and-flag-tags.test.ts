import { beforeAll, describe, expect, it } from 'vitest';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures, flagPath } from './support/fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const project = await app.admin.POST('/api/admin/projects', { body: { id: 'other', name: 'Other' } });
  expect(project.response.status).toBe(201);
  const tagType = await app.admin.POST('/api/admin/tag-types', { body: { name: 'team' } });
  expect(tagType.response.status).toBe(201);
});

const unique = uniqueNames();
const { newFlag, flagOf } = fixtures(() => app, unique);

const { latestEventId, eventsSince } = eventReader(() => app);

function addDependency(child: string, body: { feature: string; enabled?: boolean; variants?: string[] }, projectId = 'default') {
  return app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
    params: { path: { projectId, featureName: child } },
    body,
  });
}

async function dependOn(child: string, parent: string) {
  const result = await addDependency(child, { feature: parent });
  expect(result.response.status).toBe(200);
}

describe('dependencies', () => {
  it('makes a flag depend on a parent, shown on both flags, with one event', async () => {
    const parent = await newFlag('parent');
    const child = await newFlag('child');
    const before = await latestEventId();
    const result = await addDependency(child, { feature: parent });
    expect(result.response.status).toBe(200);
    expect((await flagOf(child)).dependencies).toEqual([{ feature: parent, enabled: true }]);
    expect((await flagOf(parent)).children).toEqual([child]);
    expect((await flagOf(parent)).dependencies).toEqual([]);
    expect((await flagOf(child)).children).toEqual([]);

    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-dependency-added', featureName: child, project: 'default', environment: null, data: { feature: parent, enabled: true } });
  });

  it('records whether the parent must be enabled and which variants satisfy it', async () => {
    const parentOff = await newFlag('parent-off');
    const parentVariants = await newFlag('parent-variants');
    const child = await newFlag('child-options');
    const off = await addDependency(child, { feature: parentOff, enabled: false });
    expect(off.response.status).toBe(200);
    const before = await latestEventId();
    const withVariants = await addDependency(child, { feature: parentVariants, enabled: true, variants: ['blue', 'green'] });
    expect(withVariants.response.status).toBe(200);
    const dependencies = (await flagOf(child)).dependencies;
    expect(dependencies).toHaveLength(2);
    expect(dependencies).toContainEqual({ feature: parentOff, enabled: false });
    expect(dependencies).toContainEqual({ feature: parentVariants, enabled: true, variants: ['blue', 'green'] });
    const [event] = await eventsSince(before);
    expect(event).toMatchObject({ type: 'feature-dependency-added', featureName: child, project: 'default', data: { feature: parentVariants, enabled: true, variants: ['blue', 'green'] } });
  });

  it('updates an existing dependency when added again', async () => {
    const parent = await newFlag('parent-again');
    const child = await newFlag('child-again');
    await dependOn(child, parent);
    const result = await addDependency(child, { feature: parent, enabled: false });
    expect(result.response.status).toBe(200);
    expect((await flagOf(child)).dependencies).toEqual([{ feature: parent, enabled: false }]);
  });

  it('refuses variants when the parent must be disabled with 400', async () => {
    const parent = await newFlag('parent-bad-variants');
    const child = await newFlag('child-bad-variants');
    const before = await latestEventId();
    expectError(await addDependency(child, { feature: parent, enabled: false, variants: ['a'] }), 400, 'ValidationError');
    expect((await flagOf(child)).dependencies).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it.each([
    ['on itself', 1],
    ['on its child', 2],
    ['on its grandchild', 3],
  ])('refuses a cycle: a flag depending %s, with 400 and nothing written', async (_case, length) => {
    const chain: string[] = [];
    for (let i = 0; i < length; i++) chain.push(await newFlag(`cycle-${length}`));
    // chain[i] depends on chain[i - 1].
    for (let i = 1; i < chain.length; i++) await dependOn(chain[i]!, chain[i - 1]!);
    const root = chain[0]!;
    const leaf = chain[chain.length - 1]!;
    const before = await latestEventId();
    const error = expectError(await addDependency(root, { feature: leaf }), 400, 'ValidationError');
    expect(error.message).toContain('cycle');
    expect((await flagOf(root)).dependencies).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a parent in another project with 400', async () => {
    const parent = await newFlag('foreign-parent', 'other');
    const child = await newFlag('local-child');
    const before = await latestEventId();
    const error = expectError(await addDependency(child, { feature: parent }), 400, 'ValidationError');
    expect(error.message).toContain(parent);
    expect((await flagOf(child)).dependencies).toEqual([]);
    expect((await flagOf(parent, 'other')).children).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses an unknown parent with 400', async () => {
    const child = await newFlag('orphan');
    const before = await latestEventId();
    const error = expectError(await addDependency(child, { feature: 'no-such-parent' }), 400, 'ValidationError');
    expect(error.message).toContain('no-such-parent');
    expect((await flagOf(child)).dependencies).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 for an unknown child flag or project', async () => {
    const parent = await newFlag('parent-of-nothing');
    expectError(await addDependency('ghost-child', { feature: parent }), 404, 'NotFoundError');
    expectError(await addDependency(parent, { feature: parent }, 'nowhere'), 404, 'NotFoundError');
    expect((await flagOf(parent)).children).toEqual([]);
  });

  it('refuses a body without a parent with 400', async () => {
    const child = await newFlag('no-parent-body');
    // A body the types forbid, so sent raw.
    const error = expectError(await call(app, 'POST', `/api/admin/projects/default/features/${child}/dependencies`, { body: { enabled: true } }), 400, 'ValidationError');
    expect(error.message).toContain('feature');
  });

  it('removes one dependency with an event, and answers 404 when it is absent', async () => {
    const parent = await newFlag('parent-removed');
    const kept = await newFlag('parent-kept');
    const child = await newFlag('child-removing');
    await dependOn(child, parent);
    await dependOn(child, kept);
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/dependencies/{parent}', {
      params: { path: { projectId: 'default', featureName: child, parent } },
    });
    expect(result.response.status).toBe(200);
    expect((await flagOf(child)).dependencies).toEqual([{ feature: kept, enabled: true }]);
    expect((await flagOf(parent)).children).toEqual([]);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-dependency-removed', featureName: child, project: 'default', data: { feature: parent } });

    const again = await latestEventId();
    const absent = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/dependencies/{parent}', {
      params: { path: { projectId: 'default', featureName: child, parent } },
    });
    expectError(absent, 404, 'NotFoundError');
    expect(await eventsSince(again)).toEqual([]);
  });

  it('removes every dependency of a flag', async () => {
    const first = await newFlag('parent-all-a');
    const second = await newFlag('parent-all-b');
    const child = await newFlag('child-all');
    await dependOn(child, first);
    await dependOn(child, second);
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
      params: { path: { projectId: 'default', featureName: child } },
    });
    expect(result.response.status).toBe(200);
    expect((await flagOf(child)).dependencies).toEqual([]);
    expect((await flagOf(first)).children).toEqual([]);
    expect((await flagOf(second)).children).toEqual([]);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-dependencies-removed', featureName: child, project: 'default' });
  });

  it('writes nothing when removing every dependency of a flag that has none', async () => {
    const child = await newFlag('child-none');
    const before = await latestEventId();
    const result = await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
      params: { path: { projectId: 'default', featureName: child } },
    });
    expect(result.response.status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('answers 404 when removing dependencies of an unknown flag', async () => {
    const ghost = flagPath('ghost-child');
    expectError(await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/dependencies', { params: { path: ghost } }), 404, 'NotFoundError');
    expectError(
      await app.admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/dependencies/{parent}', { params: { path: { ...ghost, parent: 'anything' } } }),
      404,
      'NotFoundError',
    );
  });
});

describe('tags on flags', () => {
  const tagsPath = '/api/admin/features/{featureName}/tags' as const;
  const ofFlag = (featureName: string) => ({ params: { path: { featureName } } });
  const untag = (featureName: string, type: string, value: string) =>
    app.admin.DELETE('/api/admin/features/{featureName}/tags/{type}/{value}', { params: { path: { featureName, type, value } } });

  async function tagsOf(featureName: string) {
    const { data, response } = await app.admin.GET('/api/admin/features/{featureName}/tags', { params: { path: { featureName } } });
    expect(response.status).toBe(200);
    expect(data!.version).toBe(1);
    return data!.tags;
  }

  async function tagValues(type: string) {
    const { data } = await app.admin.GET('/api/admin/tags/{type}', { params: { path: { type } } });
    return data!.tags.map((t) => t.value);
  }

  function tag(featureName: string, type: string, value: string) {
    return app.admin.POST('/api/admin/features/{featureName}/tags', { params: { path: { featureName } }, body: { type, value } });
  }

  it('starts with no tags', async () => {
    const flag = await newFlag('untagged');
    expect(await tagsOf(flag)).toEqual([]);
  });

  it('tags a flag with 201, creating the tag first, with both events', async () => {
    const flag = await newFlag('tagged');
    const value = unique('fresh-value');
    const before = await latestEventId();
    const result = await tag(flag, 'simple', value);
    expect(result.response.status).toBe(201);
    expect(result.data).toEqual({ type: 'simple', value });
    expect(await tagsOf(flag)).toEqual([{ type: 'simple', value }]);
    expect((await flagOf(flag)).tags).toEqual([{ type: 'simple', value }]);
    expect(await tagValues('simple')).toContain(value);

    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['tag-created', 'feature-tagged']);
    expect(events[0]).toMatchObject({ data: { type: 'simple', value } });
    expect(events[1]).toMatchObject({ featureName: flag, project: 'default', data: { type: 'simple', value }, tags: [{ type: 'simple', value }] });
  });

  it('tags with an existing tag without creating it again', async () => {
    const first = await newFlag('shares-a');
    const second = await newFlag('shares-b');
    const value = unique('shared');
    expect((await tag(first, 'team', value)).response.status).toBe(201);
    const before = await latestEventId();
    expect((await tag(second, 'team', value)).response.status).toBe(201);
    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-tagged']);
    expect(events[0]).toMatchObject({ featureName: second, project: 'default', data: { type: 'team', value } });
    expect((await tagValues('team')).filter((v) => v === value)).toHaveLength(1);
  });

  it('refuses a tag the flag already carries with 409, writing nothing', async () => {
    const flag = await newFlag('tagged-twice');
    const value = unique('once');
    await tag(flag, 'simple', value);
    const before = await latestEventId();
    expectError(await tag(flag, 'simple', value), 409, 'NameExistsError');
    expect(await tagsOf(flag)).toEqual([{ type: 'simple', value }]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses an unknown tag type with 400, creating no tag', async () => {
    const flag = await newFlag('unknown-type');
    const value = unique('orphan-value');
    const before = await latestEventId();
    const error = expectError(await tag(flag, 'no-such-type', value), 400, 'ValidationError');
    expect(error.message).toContain('no-such-type');
    expect(await tagsOf(flag)).toEqual([]);
    expect(await tagValues('simple')).not.toContain(value);
    expect(await eventsSince(before)).toEqual([]);
  });

  async function expectRefusedMentioning(send: (flag: string) => Promise<Parameters<typeof expectError>[0]>, mention: string) {
    const flag = await newFlag('bad-tag-body');
    const error = expectError(await send(flag), 400, 'ValidationError');
    expect(error.message).toContain(mention);
    expect(await tagsOf(flag)).toEqual([]);
  }

  it('refuses a value of one character with 400', async () => {
    await expectRefusedMentioning((flag) => app.admin.POST(tagsPath, { ...ofFlag(flag), body: { type: 'simple', value: 'x' } }), 'value');
  });

  it('refuses an unknown field with 400', async () => {
    // A body the types forbid, so sent raw.
    const body = { type: 'simple', value: 'fine-value', colour: 'red' };
    await expectRefusedMentioning((flag) => call(app, 'POST', `/api/admin/features/${flag}/tags`, { body }), 'colour');
  });

  it('answers 404 for an unknown flag on every tag operation', async () => {
    const before = await latestEventId();
    expectError(await app.admin.GET(tagsPath, ofFlag('ghost-flag')), 404, 'NotFoundError');
    expectError(await tag('ghost-flag', 'simple', unique('ghost-tag')), 404, 'NotFoundError');
    expectError(await app.admin.PUT(tagsPath, { ...ofFlag('ghost-flag'), body: { addedTags: [{ type: 'simple', value: 'ghostly' }] } }), 404, 'NotFoundError');
    expectError(await untag('ghost-flag', 'simple', 'ghostly'), 404, 'NotFoundError');
    expect(await eventsSince(before)).toEqual([]);
  });

  it('adds and removes several tags with PUT, answering the tags after', async () => {
    const flag = await newFlag('bulk');
    const [keep, drop, added] = [unique('keep'), unique('drop'), unique('added')];
    await tag(flag, 'simple', keep);
    await tag(flag, 'simple', drop);
    const before = await latestEventId();
    const result = await app.admin.PUT('/api/admin/features/{featureName}/tags', {
      params: { path: { featureName: flag } },
      body: { addedTags: [{ type: 'team', value: added }], removedTags: [{ type: 'simple', value: drop }] },
    });
    expect(result.response.status).toBe(200);
    const expected = [
      { type: 'simple', value: keep },
      { type: 'team', value: added },
    ];
    expect(result.data).toEqual({ version: 1, tags: expected });
    expect(await tagsOf(flag)).toEqual(expected);

    const events = await eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['feature-untagged', 'tag-created', 'feature-tagged']);
    expect(events[0]).toMatchObject({ featureName: flag, project: 'default', preData: { type: 'simple', value: drop } });
    expect(events[2]).toMatchObject({ featureName: flag, project: 'default', data: { type: 'team', value: added } });
  });

  it('applies none of a PUT that adds a tag of an unknown type', async () => {
    const flag = await newFlag('bulk-bad');
    const kept = unique('stays');
    await tag(flag, 'simple', kept);
    const before = await latestEventId();
    const response = await app.admin.PUT(tagsPath, {
      ...ofFlag(flag),
      body: { removedTags: [{ type: 'simple', value: kept }], addedTags: [{ type: 'missing-type', value: 'whatever' }] },
    });
    expectError(response, 400, 'ValidationError');
    expect(await tagsOf(flag)).toEqual([{ type: 'simple', value: kept }]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('takes a tag off a flag with 200 and an event, then answers 404', async () => {
    const flag = await newFlag('untag');
    const value = unique('removable');
    await tag(flag, 'team', value);
    const before = await latestEventId();
    const result = await untag(flag, 'team', value);
    expect(result.response.status).toBe(200);
    expect(await tagsOf(flag)).toEqual([]);
    // The tag itself still exists.
    expect(await tagValues('team')).toContain(value);
    const events = await eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-untagged', featureName: flag, project: 'default', preData: { type: 'team', value } });

    const again = await latestEventId();
    const absent = await untag(flag, 'team', value);
    expectError(absent, 404, 'NotFoundError');
    expect(await eventsSince(again)).toEqual([]);
  });

  it('answers 404 when the flag does not carry a tag that exists elsewhere', async () => {
    const carrier = await newFlag('carrier');
    const other = await newFlag('non-carrier');
    const value = unique('elsewhere');
    await tag(carrier, 'simple', value);
    expectError(await untag(other, 'simple', value), 404, 'NotFoundError');
    expect(await tagsOf(carrier)).toEqual([{ type: 'simple', value }]);
  });
});
