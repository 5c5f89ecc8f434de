// What an import does with what already exists: `keep` (the default) leaves it, `keep=false` replaces it,
// `drop=true` removes every flag, custom strategy definition and segment first; and version 2's segments, whose
// ids are kept.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures, ok } from './support/fixtures.js';
import { completeState, expectNothingWritten, importDocument } from './support/state.js';

let app: TestApp;
const unique = uniqueNames();
const events = eventReader(() => app);
const { newFlag, newProject, flagEnvironment, flagOf, addStrategy, turnOn, archiveFlag, createSegment } = fixtures(() => app, unique);

/** A custom strategy definition described `Before` (by admin token). */
const definitionBefore = (on: TestApp, name: string) => ok(on.admin.POST('/api/admin/strategies', { body: { name, description: 'Before', parameters: [] } }));
const definitionOf = (strategyName: string) => ok(app.admin.GET('/api/admin/strategies/{strategyName}', { params: { path: { strategyName } } }), 200);
const archivedIn = (on: TestApp, projectId: string) => ok(on.admin.GET('/api/admin/archive/features/{projectId}', { params: { path: { projectId } } }), 200);
const segmentsOf = (on: TestApp) => ok(on.admin.GET('/api/admin/segments'), 200);
const segmentOf = (segmentId: number) => ok(app.admin.GET('/api/admin/segments/{segmentId}', { params: { path: { segmentId } } }), 200);

/** A flag described `Before`, on in development with the default strategy, and with one in production. */
async function existingFlag() {
  const name = await newFlag('existing', 'default', { description: 'Before' });
  await addStrategy(name);
  await turnOn(name);
  await addStrategy(name, { name: 'default' }, 'production');
  return name;
}

/** The same flag as the document would have it: described `After`, off, with a remoteAddress strategy. */
const replacement = (name: string) => ({ name, description: 'After', enabled: false, strategies: [{ name: 'remoteAddress', parameters: { IPs: '10.0.0.1' } }] });

const strategyNames = async (name: string, environment = 'development') => (await flagEnvironment(name, environment)).strategies.map((s) => s.name);

beforeAll(async () => {
  app = await startTestApp();
});

describe('keep (the default)', () => {
  it('leaves an existing flag as it is and adds the missing ones', async () => {
    const [existing, added] = [await existingFlag(), unique('added')];
    await ok(importDocument(app, { version: 1, features: [replacement(existing), { name: added, enabled: true }] }), 202);
    expect((await flagOf(existing)).description).toBe('Before');
    expect(await flagEnvironment(existing)).toMatchObject({ enabled: true, strategies: [{ name: 'default' }] });
    expect((await flagEnvironment(added)).enabled).toBe(true);
  });

  it('records feature-import only for the flags it added', async () => {
    const [existing, added] = [await existingFlag(), unique('added')];
    const since = await events.latestEventId();
    await ok(importDocument(app, { version: 1, features: [replacement(existing), { name: added }] }, { keep: 'true' }), 202);
    expect((await events.eventsSince(since)).map((e) => [e.type, e.featureName])).toEqual([['feature-import', added]]);
  });

  it('leaves an existing custom strategy definition as it is', async () => {
    const name = unique('definition');
    await definitionBefore(app, name);
    await ok(importDocument(app, { version: 1, strategies: [{ name, description: 'After' }] }), 202);
    expect((await definitionOf(name)).description).toBe('Before');
  });
});

describe('keep=false', () => {
  it("leaves a flag's project where it is when a version 1 document does not name one", async () => {
    const project = await newProject('elsewhere');
    const name = await newFlag('moved-not', project);
    await ok(importDocument(app, { version: 1, features: [{ name, description: 'After' }] }, { keep: 'false' }), 202);
    expect(await flagOf(name, project)).toMatchObject({ project, description: 'After' });
  });

  it('leaves an archived flag archived when a version 1 document replaces it', async () => {
    const name = await newFlag('archived');
    await archiveFlag('default', name);
    await ok(importDocument(app, { version: 1, features: [{ name, description: 'After' }] }, { keep: 'false' }), 202);
    const archive = await archivedIn(app, 'default');
    expect(archive.features.find((f) => f.name === name)).toMatchObject({ description: 'After' });
  });

  it("replaces an existing flag's description, state and strategies in the environment of the document", async () => {
    const existing = await existingFlag();
    await ok(importDocument(app, { version: 1, features: [replacement(existing)] }, { keep: 'false' }), 202);
    expect((await flagOf(existing)).description).toBe('After');
    expect(await flagEnvironment(existing)).toMatchObject({ enabled: false, strategies: [{ name: 'remoteAddress', parameters: { IPs: '10.0.0.1' } }] });
  });

  it('leaves the environments the document does not name as they are', async () => {
    const existing = await existingFlag();
    await ok(importDocument(app, { version: 1, features: [replacement(existing)] }, { keep: 'false' }), 202);
    expect(await strategyNames(existing, 'production')).toEqual(['default']);
  });

  it('replaces an existing custom strategy definition', async () => {
    const name = unique('definition');
    await definitionBefore(app, name);
    await ok(importDocument(app, { version: 1, strategies: [{ name, description: 'After' }] }, { keep: 'false' }), 202);
    expect((await definitionOf(name)).description).toBe('After');
  });
});

describe('drop=true', () => {
  // drop removes every flag of the instance: an instance (and, on PostgreSQL, a database) of its own.
  let dropped: TestApp;
  let since: number;
  let segmentId: number;
  const on = fixtures(() => dropped, unique);

  beforeAll(async () => {
    dropped = await startTestApp({ ownDatabase: true });
    await ok(dropped.admin.POST('/api/admin/strategies', { body: { name: 'old-definition', parameters: [] } }));
    segmentId = (await on.createSegment({ name: 'old-segment' })).id;
    await on.createFlag('default', 'old-active');
    await on.addStrategy('old-active', { name: 'default', segments: [segmentId] });
    await on.createFlag('default', 'old-archived');
    await on.archiveFlag('default', 'old-archived');
    since = await eventReader(() => dropped).latestEventId();
    const document = { version: 1 as const, features: [{ name: 'new-flag', enabled: true }], strategies: [{ name: 'new-definition' }] };
    await ok(importDocument(dropped, document, { drop: 'true' }), 202);
  });

  it("removes every flag not in the document, archived ones too, and keeps the document's", async () => {
    const { features } = (await completeState(dropped)) as { features: { name: string }[] };
    expect(features.map((f) => f.name)).toEqual(['new-flag']);
    expect((await archivedIn(dropped, 'default')).features).toEqual([]);
  });

  it("removes every custom strategy definition not in the document, and keeps the built-in ones", async () => {
    const { strategies } = await ok(dropped.admin.GET('/api/admin/strategies'), 200);
    const custom = strategies.filter((s) => s.editable).map((s) => s.name);
    expect(custom).toEqual(['new-definition']);
    expect(strategies.map((s) => s.name)).toContain('flexibleRollout');
  });

  it('removes every segment', async () => {
    expect((await segmentsOf(dropped)).segments).toEqual([]);
  });

  it('records drop-features and drop-strategies before the imports', async () => {
    const types = (await eventReader(() => dropped).eventsSince(since)).map((e) => e.type);
    expect(types).toEqual(['drop-features', 'drop-strategies', 'strategy-import', 'feature-import']);
  });
});

describe('version 2 segments', () => {
  const document = (segments: unknown[], features: unknown[] = []) => ({ version: 2 as const, segments, features });
  const europe = [{ contextName: 'region', operator: 'IN', values: ['eu'] }];

  /** A segment id above any the instance has given, so that the import chooses it. */
  const freeId = async () => Math.max(0, ...(await segmentsOf(app)).segments.map((s) => s.id)) + 100;

  it('keeps the ids of imported segments, and the strategies that use them name them', async () => {
    const [id, segment, flag] = [await freeId(), unique('segment'), unique('segmented')];
    const strategies = [{ name: 'default', segments: [id] }];
    await ok(importDocument(app, document([{ id, name: segment, constraints: europe }], [{ name: flag, project: 'default', environments: [{ name: 'development', enabled: true, strategies }] }])), 202);
    expect(await segmentOf(id)).toMatchObject({ id, name: segment, constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] });
    expect((await flagEnvironment(flag)).strategies).toMatchObject([{ name: 'default', segments: [id] }]);
  });

  it('refuses a segment whose name another segment has, naming it, and writes nothing', async () => {
    const taken = await createSegment({ name: unique('taken') });
    const id = await freeId();
    const response = await expectNothingWritten(app, events, () => importDocument(app, document([{ id: id + 1, name: unique('fine') }, { id, name: taken.name }])));
    expect(expectError(response, 400, 'ValidationError').message).toMatch(/^body\.segments\[1\]\.name: /);
  });

  it('leaves a segment with an existing id as it is with keep', async () => {
    const existing = await createSegment({ name: unique('kept'), description: 'Before' });
    await ok(importDocument(app, document([{ id: existing.id, name: existing.name, description: 'After', constraints: europe }])), 202);
    expect(await segmentOf(existing.id)).toMatchObject({ name: existing.name, description: 'Before', constraints: [] });
  });

  it('replaces a segment with an existing id with keep=false', async () => {
    const existing = await createSegment({ name: unique('replaced'), description: 'Before' });
    const renamed = unique('renamed');
    await ok(importDocument(app, document([{ id: existing.id, name: renamed, description: 'After', constraints: europe }]), { keep: 'false' }), 202);
    expect(await segmentOf(existing.id)).toMatchObject({ name: renamed, description: 'After', constraints: [{ contextName: 'region' }] });
  });
});
