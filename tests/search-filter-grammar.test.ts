import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { foundSorted, sorted } from './support/search.js';
import { createFlagAs, userWithSession } from './support/users.js';

// How the search reads a filter's values (`OPERATOR:value,value…`) beyond the well-formed cases of
// feature-search: spaces, empty items, values it does not know, and dates the calendar does not have.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const tagType = await app.admin.POST('/api/admin/tag-types', { body: { name: 'team' } });
  expect(tagType.response.status, JSON.stringify(tagType.error)).toBe(201);
});

const unique = uniqueNames();
const { newProject, createFlag, turnOn } = fixtures(() => app, unique);


describe('filter values', () => {
  it('trims the spaces around each value', async () => {
    const marker = unique('trimmed');
    const [p1, p2] = [await newProject(), await newProject()];
    const f1 = await createFlag(p1, `${marker}-first`);
    const f2 = await createFlag(p2, `${marker}-second`);
    expect(await foundSorted(app.admin, { query: marker, project: `IS_ANY_OF:${p1}, ${p2}` })).toEqual(sorted([f1, f2]));
  });

  it('drops empty values: a trailing comma in INCLUDE_ALL_OF asks for nothing more', async () => {
    const project = await newProject();
    const tagged = await createFlag(project, unique('tagged'), { tags: ['team:aa'] });
    await createFlag(project, unique('untagged'));
    expect(await foundSorted(app.admin, { project: `IS:${project}`, tag: 'INCLUDE_ALL_OF:team:aa,' })).toEqual([tagged]);
  });

  it('ignores a segment filter that names no segment', async () => {
    const project = await newProject();
    const all = [await createFlag(project, unique('any-a')), await createFlag(project, unique('any-b'))];
    expect(await foundSorted(app.admin, { project: `IS:${project}`, segment: 'INCLUDE:' })).toEqual(sorted(all));
  });
});

describe('values the search does not know', () => {
  it('finds no flag in a state it does not know, and every flag with IS_NOT of it', async () => {
    const project = await newProject();
    const all = [await createFlag(project, unique('state-a')), await createFlag(project, unique('state-b'))];
    expect(await foundSorted(app.admin, { project: `IS:${project}`, state: 'IS:sideways' })).toEqual([]);
    expect(await foundSorted(app.admin, { project: `IS:${project}`, state: 'IS_NOT:sideways' })).toEqual(sorted(all));
  });

  it('finds no flag for creator ids that are not user ids, and every flag with IS_NONE_OF of them', async () => {
    const project = await newProject();
    const all = [await createFlag(project, unique('creator-a')), await createFlag(project, unique('creator-b'))];
    const notIds = 'abc,x42,42x,1234567890';
    expect(await foundSorted(app.admin, { project: `IS:${project}`, createdBy: `IS_ANY_OF:${notIds}` })).toEqual([]);
    expect(await foundSorted(app.admin, { project: `IS:${project}`, createdBy: `IS_NONE_OF:${notIds}` })).toEqual(sorted(all));
  });

  it("finds the flags a user created by the user's id", async () => {
    const project = await newProject();
    const user = await userWithSession(app, 'Admin', 'creator');
    const created = await createFlagAs(app, user, project, unique('by-user'));
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    await createFlag(project, unique('by-admin-token'));
    expect(await foundSorted(app.admin, { project: `IS:${project}`, createdBy: `IS:${user.id}` })).toEqual([created.data!.name]);
  });
});

describe('status entries', () => {
  it.each([
    ['more after "enabled"', 'development:enabledish'],
    ['a line before the environment', 'nonsense\ndevelopment:enabled'],
  ])('ignores an entry with %s', async (_case, entry) => {
    const project = await newProject();
    const off = await createFlag(project, unique('status-off'));
    const on = await createFlag(project, unique('status-on'));
    await turnOn(on, 'development', project);
    expect(await foundSorted(app.admin, { project: `IS:${project}`, status: [entry] })).toEqual(sorted([off, on]));
  });
});

describe('createdAt', () => {
  it.each(['2024-02-30', '2023-02-29', '2024-13-01', '2024-00-10'])('refuses %s, a day the calendar does not have, naming it', async (day) => {
    const response = await app.admin.GET('/api/admin/search/features', { params: { query: { createdAt: `IS_BEFORE:${day}` } } });
    expect(expectError(response, 400, 'ValidationError').message).toBe(`createdAt: "${day}" is not a calendar date (YYYY-MM-DD).`);
  });
});
