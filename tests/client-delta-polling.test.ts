// GET /api/client/delta polled as an SDK in delta mode polls it: which revision If-None-Match names, and which events
// bring the SDK from there to now. Polls only, no streams (the wire and streaming are tests/client-stream-wire.test.ts),
// so that the file is quick enough to run once per mutant of domain/client-features/delta.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { hydratedDelta, type DeltaQuery } from './support/client-api.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures, newApiToken } from './support/fixtures.js';
import { clientAs, userWithSession } from './support/users.js';

let app: TestApp;
let token: string;
/** The ETag of the first poll, before any flag changed: the revision the instance started at. */
let startEtag: string;
const unique = uniqueNames();
const { newProject, newFlag, createFlag, turnOn, archiveFlag, addStrategy, createSegment } = fixtures(() => app, (prefix) => unique(`delta-${prefix}`));
const { latestEventId } = eventReader(() => app);

beforeAll(async () => {
  app = await startTestApp();
  token = await newApiToken(app, { type: 'client', environment: 'development' });
  startEtag = (await poll()).etag;
});

/** A delta poll, sending `etag` back in If-None-Match when given. */
async function poll(etag?: string, query: DeltaQuery = {}) {
  const { data, response } = await app.clientWith(token).GET('/api/client/delta', {
    params: { query },
    headers: etag === undefined ? {} : { 'if-none-match': etag },
  });
  return { status: response.status, etag: response.headers.get('etag') ?? '', events: data?.events ?? [] };
}

/** A first poll: a hydration; answers the ETag to send back. */
const hydrated = (query: DeltaQuery = {}) => hydratedDelta(app, token, query);

const revisionIn = (etag: string) => Number(/^"(\d+)"$/.exec(etag)![1]);
const moveFlag = (featureName: string, projectId: string, newProjectId: string) =>
  app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', { params: { path: { projectId, featureName } }, body: { newProjectId } });

describe('an instance just started', () => {
  it('answers a poll from the revision it started at with the changes since, not a hydration', async () => {
    const flag = await newFlag('after-start');
    const { events } = await poll(startEtag);
    expect(events.map((e) => [e.type, e.feature?.name])).toEqual([['feature-updated', flag]]);
  });
});

describe('the revision If-None-Match names', () => {
  it.each([
    ['a weak validator', (revision: number) => `W/"${revision}"`],
    ['a bare number', (revision: number) => `${revision}`],
  ])('is read from %s: nothing changed since, so 304', async (_, form) => {
    const etag = await hydrated();
    expect((await poll(form(revisionIn(etag)))).status).toBe(304);
  });

  it.each([
    ['text before it', (revision: number) => `x"${revision}"`],
    ['text after it', (revision: number) => `"${revision}"x`],
    ['a revision newer than the instance has', (revision: number) => `"${revision + 1}"`],
  ])('is none with %s: a hydration', async (_, form) => {
    const etag = await hydrated();
    const { status, events } = await poll(form(revisionIn(etag)));
    expect(status).toBe(200);
    expect(events.map((e) => e.type)).toEqual(['hydration']);
  });
});

describe('the events since a revision', () => {
  it('name each flag changed after it once, in name order, and none changed at or before it', async () => {
    const [later, earlier] = [await newFlag('zeta'), await newFlag('alpha')];
    await newFlag('untouched');
    const etag = await hydrated();
    await turnOn(later);
    await turnOn(earlier);
    await addStrategy(later);
    const revision = await latestEventId();

    const { events, etag: now } = await poll(etag);
    expect(revisionIn(now)).toBe(revision);
    expect(events.map((e) => [e.type, e.eventId, e.feature?.name])).toEqual([
      ['feature-updated', revision, earlier],
      ['feature-updated', revision, later],
    ]);
  });

  it("reach every environment's SDKs after a change to the flag itself, not to one environment", async () => {
    const flag = await newFlag('described');
    const etag = await hydrated();
    await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: 'default', featureName: flag } }, body: { description: 'now described' } });

    expect((await poll(etag)).events).toMatchObject([{ type: 'feature-updated', feature: { name: flag, description: 'now described' } }]);
  });

  it('hydrate again after a change whose reach is not known flag by flag (a segment created)', async () => {
    const etag = await hydrated();
    await createSegment();

    const { events } = await poll(etag);
    expect(events).toMatchObject([{ type: 'hydration', eventId: await latestEventId() }]);
  });

  it('hydrate with the segments the flags use listed apart, one just put to use too', async () => {
    const flag = await newFlag('segmented');
    const etag = await hydrated();
    const segment = await createSegment();
    await addStrategy(flag, { name: 'default', segments: [segment.id] });

    const [hydration] = (await poll(etag)).events;
    expect(hydration?.segments?.map((s) => s.id)).toContain(segment.id);
  });
});

describe('a flag a filtered poll no longer gets', () => {
  it('is removed for a name prefix it matches, naming its project, and not mentioned for one it does not', async () => {
    const prefix = unique('prefixed');
    const project = await newProject('prefix');
    const [matching, other] = [await createFlag(project, `${prefix}-in`), await newFlag('not-prefixed')];
    const etag = await hydrated({ namePrefix: prefix });
    await archiveFlag(project, matching);
    await archiveFlag('default', other);

    const { events } = await poll(etag, { namePrefix: prefix });
    expect(events).toEqual([{ type: 'feature-removed', eventId: await latestEventId(), featureName: matching, project }]);
  });

  it('is removed once it loses the tag asked for, naming the project it is in', async () => {
    const project = await newProject('tagged');
    const value = unique('tag');
    const flag = await createFlag(project, unique('tagged'), { tags: [`simple:${value}`] });
    const etag = await hydrated({ tag: [`simple:${value}`] });
    await app.admin.DELETE('/api/admin/features/{featureName}/tags/{type}/{value}', { params: { path: { featureName: flag, type: 'simple', value } } });

    expect((await poll(etag, { tag: [`simple:${value}`] })).events).toMatchObject([{ type: 'feature-removed', featureName: flag, project }]);
  });

  it('is removed for a poll of the project it left, naming that project; a poll of the project it joined gets it', async () => {
    const [from, to] = [await newProject('from'), await newProject('to')];
    const flag = await newFlag('moving', from);
    const [leftEtag, joinedEtag] = [await hydrated({ project: [from] }), await hydrated({ project: [to] })];
    expect((await moveFlag(flag, from, to)).response.status).toBe(200);

    expect((await poll(leftEtag, { project: [from] })).events).toMatchObject([{ type: 'feature-removed', featureName: flag, project: from }]);
    expect((await poll(joinedEtag, { project: [to] })).events).toMatchObject([{ type: 'feature-updated', feature: { name: flag, project: to } }]);
  });
});

describe('a change that names a flag but changes nothing SDKs get', () => {
  it('brings a delta poll nothing: a user marking the flag a favourite leaves it at 304', async () => {
    const flag = await newFlag('favourite');
    const etag = await hydrated();
    const user = await userWithSession(app, 'Editor', 'fan');
    const favourite = await clientAs(app, user).POST('/api/admin/projects/{projectId}/features/{featureName}/favorites', { params: { path: { projectId: 'default', featureName: flag } } });
    expect(favourite.response.status).toBe(200);

    expect((await poll(etag)).status).toBe(304);
  });
});
