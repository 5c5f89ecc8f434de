import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures, until } from './support/fixtures.js';
import { foundSorted, namesFound, searchAs, sorted, type SearchQuery } from './support/search.js';


let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  // `team` has a colour, `area` has none.
  for (const body of [{ name: 'team', color: '#ff0000' }, { name: 'area' }]) {
    const result = await app.admin.POST('/api/admin/tag-types', { body });
    expect(result.response.status, JSON.stringify(result.error)).toBe(201);
  }
});

const unique = uniqueNames();
const { newProject, createFlag, turnOn, archiveFlag, createSegment, addStrategy, markStale } = fixtures(() => app, unique);

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);






/** No operation sets a flag's creation time: tests that need old flags write it directly. */
async function setCreatedAt(featureName: string, createdAt: Date) {
  await app.db.update(t.features).set({ createdAt }).where(eq(t.features.name, featureName));
}


/** SDK metrics with the admin token: the flag is seen (and counted) in the token's environment. */
async function reportAndSee(featureName: string, yes: number, no: number) {
  const stop = new Date();
  const { response, error } = await app.admin.POST('/api/client/metrics', {
    body: {
      appName: 'search-tests',
      instanceId: 'i-1',
      bucket: { start: new Date(stop.getTime() - 10_000).toISOString(), stop: stop.toISOString(), toggles: { [featureName]: { yes, no } } },
    },
  });
  expect(response.status, JSON.stringify(error)).toBe(202);
  const [seen] = await until(
    `${featureName} to be seen`,
    async () => (await searchAs(app.admin, { query: featureName })).features.filter((f) => f.name === featureName),
    (features) => features[0]?.lastSeenAt != null,
  );
  return seen!;
}

describe('search: result', () => {
  it('answers only active flags, with total, by default', async () => {
    const project = await newProject();
    const active = await createFlag(project, unique('default-active'));
    const archived = await createFlag(project, unique('default-archived'));
    await archiveFlag(project, archived);
    const result = await searchAs(app.admin, { project: `IS:${project}` });
    expect(result.features.map((f) => f.name)).toEqual([active]);
    expect(result.total).toBe(1);
  });

  it('describes a flag with tags, segments, a dependency and variants', async () => {
    const project = await newProject();
    const parent = await createFlag(project, unique('shape-parent'));
    const child = await createFlag(project, unique('shape-child'), {
      type: 'experiment',
      description: 'Shape under test',
      impressionData: true,
      tags: ['team:aa', 'area:bb'],
    });
    const loner = await createFlag(project, unique('shape-loner'));

    const depended = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
      params: { path: { projectId: project, featureName: child } },
      body: { feature: parent },
    });
    expect(depended.response.status, JSON.stringify(depended.error)).toBe(200);

    const segmentZ = await createSegment({ name: unique('zz-shape-segment') });
    const segmentA = await createSegment({ name: unique('aa-shape-segment') });
    const first = await addStrategy(child, { name: 'default', segments: [segmentZ.id, segmentA.id] }, 'development', project);
    const second = await addStrategy(child, { name: 'default', segments: [segmentA.id] }, 'development', project);
    const off = await addStrategy(child, { name: 'default', disabled: true }, 'production', project);

    const variants = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants', {
      params: { path: { projectId: project, featureName: child, environment: 'development' } },
      body: [
        { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
        { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
      ],
    });
    expect(variants.response.status, JSON.stringify(variants.error)).toBe(200);

    const environments = (await app.admin.GET('/api/admin/environments')).data!.environments.filter((e) => ['development', 'production'].includes(e.name));
    environments.sort((a, b) => a.sortOrder - b.sortOrder);

    const result = await searchAs(app.admin, { project: `IS:${project}` });
    expect(result.total).toBe(3);
    expect(result.features.map((f) => f.name)).toEqual([parent, child, loner]);
    const [parentFound, childFound, lonerFound] = result.features;

    // A field with no value is left out (tests/omitted-not-null.test.ts): the child is neither archived nor seen.
    const featureKeys = ['name', 'description', 'type', 'project', 'favorite', 'createdAt', 'stale', 'impressionData'];
    const moreKeys = ['dependencyType', 'environments', 'segments', 'tags', 'lifecycle', 'createdBy'];
    expect(Object.keys(childFound!)).toEqual(expect.arrayContaining([...featureKeys, ...moreKeys]));
    expect(childFound).toMatchObject({
      name: child,
      description: 'Shape under test',
      type: 'experiment',
      project,
      favorite: false,
      stale: false,
      impressionData: true,
      dependencyType: 'child',
      segments: [segmentA.name, segmentZ.name],
      lifecycle: { stage: 'initial' },
      createdBy: { id: -42, name: 'admin' },
    });
    for (const key of ['archivedAt', 'lastSeenAt']) expect(childFound).not.toHaveProperty(key);
    expect(Number.isNaN(Date.parse(childFound!.createdAt))).toBe(false);
    expect(Number.isNaN(Date.parse(childFound!.lifecycle!.enteredStageAt))).toBe(false);
    expect(sorted(childFound!.tags.map((tag) => JSON.stringify(tag)))).toEqual(
      sorted([JSON.stringify({ type: 'team', value: 'aa', color: '#ff0000' }), JSON.stringify({ type: 'area', value: 'bb', color: null })]),
    );

    // Environments in their sort order, each with its strategies, variants and counts.
    expect(childFound!.environments.map((e) => e.name)).toEqual(environments.map((e) => e.name));
    for (const environment of childFound!.environments) {
      const known = environments.find((e) => e.name === environment.name)!;
      expect(Object.keys(environment)).toEqual(
        expect.arrayContaining(['name', 'environment', 'type', 'enabled', 'sortOrder', 'variantCount', 'strategies', 'variants', 'hasStrategies', 'hasEnabledStrategies', 'lastSeenAt', 'yes', 'no', 'changeRequestIds']),
      );
      expect(environment).toMatchObject({ name: known.name, environment: known.name, type: known.type, sortOrder: known.sortOrder, enabled: false, lastSeenAt: null, yes: 0, no: 0, changeRequestIds: [] });
    }
    const development = childFound!.environments.find((e) => e.name === 'development')!;
    expect(development).toMatchObject({ variantCount: 2, hasStrategies: true, hasEnabledStrategies: true });
    expect(development.variants).toEqual(variants.data!.variants);
    expect(development.strategies.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(development.strategies.map((s) => s.segments)).toEqual([
      expect.arrayContaining([segmentZ.id, segmentA.id]),
      [segmentA.id],
    ]);
    const production = childFound!.environments.find((e) => e.name === 'production')!;
    expect(production).toMatchObject({ variantCount: 0, variants: [], hasStrategies: true, hasEnabledStrategies: false });
    expect(production.strategies.map((s) => s.id)).toEqual([off.id]);

    expect(parentFound).toMatchObject({ name: parent, dependencyType: 'parent', segments: [], tags: [], favorite: false, lifecycle: { stage: 'initial' } });
    for (const environment of parentFound!.environments) {
      expect(environment).toMatchObject({ variantCount: 0, strategies: [], variants: [], hasStrategies: false, hasEnabledStrategies: false, yes: 0, no: 0 });
    }
    expect(lonerFound).toMatchObject({ name: loner, segments: [], tags: [], createdBy: { id: -42, name: 'admin' } });
    expect(lonerFound).not.toHaveProperty('dependencyType');
    expect(lonerFound!.createdBy).not.toHaveProperty('imageUrl');
  });
});

describe('search: query', () => {
  let project: string;
  let byName: string;
  let byDescription: string;
  let byTag: string;
  let unrelated: string;
  beforeAll(async () => {
    project = await newProject();
    byName = await createFlag(project, `${project}-Banana-split`);
    byDescription = await createFlag(project, `${project}-described`, { description: 'The APPLE pie' });
    byTag = await createFlag(project, `${project}-tagged`, { tags: ['team:Cherry'] });
    unrelated = await createFlag(project, `${project}-plain`, { description: 'nothing to see', tags: ['area:plum'] });
  });

  it.each([
    ['the name', 'banana', () => [byName]],
    ['the description', 'apple', () => [byDescription]],
    ['a tag value', 'cherry', () => [byTag]],
    ['a tag written type:value', 'team:che', () => [byTag]],
  ])('matches a term in %s, case-insensitively', async (_case, term, expected) => {
    expect(await foundSorted(app.admin, { project: `IS:${project}`, query: term })).toEqual(sorted(expected()));
    expect(await foundSorted(app.admin, { project: `IS:${project}`, query: term.toUpperCase() })).toEqual(sorted(expected()));
  });

  it('matches a tag only as type:value, not across tags', async () => {
    expect(await foundSorted(app.admin, { project: `IS:${project}`, query: 'area:cherry' })).toEqual([]);
    expect(await foundSorted(app.admin, { project: `IS:${project}`, query: 'team:plum' })).toEqual([]);
    expect(await foundSorted(app.admin, { project: `IS:${project}`, query: 'area:plum' })).toEqual([unrelated]);
  });

  it('matches any of comma-separated terms, trimmed, empty terms dropped', async () => {
    expect(await foundSorted(app.admin, { project: `IS:${project}`, query: ' banana ,, apple,  ,' })).toEqual(sorted([byName, byDescription]));
    expect(await foundSorted(app.admin, { project: `IS:${project}`, query: 'BANANA,cherry' })).toEqual(sorted([byName, byTag]));
    expect(await foundSorted(app.admin, { project: `IS:${project}`, query: 'no-such-term' })).toEqual([]);
  });

  it('takes % and _ literally', async () => {
    const own = await newProject();
    const percent = await createFlag(own, `${own}-percent`, { description: '50% off' });
    await createFlag(own, `${own}-fifty`, { description: '50 apples off' });
    const underscore = await createFlag(own, `${own}-a_b`);
    await createFlag(own, `${own}-axb`);
    expect(await foundSorted(app.admin, { project: `IS:${own}`, query: '50%' })).toEqual([percent]);
    expect(await foundSorted(app.admin, { project: `IS:${own}`, query: '0% o' })).toEqual([percent]);
    expect(await foundSorted(app.admin, { project: `IS:${own}`, query: 'a_b' })).toEqual([underscore]);
    expect(await foundSorted(app.admin, { project: `IS:${own}`, query: '%' })).toEqual([percent]);
    expect(await foundSorted(app.admin, { project: `IS:${own}`, query: '_' })).toEqual([underscore]);
  });

  it('finds flags across projects by name', async () => {
    const other = await newProject();
    const elsewhere = await createFlag(other, `${project}-banana-elsewhere`);
    expect(await foundSorted(app.admin, { query: `${project}-banana` })).toEqual(sorted([byName, elsewhere]));
  });
});

describe('search: project, type, state and createdBy', () => {
  it('filters by project with IS, IS_NOT, IS_ANY_OF and IS_NONE_OF', async () => {
    const marker = unique('projfilter');
    const [p1, p2, p3] = [await newProject(), await newProject(), await newProject()];
    const f1 = await createFlag(p1, `${marker}-in-first`);
    const f2 = await createFlag(p2, `${marker}-in-second`);
    const f3 = await createFlag(p3, `${marker}-in-third`);
    expect(await foundSorted(app.admin, { query: marker, project: `IS:${p1}` })).toEqual([f1]);
    expect(await foundSorted(app.admin, { query: marker, project: `IS_NOT:${p1}` })).toEqual(sorted([f2, f3]));
    expect(await foundSorted(app.admin, { query: marker, project: `IS_ANY_OF:${p1},${p2}` })).toEqual(sorted([f1, f2]));
    expect(await foundSorted(app.admin, { query: marker, project: `IS_NONE_OF:${p1},${p2}` })).toEqual([f3]);
  });

  it('filters by type with IS, IS_NOT, IS_ANY_OF and IS_NONE_OF', async () => {
    const project = await newProject();
    const release = await createFlag(project, unique('type-release'), { type: 'release' });
    const experiment = await createFlag(project, unique('type-experiment'), { type: 'experiment' });
    const operational = await createFlag(project, unique('type-operational'), { type: 'operational' });
    const killSwitch = await createFlag(project, unique('type-kill'), { type: 'kill-switch' });
    const p = `IS:${project}`;
    expect(await foundSorted(app.admin, { project: p, type: 'IS:release' })).toEqual([release]);
    expect(await foundSorted(app.admin, { project: p, type: 'IS_NOT:release' })).toEqual(sorted([experiment, operational, killSwitch]));
    expect(await foundSorted(app.admin, { project: p, type: 'IS_ANY_OF:release,experiment' })).toEqual(sorted([release, experiment]));
    expect(await foundSorted(app.admin, { project: p, type: 'IS_NONE_OF:release,experiment' })).toEqual(sorted([operational, killSwitch]));
    expect(await foundSorted(app.admin, { project: p, type: 'IS:kill-switch' })).toEqual([killSwitch]);
  });

  it('filters by state (active, stale, potentially-stale) with IS, IS_NOT, IS_ANY_OF and IS_NONE_OF', async () => {
    const project = await newProject();
    const fresh = await createFlag(project, unique('state-fresh'));
    const stale = await createFlag(project, unique('state-stale'));
    const oldStale = await createFlag(project, unique('state-old-stale'));
    const oldRelease = await createFlag(project, unique('state-release-41d'));
    const youngExperiment = await createFlag(project, unique('state-experiment-39d'), { type: 'experiment' });
    const oldOperational = await createFlag(project, unique('state-operational-8d'), { type: 'operational' });
    const youngOperational = await createFlag(project, unique('state-operational-6d'), { type: 'operational' });
    const oldKillSwitch = await createFlag(project, unique('state-kill-400d'), { type: 'kill-switch' });
    const oldPermission = await createFlag(project, unique('state-permission-400d'), { type: 'permission' });
    await markStale(project, [stale, oldStale]);
    await setCreatedAt(oldStale, daysAgo(100));
    await setCreatedAt(oldRelease, daysAgo(41));
    await setCreatedAt(youngExperiment, daysAgo(39));
    await setCreatedAt(oldOperational, daysAgo(8));
    await setCreatedAt(youngOperational, daysAgo(6));
    await setCreatedAt(oldKillSwitch, daysAgo(400));
    await setCreatedAt(oldPermission, daysAgo(400));

    const notStale = sorted([fresh, oldRelease, youngExperiment, oldOperational, youngOperational, oldKillSwitch, oldPermission]);
    const potentiallyStale = sorted([oldRelease, oldOperational]);
    const p = `IS:${project}`;
    expect(await foundSorted(app.admin, { project: p, state: 'IS:active' })).toEqual(notStale);
    expect(await foundSorted(app.admin, { project: p, state: 'IS:stale' })).toEqual(sorted([stale, oldStale]));
    expect(await foundSorted(app.admin, { project: p, state: 'IS:potentially-stale' })).toEqual(potentiallyStale);
    expect(await foundSorted(app.admin, { project: p, state: 'IS_NOT:stale' })).toEqual(notStale);
    expect(await foundSorted(app.admin, { project: p, state: 'IS_NOT:potentially-stale' })).toEqual(sorted([fresh, stale, oldStale, youngExperiment, youngOperational, oldKillSwitch, oldPermission]));
    expect(await foundSorted(app.admin, { project: p, state: 'IS_ANY_OF:stale,potentially-stale' })).toEqual(sorted([stale, oldStale, oldRelease, oldOperational]));
    expect(await foundSorted(app.admin, { project: p, state: 'IS_NONE_OF:stale,potentially-stale' })).toEqual(sorted([fresh, youngExperiment, youngOperational, oldKillSwitch, oldPermission]));
  });

  it('filters by creator id with IS, IS_NOT, IS_ANY_OF and IS_NONE_OF', async () => {
    const project = await newProject();
    const first = await createFlag(project, unique('creator-a'));
    const second = await createFlag(project, unique('creator-b'));
    const both = sorted([first, second]);
    const p = `IS:${project}`;
    expect(await foundSorted(app.admin, { project: p, createdBy: 'IS:-42' })).toEqual(both);
    expect(await foundSorted(app.admin, { project: p, createdBy: 'IS_NOT:-42' })).toEqual([]);
    expect(await foundSorted(app.admin, { project: p, createdBy: 'IS_ANY_OF:-42,7' })).toEqual(both);
    expect(await foundSorted(app.admin, { project: p, createdBy: 'IS_NONE_OF:-42,7' })).toEqual([]);
    expect(await foundSorted(app.admin, { project: p, createdBy: 'IS_ANY_OF:7' })).toEqual([]);
    expect(await foundSorted(app.admin, { project: p, createdBy: 'IS_NONE_OF:7' })).toEqual(both);
    expect((await searchAs(app.admin, { project: p, createdBy: 'IS:-42' })).features.map((f) => f.createdBy)).toEqual([
      { id: -42, name: 'admin' },
      { id: -42, name: 'admin' },
    ]);
  });
});

describe('search: tag', () => {
  let project: string;
  let onlyA: string;
  let both: string;
  let onlyB: string;
  let none: string;
  let otherType: string;
  beforeAll(async () => {
    project = await newProject();
    onlyA = await createFlag(project, unique('tag-a'), { tags: ['team:aa'] });
    both = await createFlag(project, unique('tag-ab'), { tags: ['team:aa', 'team:bb', 'area:cc'] });
    onlyB = await createFlag(project, unique('tag-b'), { tags: ['team:bb'] });
    none = await createFlag(project, unique('tag-none'));
    // Same value, other type: not team:aa.
    otherType = await createFlag(project, unique('tag-other-type'), { tags: ['area:aa'] });
  });

  const withTags = (tag: string) => foundSorted(app.admin, { project: `IS:${project}`, tag });

  it.each([
    ['INCLUDE', () => [onlyA, both, onlyB]],
    ['INCLUDE_ANY_OF', () => [onlyA, both, onlyB]],
    ['DO_NOT_INCLUDE', () => [none, otherType]],
    ['EXCLUDE_IF_ANY_OF', () => [none, otherType]],
    ['INCLUDE_ALL_OF', () => [both]],
    ['EXCLUDE_ALL', () => [onlyA, onlyB, none, otherType]],
  ])('%s:team:aa,team:bb', async (operator, expected) => {
    expect(await withTags(`${operator}:team:aa,team:bb`)).toEqual(sorted(expected()));
  });

  it('reads one tag as type:value, split at the first colon', async () => {
    expect(await withTags('INCLUDE:team:aa')).toEqual(sorted([onlyA, both]));
    expect(await withTags('INCLUDE:area:aa')).toEqual([otherType]);
    expect(await withTags('DO_NOT_INCLUDE:team:aa')).toEqual(sorted([onlyB, none, otherType]));
    const own = await newProject();
    const colon = await createFlag(own, unique('tag-colon'), { tags: ['team:xx:yy'] });
    await createFlag(own, unique('tag-no-colon'), { tags: ['team:xx'] });
    expect(await foundSorted(app.admin, { project: `IS:${own}`, tag: 'INCLUDE:team:xx:yy' })).toEqual([colon]);
  });

  it('still lists every tag of a flag found by one of them', async () => {
    const [flag] = (await searchAs(app.admin, { project: `IS:${project}`, tag: 'INCLUDE:team:bb', query: both })).features;
    expect(flag!.name).toBe(both);
    expect(sorted(flag!.tags.map((tag) => `${tag.type}:${tag.value}`))).toEqual(['area:cc', 'team:aa', 'team:bb']);
  });
});

describe('search: segment', () => {
  let project: string;
  let segmentA: string;
  let segmentB: string;
  let onlyA: string;
  let both: string;
  let onlyB: string;
  let none: string;
  beforeAll(async () => {
    project = await newProject();
    const a = await createSegment({ name: unique('segment-a') });
    const b = await createSegment({ name: unique('segment-b') });
    const c = await createSegment({ name: unique('segment-c') });
    segmentA = a.name;
    segmentB = b.name;
    onlyA = await createFlag(project, unique('seg-a'));
    await addStrategy(onlyA, { name: 'default', segments: [a.id] }, 'development', project);
    // Two segments in two environments: used by the flag all the same.
    both = await createFlag(project, unique('seg-ab'));
    await addStrategy(both, { name: 'default', segments: [a.id, c.id] }, 'development', project);
    await addStrategy(both, { name: 'default', segments: [b.id] }, 'production', project);
    onlyB = await createFlag(project, unique('seg-b'));
    await addStrategy(onlyB, { name: 'default', segments: [b.id] }, 'production', project);
    none = await createFlag(project, unique('seg-none'));
    await addStrategy(none, { name: 'default' }, 'development', project);
  });

  it.each([
    ['INCLUDE', () => [onlyA, both, onlyB]],
    ['INCLUDE_ANY_OF', () => [onlyA, both, onlyB]],
    ['DO_NOT_INCLUDE', () => [none]],
    ['EXCLUDE_IF_ANY_OF', () => [none]],
    ['INCLUDE_ALL_OF', () => [both]],
    ['EXCLUDE_ALL', () => [onlyA, onlyB, none]],
  ])('%s with two segments', async (operator, expected) => {
    expect(await foundSorted(app.admin, { project: `IS:${project}`, segment: `${operator}:${segmentA},${segmentB}` })).toEqual(sorted(expected()));
  });

  it('one segment name', async () => {
    expect(await foundSorted(app.admin, { project: `IS:${project}`, segment: `INCLUDE:${segmentB}` })).toEqual(sorted([both, onlyB]));
    expect(await foundSorted(app.admin, { project: `IS:${project}`, segment: `DO_NOT_INCLUDE:${segmentB}` })).toEqual(sorted([onlyA, none]));
  });

  it('still lists every segment of a flag found by one of them', async () => {
    const [flag] = (await searchAs(app.admin, { project: `IS:${project}`, segment: `INCLUDE:${segmentB}`, query: both })).features;
    expect(flag!.name).toBe(both);
    expect(flag!.segments).toHaveLength(3);
    expect(flag!.segments).toEqual(sorted(flag!.segments));
    expect(flag!.segments).toEqual(expect.arrayContaining([segmentA, segmentB]));
  });
});

describe('search: status, createdAt, archived and several filters', () => {
  it('ORs the status entries and ignores malformed ones', async () => {
    const project = await newProject();
    const devOnly = await createFlag(project, unique('status-dev'));
    const prodOnly = await createFlag(project, unique('status-prod'));
    const bothOn = await createFlag(project, unique('status-both'));
    const off = await createFlag(project, unique('status-off'));
    await turnOn(devOnly, 'development', project);
    await turnOn(prodOnly, 'production', project);
    await turnOn(bothOn, 'development', project);
    await turnOn(bothOn, 'production', project);
    const p = `IS:${project}`;
    expect(await foundSorted(app.admin, { project: p, status: ['development:enabled'] })).toEqual(sorted([devOnly, bothOn]));
    expect(await foundSorted(app.admin, { project: p, status: ['development:disabled'] })).toEqual(sorted([prodOnly, off]));
    expect(await foundSorted(app.admin, { project: p, status: ['development:enabled', 'production:enabled'] })).toEqual(sorted([devOnly, prodOnly, bothOn]));
    expect(await foundSorted(app.admin, { project: p, status: ['development:enabled', 'production:disabled'] })).toEqual(sorted([devOnly, bothOn, off]));
    expect(await foundSorted(app.admin, { project: p, status: ['nonsense', 'development:enabled', 'production:sideways'] })).toEqual(sorted([devOnly, bothOn]));
    expect(await foundSorted(app.admin, { project: p, status: ['nonsense', 'production:'] })).toEqual(sorted([devOnly, prodOnly, bothOn, off]));

    // Found through production alone, still listing both environments.
    const [flag] = (await searchAs(app.admin, { project: p, status: ['production:enabled'], query: prodOnly })).features;
    expect(flag!.environments.map((e) => [e.name, e.enabled])).toEqual([
      ['development', false],
      ['production', true],
    ]);
  });

  it('filters by creation date with IS_BEFORE (strictly before the UTC day) and IS_ON_OR_AFTER', async () => {
    const project = await newProject();
    const early = await createFlag(project, unique('created-early'));
    const lastMoment = await createFlag(project, unique('created-last-moment'));
    const midnight = await createFlag(project, unique('created-midnight'));
    const today = await createFlag(project, unique('created-today'));
    await setCreatedAt(early, new Date('2020-03-01T12:00:00Z'));
    await setCreatedAt(lastMoment, new Date('2020-03-14T23:59:59.999Z'));
    await setCreatedAt(midnight, new Date('2020-03-15T00:00:00Z'));
    const p = `IS:${project}`;
    expect(await foundSorted(app.admin, { project: p, createdAt: 'IS_BEFORE:2020-03-15' })).toEqual(sorted([early, lastMoment]));
    expect(await foundSorted(app.admin, { project: p, createdAt: 'IS_ON_OR_AFTER:2020-03-15' })).toEqual(sorted([midnight, today]));
    expect(await foundSorted(app.admin, { project: p, createdAt: 'IS_ON_OR_AFTER:2020-03-16' })).toEqual([today]);
    expect(await foundSorted(app.admin, { project: p, createdAt: 'IS_BEFORE:2020-03-01' })).toEqual([]);
  });

  it('searches the archive with archived=IS:true', async () => {
    const project = await newProject();
    const active = await createFlag(project, unique('archive-active'));
    const gone = await createFlag(project, unique('archive-gone'));
    const goneToo = await createFlag(project, unique('archive-gone-too'));
    await archiveFlag(project, gone);
    await archiveFlag(project, goneToo);
    const p = `IS:${project}`;
    const archived = await searchAs(app.admin, { project: p, archived: 'IS:true' });
    expect(archived.features.map((f) => f.name).sort()).toEqual(sorted([gone, goneToo]));
    expect(archived.total).toBe(2);
    for (const flag of archived.features) expect(Number.isNaN(Date.parse(flag.archivedAt!))).toBe(false);
    expect(await foundSorted(app.admin, { project: p, archived: 'IS:false' })).toEqual([active]);
    expect(await foundSorted(app.admin, { project: p })).toEqual([active]);
    expect(await foundSorted(app.admin, { project: p, archived: 'IS:true', query: 'gone-too' })).toEqual([goneToo]);
  });

  it('ANDs several filters', async () => {
    const project = await newProject();
    const match = await createFlag(project, unique('and-match'), { type: 'operational', tags: ['team:aa'] });
    await createFlag(project, unique('and-wrong-type'), { type: 'release', tags: ['team:aa'] });
    await createFlag(project, unique('and-no-tag'), { type: 'operational' });
    const matchOn = await createFlag(project, unique('and-match-on'), { type: 'operational', tags: ['team:aa'] });
    await turnOn(matchOn, 'production', project);
    const p = `IS:${project}`;
    expect(await foundSorted(app.admin, { project: p, type: 'IS:operational', tag: 'INCLUDE:team:aa' })).toEqual(sorted([match, matchOn]));
    expect(await foundSorted(app.admin, { project: p, type: 'IS:operational', tag: 'INCLUDE:team:aa', status: ['production:enabled'] })).toEqual([matchOn]);
    expect(await foundSorted(app.admin, { project: p, type: 'IS:operational', tag: 'INCLUDE:team:aa', query: 'on' })).toEqual([matchOn]);
    expect(await foundSorted(app.admin, { project: `IS_NOT:${project}`, type: 'IS:operational', tag: 'INCLUDE:team:aa' })).toEqual([]);
  });
});

describe('search: paging', () => {
  it('pages without overlap, covering every flag, with the same total on each page', async () => {
    const project = await newProject();
    const all: string[] = [];
    for (let i = 0; i < 7; i++) all.push(await createFlag(project, unique('page')));
    const pages = [];
    for (const offset of ['0', '3', '6']) pages.push(await searchAs(app.admin, { project: `IS:${project}`, limit: '3', offset }));
    expect(pages.map((page) => page.features.length)).toEqual([3, 3, 1]);
    expect(pages.map((page) => page.total)).toEqual([7, 7, 7]);
    const names = pages.flatMap((page) => page.features.map((f) => f.name));
    expect(new Set(names).size).toBe(7);
    expect(names).toEqual(all);

    const beyond = await searchAs(app.admin, { project: `IS:${project}`, limit: '3', offset: '100' });
    expect(beyond).toEqual({ features: [], total: 7 });
    expect(await namesFound(app.admin, { project: `IS:${project}`, offset: '5' })).toEqual(all.slice(5));
  });

  it('answers 50 flags by default and at most 1000', async () => {
    const project = await newProject();
    // Creating 1001 flags one request at a time is too slow for a test.
    const names = Array.from({ length: 1001 }, (_, i) => `${project}-bulk-${String(i).padStart(4, '0')}`);
    await app.db.insert(t.features).values(names.map((name) => ({ name, project })));
    const byDefault = await searchAs(app.admin, { project: `IS:${project}` });
    expect(byDefault.features).toHaveLength(50);
    expect(byDefault.total).toBe(1001);
    const capped = await searchAs(app.admin, { project: `IS:${project}`, limit: '5000' });
    expect(capped.features).toHaveLength(1000);
    expect(capped.total).toBe(1001);
  });
});

describe('search: sorting', () => {
  it('sorts by createdAt by default, ties by name, in both orders; an unknown sortBy sorts by createdAt', async () => {
    const project = await newProject();
    const tieB = await createFlag(project, `${project}-tie-b`);
    const tieA = await createFlag(project, `${project}-tie-a`);
    const earliest = await createFlag(project, `${project}-earliest`);
    const latest = await createFlag(project, `${project}-latest`);
    await setCreatedAt(earliest, new Date('2021-01-01T00:00:00Z'));
    await setCreatedAt(tieB, new Date('2021-01-02T00:00:00Z'));
    await setCreatedAt(tieA, new Date('2021-01-02T00:00:00Z'));
    await setCreatedAt(latest, new Date('2021-01-03T00:00:00Z'));
    const p = `IS:${project}`;
    const ascending = [earliest, tieA, tieB, latest];
    expect(await namesFound(app.admin, { project: p })).toEqual(ascending);
    expect(await namesFound(app.admin, { project: p, sortBy: 'createdAt' })).toEqual(ascending);
    expect(await namesFound(app.admin, { project: p, sortBy: 'createdAt', sortOrder: 'asc' })).toEqual(ascending);
    expect(await namesFound(app.admin, { project: p, sortBy: 'createdAt', sortOrder: 'desc' })).toEqual([latest, tieA, tieB, earliest]);
    expect(await namesFound(app.admin, { project: p, sortBy: 'no-such-field' })).toEqual(ascending);
    expect(await namesFound(app.admin, { project: p, sortBy: 'no-such-field', sortOrder: 'desc' })).toEqual([latest, tieA, tieB, earliest]);
  });

  it('sorts by name in both orders', async () => {
    const project = await newProject();
    const [c, a, d, b] = [
      await createFlag(project, `${project}-c`),
      await createFlag(project, `${project}-a`),
      await createFlag(project, `${project}-d`),
      await createFlag(project, `${project}-b`),
    ];
    expect(await namesFound(app.admin, { project: `IS:${project}`, sortBy: 'name' })).toEqual([a, b, c, d]);
    expect(await namesFound(app.admin, { project: `IS:${project}`, sortBy: 'name', sortOrder: 'asc' })).toEqual([a, b, c, d]);
    expect(await namesFound(app.admin, { project: `IS:${project}`, sortBy: 'name', sortOrder: 'desc' })).toEqual([d, c, b, a]);
  });

  it('sorts by type, ties by createdAt', async () => {
    const project = await newProject();
    const release1 = await createFlag(project, unique('sort-type'), { type: 'release' });
    const experiment = await createFlag(project, unique('sort-type'), { type: 'experiment' });
    const release2 = await createFlag(project, unique('sort-type'), { type: 'release' });
    const killSwitch = await createFlag(project, unique('sort-type'), { type: 'kill-switch' });
    const operational = await createFlag(project, unique('sort-type'), { type: 'operational' });
    expect(await namesFound(app.admin, { project: `IS:${project}`, sortBy: 'type' })).toEqual([experiment, killSwitch, operational, release1, release2]);
    expect(await namesFound(app.admin, { project: `IS:${project}`, sortBy: 'type', sortOrder: 'desc' })).toEqual([release1, release2, operational, killSwitch, experiment]);
  });

  it('sorts by project, ties by createdAt', async () => {
    const marker = unique('sortproject');
    const second = await newProject(`bb-${marker}`);
    const first = await newProject(`aa-${marker}`);
    const b1 = await createFlag(second, `${marker}-b1`);
    const a1 = await createFlag(first, `${marker}-a1`);
    const b2 = await createFlag(second, `${marker}-b2`);
    const a2 = await createFlag(first, `${marker}-a2`);
    expect(await namesFound(app.admin, { query: marker, sortBy: 'project' })).toEqual([a1, a2, b1, b2]);
    expect(await namesFound(app.admin, { query: marker, sortBy: 'project', sortOrder: 'desc' })).toEqual([b1, b2, a1, a2]);
  });

  it('sorts by stale, ties by createdAt', async () => {
    const project = await newProject();
    const stale1 = await createFlag(project, unique('sort-stale'));
    const fresh1 = await createFlag(project, unique('sort-stale'));
    const stale2 = await createFlag(project, unique('sort-stale'));
    const fresh2 = await createFlag(project, unique('sort-stale'));
    await markStale(project, [stale1, stale2]);
    expect(await namesFound(app.admin, { project: `IS:${project}`, sortBy: 'stale' })).toEqual([fresh1, fresh2, stale1, stale2]);
    expect(await namesFound(app.admin, { project: `IS:${project}`, sortBy: 'stale', sortOrder: 'desc' })).toEqual([stale1, stale2, fresh1, fresh2]);
  });

  it('sorts by whether enabled in an environment', async () => {
    const project = await newProject();
    const on1 = await createFlag(project, unique('sort-env'));
    const off1 = await createFlag(project, unique('sort-env'));
    const on2 = await createFlag(project, unique('sort-env'));
    const off2 = await createFlag(project, unique('sort-env'));
    await turnOn(on1, 'production', project);
    await turnOn(on2, 'production', project);
    await turnOn(off1, 'development', project);
    const p = `IS:${project}`;
    expect(await namesFound(app.admin, { project: p, sortBy: 'environment:production' })).toEqual([off1, off2, on1, on2]);
    expect(await namesFound(app.admin, { project: p, sortBy: 'environment:production', sortOrder: 'desc' })).toEqual([on1, on2, off1, off2]);
    expect(await namesFound(app.admin, { project: p, sortBy: 'environment:development', sortOrder: 'desc' })).toEqual([off1, on1, on2, off2]);
  });

  it('sorts by lastSeenAt with never-seen flags last in both orders, and counts the last hour of evaluations', async () => {
    const project = await newProject();
    const seenLate = await createFlag(project, unique('sort-seen-late'));
    const never1 = await createFlag(project, unique('sort-never'));
    const seenEarly = await createFlag(project, unique('sort-seen-early'));
    const never2 = await createFlag(project, unique('sort-never'));

    const early = await reportAndSee(seenEarly, 3, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const late = await reportAndSee(seenLate, 5, 0);
    expect(Date.parse(late.lastSeenAt!)).toBeGreaterThan(Date.parse(early.lastSeenAt!));

    const p = `IS:${project}`;
    expect(await namesFound(app.admin, { project: p, sortBy: 'lastSeenAt' })).toEqual([seenEarly, seenLate, never1, never2]);
    expect(await namesFound(app.admin, { project: p, sortBy: 'lastSeenAt', sortOrder: 'desc' })).toEqual([seenLate, seenEarly, never1, never2]);

    // The counts are in the environment the flag was seen in, and nowhere else.
    const seenIn = early.environments.filter((e) => e.lastSeenAt !== null);
    expect(seenIn).toHaveLength(1);
    expect(seenIn[0]).toMatchObject({ yes: 3, no: 1 });
    for (const environment of early.environments.filter((e) => e.lastSeenAt === null)) expect(environment).toMatchObject({ yes: 0, no: 0 });
    // Evaluations reported hours ago are not counted (no operation writes an old hour).
    const threeHoursAgo = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000);
    await app.db
      .insert(t.clientMetricsHourly)
      .values({ featureName: seenEarly, appName: 'search-tests-old', environment: seenIn[0]!.name, hour: threeHoursAgo, yes: 100, no: 100, variants: {} });
    const [again] = (await searchAs(app.admin, { project: p, query: seenEarly })).features;
    expect(again!.environments.find((e) => e.name === seenIn[0]!.name)).toMatchObject({ yes: 3, no: 1 });
    const [unseen] = (await searchAs(app.admin, { project: p, query: never1 })).features;
    expect(unseen).not.toHaveProperty('lastSeenAt');
    for (const environment of unseen!.environments) expect(environment).toMatchObject({ lastSeenAt: null, yes: 0, no: 0 });
  });

  it('accepts favoritesFirst=true, which changes nothing while no flag is a favourite', async () => {
    const project = await newProject();
    const names = [await createFlag(project, `${project}-z`), await createFlag(project, `${project}-y`), await createFlag(project, `${project}-x`)];
    const result = await searchAs(app.admin, { project: `IS:${project}`, favoritesFirst: 'true' });
    expect(result.features.map((f) => f.name)).toEqual(names);
    expect(result.features.map((f) => f.favorite)).toEqual([false, false, false]);
    expect(await namesFound(app.admin, { project: `IS:${project}`, favoritesFirst: 'true', sortBy: 'name' })).toEqual([...names].reverse());
  });
});

describe('search: validation', () => {
  it.each([
    'project=FOO:x',
    'project=default',
    'type=IS_SOMETIMES:release',
    'state=IS',
    'createdBy=MAYBE:-42',
    'tag=INCLUDE:novalue',
    'tag=CONTAINS:team:aa',
    'segment=FOO:x',
    'createdAt=IS_BEFORE:2024-1-1',
    'createdAt=IS_AFTER:2024-01-01',
    'archived=IS:maybe',
    'sortOrder=up',
    'favoritesFirst=yes',
    'limit=-1',
    'limit=abc',
    'offset=abc',
    'offset=-3',
  ])('refuses %s with 400 ValidationError', async (parameter) => {
    const [name, value] = [parameter.slice(0, parameter.indexOf('=')), parameter.slice(parameter.indexOf('=') + 1)];
    const response = await call(app, 'GET', `/api/admin/search/features?${new URLSearchParams({ [name]: value })}`);
    expectError(response, 400, 'ValidationError');
  });

  it('accepts a first value of -42 and other well-formed values', async () => {
    const queries: SearchQuery[] = [
      { createdBy: 'IS:-42' },
      { createdBy: 'IS_ANY_OF:-42,7' },
      { tag: 'INCLUDE:team:aa,area:bb' },
      { createdAt: 'IS_ON_OR_AFTER:2024-01-01' },
      { limit: '0' },
      { offset: '0' },
    ];
    for (const query of queries) {
      const { response, error } = await app.admin.GET('/api/admin/search/features', { params: { query } });
      expect(response.status, `${JSON.stringify(query)}: ${JSON.stringify(error)}`).toBe(200);
    }
  });
});
