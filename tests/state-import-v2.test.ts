// A version 2 document's parts, each imported on its own and read back through the complete export and the
// event log: environments, projects, context fields, tag types and tags with their defaults, and flags with
// several environments, tags, parents, lifecycle and archiving — new ones whole, existing ones replaced where the
// document speaks.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures, flagPath, ok } from './support/fixtures.js';
import { completeState, importDocument } from './support/state.js';

type StateV2 = components['schemas']['StateV2'];
type Parts = Omit<StateV2, 'version'>;

let app: TestApp;
const unique = uniqueNames();
const events = eventReader(() => app);
const { newFlag, newProject, flagOf, flagEnvironment, tagFlag, addDependency, turnOn } = fixtures(() => app, unique);

/** Imports the parts as a version 2 document (202), answering the events it recorded. */
async function imported(parts: Parts, keep = true) {
  const since = await events.latestEventId();
  await ok(importDocument(app, { version: 2, ...parts }, { keep: keep ? 'true' : 'false' }), 202);
  return events.eventsSince(since);
}

const exported = async () => (await completeState(app)) as Required<StateV2>;
const lifecycleOf = async (featureName: string, projectId = 'default') =>
  (await ok(app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}/lifecycle', { params: { path: flagPath(featureName, projectId) } }), 200)).map((stage) => stage.stage);

beforeAll(async () => {
  app = await startTestApp();
});

describe('environments', () => {
  it('adds one with its defaults (enabled, sort order 9999), used by every project, and records environment-import', async () => {
    const [name, project] = [unique('qa'), await newProject('before-qa')];
    const written = await imported({ environments: [{ name, type: 'test' }] });
    expect((await exported()).environments.find((e) => e.name === name)).toEqual({ name, type: 'test', enabled: true, sortOrder: 9999 });
    const projects = (await exported()).projects;
    expect(projects.find((p) => p.id === project)!.environments).toContain(name);
    expect(projects.find((p) => p.id === 'default')!.environments).toContain(name);
    expect(written.map((e) => [e.type, e.environment])).toEqual([['environment-import', name]]);
  });

  it('leaves an existing one as it is', async () => {
    const before = (await exported()).environments.find((e) => e.name === 'development');
    expect(await imported({ environments: [{ name: 'development', type: 'production', enabled: false, sortOrder: 1 }] })).toEqual([]);
    expect((await exported()).environments.find((e) => e.name === 'development')).toEqual(before);
  });
});

describe('projects', () => {
  it('adds one with its defaults and the enabled environments, and records project-import', async () => {
    const id = unique('imported-project');
    const written = await imported({ projects: [{ id, name: 'Imported' }] });
    const project = (await exported()).projects.find((p) => p.id === id);
    expect(project).toMatchObject({ id, name: 'Imported', mode: 'open', defaultStickiness: 'default' });
    expect(project!.environments).toEqual(expect.arrayContaining(['development', 'production']));
    expect(written.map((e) => [e.type, e.project])).toEqual([['project-import', id]]);
  });

  it('adds one with only the environments it lists', async () => {
    const id = unique('production-project');
    await imported({ projects: [{ id, name: 'Only production', description: 'Prod', mode: 'protected', defaultStickiness: 'userId', environments: ['production'] }] });
    expect((await exported()).projects.find((p) => p.id === id)).toEqual({ id, name: 'Only production', description: 'Prod', mode: 'protected', defaultStickiness: 'userId', environments: ['production'] });
  });

  it('keeps an existing one as it is, but lets it use the environments listed', async () => {
    const id = await newProject('existing', ['production']);
    const before = (await exported()).projects.find((p) => p.id === id)!;
    expect(await imported({ projects: [{ id, name: 'Renamed', environments: ['development'] }] })).toEqual([]);
    expect((await exported()).projects.find((p) => p.id === id)).toEqual({ ...before, environments: expect.arrayContaining(['development', 'production']) });
  });
});

describe('context fields, tag types and tags', () => {
  it('adds a context field with its defaults, and records context-field-created', async () => {
    const name = unique('tier');
    const written = await imported({ contextFields: [{ name }] });
    expect((await exported()).contextFields.find((f) => f.name === name)).toMatchObject({ name, stickiness: false, sortOrder: 10, legalValues: [] });
    expect(written.map((e) => [e.type, (e.data as { name: string }).name])).toEqual([['context-field-created', name]]);
  });

  it('leaves an existing context field as it is, recording nothing', async () => {
    const name = unique('existing-field');
    await ok(app.admin.POST('/api/admin/context', { body: { name, description: 'Before' } }));
    expect(await imported({ contextFields: [{ name, description: 'After', stickiness: true }] })).toEqual([]);
    expect((await exported()).contextFields.find((f) => f.name === name)).toMatchObject({ description: 'Before', stickiness: false });
  });

  it('adds a tag type and its tags, recording tag-type-import and tag-import; a tag that exists is recorded once', async () => {
    const type = unique('squad');
    const written = await imported({ tagTypes: [{ name: type, description: 'Squads', color: '#ff0000' }], tags: [{ type, value: 'red' }, { type, value: 'blue' }] });
    expect((await exported()).tagTypes.find((tt) => tt.name === type)).toMatchObject({ name: type, description: 'Squads', color: '#ff0000' });
    expect((await exported()).tags.filter((tag) => tag.type === type).map((tag) => tag.value).sort()).toEqual(['blue', 'red']);
    expect(written.map((e) => e.type)).toEqual(['tag-type-import', 'tag-import', 'tag-import']);
    expect(await imported({ tagTypes: [{ name: type }], tags: [{ type, value: 'red' }] })).toEqual([]);
  });
});

describe('flags', () => {
  it('adds one in every environment of its project, on where the document says, with its strategies, variants, tags and parent', async () => {
    const [project, parent, child] = [await newProject('flags', ['development', 'production']), unique('parent'), unique('child')];
    const variants = [{ name: 'blue', weight: 1000, weightType: 'variable' as const, stickiness: 'default' }];
    const strategy = { id: crypto.randomUUID(), name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: child }, constraints: [], sortOrder: 0 };
    await imported({
      tagTypes: [{ name: 'simple' }],
      features: [
        { name: parent, project, environments: [{ name: 'production', enabled: true }] },
        {
          name: child,
          project,
          type: 'experiment',
          description: 'Imported',
          impressionData: true,
          stale: true,
          tags: [{ type: 'simple', value: 'imported' }],
          dependencies: [{ feature: parent, enabled: true, variants: ['on'] }],
          environments: [{ name: 'production', enabled: true, variants, strategies: [strategy] }],
        },
      ],
    });
    const flag = (await exported()).features.find((f) => f.name === child)!;
    expect(flag).toMatchObject({ project, type: 'experiment', description: 'Imported', impressionData: true, stale: true, archivedAt: null });
    expect(flag.tags).toEqual([{ type: 'simple', value: 'imported' }]);
    expect(flag.dependencies).toEqual([{ feature: parent, enabled: true, variants: ['on'] }]);
    expect(flag.environments!.map((e) => [e.name, e.enabled])).toEqual([['development', false], ['production', true]]);
    expect(flag.environments!.find((e) => e.name === 'production')).toMatchObject({ variants, strategies: [{ id: strategy.id, name: 'flexibleRollout', parameters: strategy.parameters }] });
  });

  it('gives a new flag on in production the lifecycle initial then live, and one on elsewhere pre-live', async () => {
    const [live, preLive, initial] = [unique('live'), unique('pre-live'), unique('initial')];
    await imported({
      features: [
        { name: live, project: 'default', environments: [{ name: 'production', enabled: true }] },
        { name: preLive, project: 'default', environments: [{ name: 'development', enabled: true }] },
        { name: initial, project: 'default' },
      ],
    });
    expect(await lifecycleOf(live)).toEqual(['initial', 'live']);
    expect(await lifecycleOf(preLive)).toEqual(['initial', 'pre-live']);
    expect(await lifecycleOf(initial)).toEqual(['initial']);
  });

  it('keeps the creation and archiving times the document gives', async () => {
    const name = unique('archived');
    const [createdAt, archivedAt] = ['2024-01-02T03:04:05.000Z', '2024-02-03T04:05:06.000Z'];
    await imported({ features: [{ name, project: 'default', createdAt, archivedAt }] });
    expect((await exported()).features.find((f) => f.name === name)).toMatchObject({ createdAt, archivedAt });
  });

  it("reads Unleash's older type name killswitch as kill-switch", async () => {
    const name = unique('typed');
    await imported({ features: [{ name, project: 'default', type: 'killswitch' }] });
    expect((await flagOf(name)).type).toBe('kill-switch');
  });

  it('replaces an existing flag with keep=false in the environments it lists only, and its tags and parents when it gives them', async () => {
    const [name, other] = [await newFlag('replaced', 'default', { description: 'Before' }), await newFlag('former-parent')];
    await tagFlag(name, 'before');
    await addDependency(name, other);
    await turnOn(name, 'production');
    await imported({ features: [{ name, project: 'default', description: 'After', tags: [{ type: 'simple', value: 'after' }], dependencies: [], environments: [{ name: 'development', enabled: true }] }] }, false);
    const flag = (await exported()).features.find((f) => f.name === name)!;
    expect(flag).toMatchObject({ description: 'After', tags: [{ type: 'simple', value: 'after' }], dependencies: [] });
    expect((await flagEnvironment(name, 'development')).enabled).toBe(true);
    expect((await flagEnvironment(name, 'production')).enabled).toBe(true);
  });

  it('keeps an existing flag’s tags and parents when the replacing document gives none', async () => {
    const [name, parent] = [await newFlag('keeps-tags'), await newFlag('kept-parent')];
    await tagFlag(name, 'kept');
    await addDependency(name, parent);
    await imported({ features: [{ name, project: 'default', description: 'After' }] }, false);
    expect((await exported()).features.find((f) => f.name === name)).toMatchObject({ description: 'After', tags: [{ type: 'simple', value: 'kept' }], dependencies: [{ feature: parent }] });
  });
});
