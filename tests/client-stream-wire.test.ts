// GET /api/client/delta and GET /api/client/streaming on the wire, through plain HTTP: what an SDK's delta polling and
// streaming modes receive (the real SDK in those modes is tests/real-sdk-streaming.test.ts).
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { appWithClientTokens, fixtures, flagPath, newApiToken, scrapeOf, until } from './support/fixtures.js';
import { clientFeatureOn, clientFeaturesOn, hydratedDelta } from './support/client-api.js';
import { eventReader, uniqueNames } from './support/events.js';
import { eventsOf, openRawStream, openStream, type EventStream } from './support/sse.js';

let app: TestApp;
/** Client tokens of the app, every project, per environment. */
let devToken: string;
let prodToken: string;
let frontendToken: string;

const unique = uniqueNames();
const { newProject, newFlag, turnOn, archiveFlag, addStrategy, createSegment } = fixtures(() => app, (prefix) => unique(`wire-${prefix}`));
const { latestEventId } = eventReader(() => app);

async function move(featureName: string, from: string, to: string) {
  const moved = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', {
    params: { path: flagPath(featureName, from) },
    body: { newProjectId: to },
  });
  expect(moved.response.status, JSON.stringify(moved.error)).toBe(200);
}

/** A flag turned on in development of a new project, and a second project to move it to. */
async function movableFlag(prefix: string) {
  const [from, to] = [await newProject(`${prefix}-from`), await newProject(`${prefix}-to`)];
  const flag = await newFlag(prefix, from);
  await turnOn(flag, 'development', from);
  return { flag, from, to };
}

/** GET /api/client/delta with a token (null: none), sending `etag` back in If-None-Match when given. */
const delta = (token: string | null, etag?: string) =>
  app.clientWith(token ?? undefined).GET('/api/client/delta', { headers: etag === undefined ? {} : { 'if-none-match': etag } });

/** The revision an answer's ETag holds (`"123"`). */
function etagRevision(result: { response: Response }): number {
  const etag = result.response.headers.get('etag');
  const match = /^"(\d+)"$/.exec(String(etag));
  if (!match) throw new Error(`no revision in the ETag: ${String(etag)}`);
  return Number(match[1]);
}

/** As an SDK that takes segments apart asks: in the shape deltas use. */
const segmentAware = { 'unleash-client-spec': '5.0.0' };

/** A client token for development that sees only `project`. */
const scopedToken = (project: string, on: TestApp = app) => newApiToken(on, { type: 'client', environment: 'development', projects: [project] });

/** GET /api/client/streaming on `on`, closed when the test finishes. */
async function stream(token: string, headers: Record<string, string> = {}, on: TestApp = app): Promise<EventStream> {
  const opened = await openStream(`${on.url}/api/client/streaming`, { authorization: token, ...headers });
  onTestFinished(() => opened.close());
  return opened;
}

/** The `client_streams_open` gauge of an app. */
async function openStreamsOn(on: TestApp): Promise<number> {
  return Number(/^client_streams_open (\d+)$/m.exec((await scrapeOf(on)).text)?.[1]);
}

beforeAll(async () => {
  ({ app, devToken, prodToken } = await appWithClientTokens());
  frontendToken = await newApiToken(app, { type: 'frontend', environment: 'development' });
});

describe('GET /api/client/delta', () => {
  it('answers a first call with one hydration of every flag and segment in the client shape, its ETag holding the revision', async () => {
    const segment = await createSegment({ name: unique('wire-segment'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }] });
    const flag = await newFlag('hydrated');
    await addStrategy(flag, { name: 'default', segments: [segment.id] });
    await turnOn(flag);

    const { data, error, response } = await delta(devToken);
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const revision = await latestEventId();
    expect(etagRevision({ response })).toBe(revision);

    const { events } = data!;
    expect(events).toHaveLength(1);
    expect(Object.keys(events[0]!).sort()).toEqual(['eventId', 'features', 'segments', 'type']);
    expect(events[0]).toMatchObject({ type: 'hydration', eventId: revision });
    const features = (await clientFeaturesOn(app, devToken, {}, segmentAware)).data!;
    expect(events[0]!.features).toEqual(features.features);
    expect(events[0]!.segments).toEqual(features.segments);
    expect(events[0]!.features!.find((f) => f.name === flag)).toMatchObject({
      name: flag,
      project: 'default',
      enabled: true,
      strategies: [{ name: 'default', parameters: {}, constraints: [], variants: [], segments: [segment.id] }],
    });
    expect(events[0]!.segments).toContainEqual({ id: segment.id, name: segment.name, constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'], caseInsensitive: false, inverted: false }] });
  });

  it('answers 304 to the ETag sent back when nothing changed', async () => {
    const etag = await hydratedDelta(app, devToken);
    const { data, error, response } = await delta(devToken, etag);
    expect(response.status).toBe(304);
    // The client reads a non-2xx body as text: the empty string for no body.
    expect(error).toBe('');
  });

  it('after a flag is turned on, answers only a feature-updated event for it, whose eventId and ETag are the new revision', async () => {
    const flag = await newFlag('turned-on');
    const etag = await hydratedDelta(app, devToken);
    await turnOn(flag);
    const revision = await latestEventId();

    const { data, error, response } = await delta(devToken, etag);
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(etagRevision({ response })).toBe(revision);
    expect(data!.events).toHaveLength(1);
    expect(data!.events[0]).toMatchObject({ type: 'feature-updated', eventId: revision, feature: { name: flag, project: 'default', enabled: true } });
    expect(data!.events[0]!.feature).toEqual((await clientFeatureOn(app, devToken, flag, segmentAware)).data);
  });

  it('after a flag is archived, answers a feature-removed event naming it and its project', async () => {
    const project = await newProject('archiving');
    const flag = await newFlag('archived', project);
    await turnOn(flag, 'development', project);
    const etag = await hydratedDelta(app, devToken);
    await archiveFlag(project, flag);
    const revision = await latestEventId();

    const { data, error, response } = await delta(devToken, etag);
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(etagRevision({ response })).toBe(revision);
    expect(data!.events).toEqual([{ type: 'feature-removed', eventId: revision, featureName: flag, project }]);
  });

  it('after a flag moved to another project, answers a token of the project it left a feature-removed event naming that project', async () => {
    const { flag, from, to } = await movableFlag('moved-away');
    const token = await scopedToken(from);
    const etag = await hydratedDelta(app, token);
    await move(flag, from, to);
    const revision = await latestEventId();

    expect((await clientFeaturesOn(app, token, {}, segmentAware)).data!.features.map((f) => f.name)).not.toContain(flag);
    const { data, error, response } = await delta(token, etag);
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data!.events).toEqual([{ type: 'feature-removed', eventId: revision, featureName: flag, project: from }]);
  });

  it('after a flag moved to another project, answers a token of the project it joined a feature-updated event for it', async () => {
    const { flag, from, to } = await movableFlag('moved-in');
    const token = await scopedToken(to);
    const etag = await hydratedDelta(app, token);
    await move(flag, from, to);

    const { data, error, response } = await delta(token, etag);
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data!.events).toMatchObject([{ type: 'feature-updated', feature: { name: flag, project: to, enabled: true } }]);
  });

  it('after a segment changed, answers a hydration holding the changed segment', async () => {
    const segment = await createSegment({ name: unique('wire-changed-segment'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }] });
    const flag = await newFlag('segmented');
    await addStrategy(flag, { name: 'default', segments: [segment.id] });
    await turnOn(flag);
    const etag = await hydratedDelta(app, devToken);
    const constraints = [{ contextName: 'userId', operator: 'IN' as const, values: ['bob'], caseInsensitive: false, inverted: false }];
    const updated = await app.admin.PUT('/api/admin/segments/{segmentId}', { params: { path: { segmentId: segment.id } }, body: { name: segment.name, constraints } });
    expect(updated.response.status, JSON.stringify(updated.error)).toBe(204);
    const revision = await latestEventId();

    const { data, error, response } = await delta(devToken, etag);
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(etagRevision({ response })).toBe(revision);
    expect(data!.events.map((e) => e.type)).toEqual(['hydration']);
    expect(data!.events[0]!.eventId).toBe(revision);
    expect(data!.events[0]!.segments).toContainEqual({ id: segment.id, name: segment.name, constraints });
  });

  it.each([
    ['garbage', async () => '"not-a-revision"'],
    ['a weak validator of garbage', async () => 'W/"x1"'],
    ['a revision newer than the current one', async () => `"${(await latestEventId()) + 1_000_000}"`],
    ['the ETag of /api/client/features', async () => String((await clientFeaturesOn(app, devToken, {}, segmentAware)).response.headers.get('etag'))],
  ])('answers a hydration to If-None-Match holding %s', async (_label, etag) => {
    const { data, error, response } = await delta(devToken, await etag());
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data!.events.map((e) => e.type)).toEqual(['hydration']);
    expect(data!.events[0]!.eventId).toBe(etagRevision({ response }));
  });

  it('answers 304 to a project-scoped token after a change in a project it cannot see', async () => {
    const project = await newProject('scoped-delta');
    await newFlag('own', project);
    const token = await scopedToken(project);
    const etag = await hydratedDelta(app, token);
    await turnOn(await newFlag('elsewhere'));

    const { data, error, response } = await delta(token, etag);
    expect(response.status, JSON.stringify(error)).toBe(304);
  });

  it('answers 304 to a token of one environment after a change in another', async () => {
    const flag = await newFlag('production-only');
    const etag = await hydratedDelta(app, devToken);
    await turnOn(flag, 'production');

    const { data, error, response } = await delta(devToken, etag);
    expect(response.status, JSON.stringify(error)).toBe(304);
    const production = await delta(prodToken, etag);
    expect(production.data!.events).toMatchObject([{ type: 'feature-updated', feature: { name: flag, enabled: true } }]);
  });

  it('answers 401 without a token or with an unknown one, as an Error object', async () => {
    for (const token of [null, '*:development.not-a-real-token']) {
      const error = expectError(await delta(token), 401, 'AuthenticationRequired');
      expect(Object.keys(error).sort()).toEqual(['id', 'message', 'name']);
    }
  });

  it('answers 403 to a frontend token, as an Error object', async () => {
    const error = expectError(await delta(frontendToken), 403, 'NoAccessError');
    expect(Object.keys(error).sort()).toEqual(['id', 'message', 'name']);
  });
});

describe('GET /api/client/streaming', () => {
  it('starts with an unleash-connected event whose id is the revision and whose data is a hydration', async () => {
    const s = await stream(devToken);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream');
    const connected = await s.next();
    const polled = await delta(devToken);
    expect(connected.event).toBe('unleash-connected');
    expect(connected.id).toBe(String(etagRevision(polled)));
    expect(JSON.parse(connected.data)).toEqual(polled.data);
    expect(eventsOf(connected)[0]).toMatchObject({ type: 'hydration', eventId: Number(connected.id) });
    expect(s.foreign).toEqual([]);
  });

  it('after a flag is turned on, sends an unleash-updated event with the new revision and a feature-updated event for the flag', async () => {
    const flag = await newFlag('streamed');
    const s = await stream(devToken);
    await s.next();
    await turnOn(flag);
    const revision = await latestEventId();

    const updated = await s.next();
    expect(updated).toMatchObject({ event: 'unleash-updated', id: String(revision) });
    expect(eventsOf(updated)).toHaveLength(1);
    expect(eventsOf(updated)[0]).toMatchObject({ type: 'feature-updated', eventId: revision, feature: { name: flag, enabled: true } });
    expect(s.foreign).toEqual([]);
  });

  it('sends a project-scoped token nothing for a change in a project it cannot see', async () => {
    const project = await newProject('scoped-stream');
    const own = await newFlag('own', project);
    const s = await stream(await scopedToken(project));
    await s.next();
    await turnOn(await newFlag('elsewhere'));
    await turnOn(own, 'development', project);
    const revision = await latestEventId();

    // The change elsewhere came first: the next event is the one for the token's own flag, holding nothing else.
    const updated = await s.next();
    expect(updated).toMatchObject({ event: 'unleash-updated', id: String(revision) });
    expect(eventsOf(updated)).toMatchObject([{ type: 'feature-updated', eventId: revision, feature: { name: own, project } }]);
    expect(eventsOf(updated)).toHaveLength(1);
  });

  it('sends a token of the project a flag left a feature-removed event when the flag moves to another project', async () => {
    const { flag, from, to } = await movableFlag('streamed-away');
    const s = await stream(await scopedToken(from));
    expect(eventsOf(await s.next())[0].features.map((f: { name: string }) => f.name)).toContain(flag);
    await move(flag, from, to);
    const revision = await latestEventId();

    const updated = await s.next();
    expect(updated).toMatchObject({ event: 'unleash-updated', id: String(revision) });
    expect(eventsOf(updated)).toEqual([{ type: 'feature-removed', eventId: revision, featureName: flag, project: from }]);
  });

  it('resumed with the Last-Event-ID of a revision before a change, starts with an unleash-updated event holding only the change', async () => {
    const flag = await newFlag('missed');
    const first = await stream(devToken);
    const before = (await first.next()).id!;
    first.close();
    await turnOn(flag);
    const revision = await latestEventId();

    const s = await stream(devToken, { 'last-event-id': before });
    expect(s.status).toBe(200);
    const resumed = await s.next();
    expect(resumed).toMatchObject({ event: 'unleash-updated', id: String(revision) });
    expect(eventsOf(resumed)).toHaveLength(1);
    expect(eventsOf(resumed)[0]).toMatchObject({ type: 'feature-updated', eventId: revision, feature: { name: flag, enabled: true } });
  });

  it('resumed with the Last-Event-ID of the current revision, answers its headers at once and sends the next change as unleash-updated', async () => {
    const flag = await newFlag('next-change');
    const current = String(etagRevision(await delta(devToken)));
    const s = await stream(devToken, { 'last-event-id': current });
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream');
    await turnOn(flag);
    const revision = await latestEventId();

    const updated = await s.next();
    expect(updated).toMatchObject({ event: 'unleash-updated', id: String(revision) });
    expect(eventsOf(updated)).toMatchObject([{ type: 'feature-updated', feature: { name: flag, enabled: true } }]);
  });

  it.each([
    ['garbage', async () => 'not-a-revision'],
    ['a revision newer than the current one', async () => String((await latestEventId()) + 1_000_000)],
  ])('resumed with a Last-Event-ID holding %s, starts with an unleash-connected hydration', async (_label, lastEventId) => {
    const s = await stream(devToken, { 'last-event-id': await lastEventId() });
    const connected = await s.next();
    expect(connected.event).toBe('unleash-connected');
    expect(eventsOf(connected).map((e) => e.type)).toEqual(['hydration']);
    expect(connected.id).toBe(String(eventsOf(connected)[0].eventId));
  });

  it('to an HTTP/1.0 request, sends events after a change with no chunk framing in the body', async () => {
    const flag = await newFlag('http10');
    const s = await openRawStream(app.url, `GET /api/client/streaming HTTP/1.0\r\nhost: 127.0.0.1\r\nauthorization: ${devToken}`);
    onTestFinished(() => s.close());
    expect(s.status).toBe(200);
    expect(s.headers['transfer-encoding']).toBeUndefined();
    expect((await s.next()).event).toBe('unleash-connected');
    await turnOn(flag);
    const revision = await latestEventId();

    const updated = await s.next();
    expect(updated).toMatchObject({ event: 'unleash-updated', id: String(revision) });
    expect(eventsOf(updated)).toMatchObject([{ type: 'feature-updated', feature: { name: flag, enabled: true } }]);
    expect(s.foreign).toEqual([]);
    expect(s.body).not.toContain('\r');
  });

  it('answers 401 without a token or with an unknown one, as an Error object and not a stream', async () => {
    for (const token of [undefined, '*:development.not-a-real-token']) {
      const response = await app.clientWith(token).GET('/api/client/streaming');
      expect(response.response.headers.get('content-type')).toMatch(/^application\/json/);
      const error = expectError(response, 401, 'AuthenticationRequired');
      expect(Object.keys(error).sort()).toEqual(['id', 'message', 'name']);
    }
  });

  it('answers 403 to a frontend token, as an Error object and not a stream', async () => {
    const response = await app.clientWith(frontendToken).GET('/api/client/streaming');
    expect(response.response.headers.get('content-type')).toMatch(/^application\/json/);
    const error = expectError(response, 403, 'NoAccessError');
    expect(Object.keys(error).sort()).toEqual(['id', 'message', 'name']);
  });
});

describe('GET /api/client/streaming past the stream limit', () => {
  let limited: TestApp;
  let token: string;

  beforeAll(async () => {
    limited = await startTestApp({ clientStreamsLimit: 2 });
    token = await newApiToken(limited, { type: 'client', environment: 'development' });
  });

  it('asks the stream past the limit to poll and ends it, and accepts a new stream once one has closed', async () => {
    const first = await stream(token, {}, limited);
    const second = await stream(token, {}, limited);
    expect((await first.next()).event).toBe('unleash-connected');
    expect((await second.next()).event).toBe('unleash-connected');

    const third = await stream(token, {}, limited);
    expect(third.status).toBe(200);
    expect(third.headers['content-type']).toBe('text/event-stream');
    expect(await third.next()).toEqual({ event: 'fetch-mode', id: undefined, data: 'polling' });
    await third.end();
    expect(third.events).toHaveLength(1);

    first.close();
    await until('the closed stream let go', () => openStreamsOn(limited), (open) => open === 1);
    const fourth = await stream(token, {}, limited);
    expect((await fourth.next()).event).toBe('unleash-connected');
  });
});

describe('GET /api/client/streaming past the stream limit, all at once', () => {
  it('holds exactly the limit when more streams open at once, and asks the rest to poll', async () => {
    const burst = await startTestApp({ clientStreamsLimit: 2 });
    const token = await newApiToken(burst, { type: 'client', environment: 'development' });
    // A change just before: every stream waits for the same fresh read of the flags, then all go on together.
    await fixtures(() => burst, unique).createFlag('default', unique('burst'));

    const streams = await Promise.all(Array.from({ length: 6 }, () => stream(token, {}, burst)));
    const firsts = (await Promise.all(streams.map((s) => s.next()))).map((e) => e.event);
    expect(firsts.filter((e) => e === 'unleash-connected')).toHaveLength(2);
    expect(firsts.filter((e) => e === 'fetch-mode')).toHaveLength(4);
    expect(await openStreamsOn(burst)).toBe(2);
  });
});

describe('GET /api/client/streaming at shutdown', () => {
  it('sends fetch-mode polling to every open stream and ends it', async () => {
    const stopping = await startTestApp();
    const token = await newApiToken(stopping, { type: 'client', environment: 'development' });
    const streams = [await stream(token, {}, stopping), await stream(token, {}, stopping)];
    for (const s of streams) expect((await s.next()).event).toBe('unleash-connected');

    await stopping.close();
    for (const s of streams) {
      expect(await s.next()).toEqual({ event: 'fetch-mode', id: undefined, data: 'polling' });
      await s.end();
      expect(s.events).toHaveLength(2);
    }
  });
});
