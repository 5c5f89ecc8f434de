// The event log's search (GET /api/admin/search/events, Unleash's searchEvents): free text, each filter, the days,
// paging with the total over all pages, who may search, and each refusal the contract names.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import type { operations } from '../generated/api.js';
import type { ServiceClient } from '../client/index.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, flagPath, ok } from './support/fixtures.js';
import { clientAs, userWithSession, type TestUser } from './support/users.js';

type Query = NonNullable<operations['searchEvents']['parameters']['query']>;

let app: TestApp;
const unique = uniqueNames();
const { newProject, createFlag, turnOn, turnOff, tagFlag } = fixtures(() => app, unique);

/** A project of its own, so that counts are exact whatever else the file writes. */
let project: string;
let flag: string;
let author: TestUser;

const search = (query: Query, client: ServiceClient = app.admin) => client.GET('/api/admin/search/events', { params: { query } });
const found = async (query: Query) => ok(search(query));
const types = async (query: Query) => (await found(query)).events.map((e) => e.type);

beforeAll(async () => {
  app = await startTestApp();
  project = await newProject('searched');
  flag = await createFlag(project, 'checkout-banner', { description: 'Shows the banner' });
  await ok(app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(flag, project) }, body: { description: 'Shows the summer banner' } }));
  await turnOn(flag, 'development', project);
  await turnOff(flag, 'development', project);
  await turnOn(flag, 'production', project);
  author = await userWithSession(app, 'Admin', 'author');
  await ok(clientAs(app, author).POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId: project } }, body: { name: 'by-author' } }));
});

describe('searching the event log', () => {
  it('answers the matching events newest first, each in the event shape, with the total', async () => {
    const body = await found({ project: `IS:${project}` });
    // Switching on a flag without strategies gives it the default strategy first.
    expect(body.events.map((e) => e.type)).toEqual([
      'feature-created',
      'feature-environment-enabled',
      'feature-strategy-add',
      'feature-environment-disabled',
      'feature-environment-enabled',
      'feature-strategy-add',
      'feature-metadata-updated',
      'feature-created',
      'project-created',
    ]);
    expect(body.total).toBe(9);
    const ids = body.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(body.events[6]).toMatchObject({ featureName: flag, project, data: { description: 'Shows the summer banner' }, preData: { description: 'Shows the banner' } });
  });

  it("finds a flag's events by part of its name, whatever the case", async () => {
    expect(await types({ query: 'CHECKOUT-BAN' })).toEqual([
      'feature-environment-enabled',
      'feature-strategy-add',
      'feature-environment-disabled',
      'feature-environment-enabled',
      'feature-strategy-add',
      'feature-metadata-updated',
      'feature-created',
    ]);
  });

  it('finds events by a word of the data before or after the change', async () => {
    expect(await types({ query: 'summer' })).toEqual(['feature-metadata-updated']);
  });

  it('finds events by their creator, type and project', async () => {
    const [byAuthor] = (await found({ query: author.email.toUpperCase() })).events;
    expect(byAuthor).toMatchObject({ featureName: 'by-author', createdByUserId: author.id });
    expect(await types({ query: 'environment-DISABLED', project: `IS:${project}` })).toEqual(['feature-environment-disabled']);
    expect((await found({ query: project })).total).toBe(9);
  });

  it('matches % and _ in the text as themselves', async () => {
    const other = await newProject('wildcards');
    await createFlag(other, 'rate_limit', { description: 'Caps at 100% of the quota' });
    await createFlag(other, 'ratexlimit', { description: 'Caps at 100 requests' });
    expect((await found({ query: 'rate_limit' })).events.map((e) => e.featureName)).toEqual(['rate_limit']);
    expect((await found({ query: '100%' })).events.map((e) => e.featureName)).toEqual(['rate_limit']);
  });

  it('filters by event type, one or several, or all but some', async () => {
    const inProject = `IS:${project}`;
    expect(await types({ project: inProject, type: 'IS:feature-environment-enabled' })).toEqual(['feature-environment-enabled', 'feature-environment-enabled']);
    expect(await types({ project: inProject, type: 'IS_ANY_OF:feature-metadata-updated,feature-environment-disabled' })).toEqual(['feature-environment-disabled', 'feature-metadata-updated']);
    expect(await types({ project: inProject, type: 'IS_NONE_OF:feature-environment-enabled,feature-environment-disabled' })).toEqual(['feature-created', 'feature-strategy-add', 'feature-strategy-add', 'feature-metadata-updated', 'feature-created', 'project-created']);
  });

  it('filters by flag, project, environment, event id and the user who made the change', async () => {
    expect((await found({ feature: `IS:${flag}` })).total).toBe(7);
    expect((await found({ feature: 'IS_ANY_OF:by-author,nowhere' })).events.map((e) => e.featureName)).toEqual(['by-author']);
    expect((await found({ project: 'IS:no-such-project' })).total).toBe(0);
    expect(await types({ project: `IS:${project}`, environment: 'IS:production' })).toEqual(['feature-environment-enabled', 'feature-strategy-add']);
    const [newest, second] = (await found({ project: `IS:${project}` })).events;
    expect((await found({ id: `IS_ANY_OF:${newest!.id},${second!.id}` })).events.map((e) => e.id)).toEqual([newest!.id, second!.id]);
    expect((await found({ createdBy: `IS:${author.id}` })).events.map((e) => e.featureName)).toEqual(['by-author']);
  });

  it('keeps the events of the days from and to, both included', async () => {
    const dated = await newProject('dated');
    await createFlag(dated, 'old-flag');
    await app.db.update(t.events).set({ createdAt: new Date('2025-03-10T23:59:00Z') }).where(eq(t.events.project, dated));
    const inDated = `IS:${dated}`;
    expect((await found({ project: inDated, from: 'IS:2025-03-10', to: 'IS:2025-03-10' })).total).toBe(2);
    expect((await found({ project: inDated, from: 'IS:2025-03-11' })).total).toBe(0);
    expect((await found({ project: inDated, to: 'IS:2025-03-09' })).total).toBe(0);
  });

  it('pages with offset and limit, the total counting every match', async () => {
    const paged = await newProject('paged');
    const name = await createFlag(paged, 'paged-flag');
    for (let i = 0; i < 6; i++) await tagFlag(name, `t${i}`);
    const all = (await found({ project: `IS:${paged}` })).events.map((e) => e.id);
    // The project's creation, the flag's, and six tags.
    expect(all).toHaveLength(8);
    const page = await found({ project: `IS:${paged}`, offset: '2', limit: '3' });
    expect(page.total).toBe(8);
    expect(page.events.map((e) => e.id)).toEqual(all.slice(2, 5));
    expect((await found({ project: `IS:${paged}`, offset: '6', limit: '3' })).events.map((e) => e.id)).toEqual(all.slice(6));
  });

  it('gives 50 events a page by default', async () => {
    const many = await newProject('many');
    const name = await createFlag(many, 'tagged-often');
    for (let i = 0; i < 55; i++) await tagFlag(name, `v${i}`);
    const body = await found({ project: `IS:${many}` });
    expect(body.events).toHaveLength(50);
    expect(body.total).toBe(57);
  });

  it('gives at most 1000 events a page, however many are asked for', async () => {
    const crowded = await newProject('crowded');
    // No operation writes a thousand events cheaply: they are written directly.
    await app.db.insert(t.events).values(Array.from({ length: 1001 }, (_, i) => ({ type: 'feature-tagged' as const, createdBy: 'test', project: crowded, featureName: 'crowded-flag', data: { type: 'simple', value: `c${i}` } })));
    const body = await found({ project: `IS:${crowded}`, limit: '5000' });
    expect(body.events).toHaveLength(1000);
    expect(body.total).toBe(1002);
  });
});

describe('who may search', () => {
  it('refuses an editor: searching the event log is for admins, as reading it is', async () => {
    const editor = await userWithSession(app, 'Editor');
    expect(expectError(await search({}, clientAs(app, editor)), 403, 'NoAccessError').message).toContain('ADMIN');
  });
});

describe('refusals', () => {
  it('refuses a type that is not an event type', async () => {
    expect(expectError(await search({ type: 'IS:feature-renamed' }), 400, 'ValidationError').message).toContain('feature-renamed');
  });

  it('refuses an event id or creator that is not a number', async () => {
    expect(expectError(await search({ id: 'IS:abc' }), 400, 'ValidationError').message).toContain('id');
    expect(expectError(await search({ createdBy: 'IS_ANY_OF:2,alice' }), 400, 'ValidationError').message).toContain('alice');
  });

  it('refuses a day that is not in the calendar, or not in the IS:yyyy-mm-dd form', async () => {
    expect(expectError(await search({ from: 'IS:2025-02-30' }), 400, 'ValidationError').message).toContain('2025-02-30');
    expect(expectError(await search({ to: '2025-02-01' }), 400, 'ValidationError').message).toContain('to');
  });

  it('refuses a filter without an operator, and a page that is not a number', async () => {
    expectError(await search({ project: 'default' }), 400, 'ValidationError');
    expectError(await search({ limit: 'many' }), 400, 'ValidationError');
    expectError(await search({ query: 'x'.repeat(201) }), 400, 'ValidationError');
  });
});
