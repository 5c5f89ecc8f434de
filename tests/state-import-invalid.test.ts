// An invalid document is refused whole: 400 naming the first bad place, and nothing written — not even the
// valid flag before the bad one, nor the environments, projects, definitions and segments the document adds.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { expectNothingWritten, importMalformed } from './support/state.js';

let app: TestApp;
const unique = uniqueNames();
const events = eventReader(() => app);

/** A valid flag the document has before the bad one. */
let first: string;
const v1 = (bad: object) => ({ version: 1, features: [{ name: first, enabled: true }, bad] });
const v2 = (bad: object) => ({ version: 2, features: [{ name: first, project: 'default', environments: [{ name: 'development', enabled: true }] }, bad] });

/** Imports the document, expecting a 400 that changes nothing and leaves the first flag uncreated; answers the message. */
async function refused(document: object, query = ''): Promise<string> {
  const response = await expectNothingWritten(app, events, () => importMalformed(app, document, query));
  const { message } = expectError(response, 400, 'ValidationError');
  const flag = await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: 'default', featureName: first } } });
  expect(flag.response.status).toBe(404);
  return message;
}

beforeAll(async () => {
  app = await startTestApp();
  const project = await app.admin.POST('/api/admin/projects', { body: { id: 'production-only', name: 'Production only', environments: ['production'] } });
  expect(project.response.status, JSON.stringify(project.error)).toBe(201);
  const tagType = await app.admin.POST('/api/admin/tag-types', { body: { name: 'team' } });
  expect(tagType.response.status, JSON.stringify(tagType.error)).toBe(201);
});

describe('a document against its schema', () => {
  beforeAll(() => {
    first = unique('first');
  });

  it('refuses a flag without a name, naming the flag', async () => {
    expect(await refused(v1({ enabled: true }))).toBe('body.features.1 is missing the required field "name"');
  });

  it('refuses an unknown field in version 2, naming it', async () => {
    expect(await refused(v2({ name: unique('flag'), project: 'default', colour: 'red' }))).toBe('body.features.1 has the unknown field "colour"');
  });

  it('refuses a version it does not know', async () => {
    expect(await refused({ version: 3, features: [{ name: first }] })).toBe('body.version must be one of 1, 2');
  });

  it('refuses a version 2 field in a version 1 document', async () => {
    expect(await refused({ ...v1({ name: unique('flag') }), segments: [] })).toBe('body has the unknown field "segments"');
  });

  it('refuses a boolean written 2, naming it', async () => {
    expect(await refused(v1({ name: unique('flag'), enabled: 2 }))).toMatch(/^body\.features\.1\.enabled /);
  });
});

describe('a document against the instance', () => {
  beforeAll(() => {
    first = unique('first');
  });

  it('refuses a flag in a project that does not exist, naming its project', async () => {
    expect(await refused(v1({ name: unique('flag'), project: 'nowhere' }))).toMatch(/^body\.features\[1\]\.project: .*"nowhere"/);
  });

  it('refuses a strategy no definition has, naming it', async () => {
    expect(await refused(v1({ name: unique('flag'), strategies: [{ name: 'nonexistent' }] }))).toMatch(/^body\.features\[1\]\.strategies\[0\]\.name: .*"nonexistent"/);
  });

  it('refuses a NUM_GT constraint whose value is not a number, naming the value', async () => {
    const strategies = [{ name: 'default', constraints: [{ contextName: 'age', operator: 'NUM_GT', value: 'abc' }] }];
    expect(await refused(v1({ name: unique('flag'), strategies }))).toMatch(/^body\.features\[1\]\.strategies\[0\]\.constraints\[0\]\.value: /);
  });

  it('refuses a rollout above 100, naming the parameter', async () => {
    const strategies = [{ name: 'flexibleRollout', parameters: { rollout: '150' } }];
    expect(await refused(v1({ name: unique('flag'), strategies }))).toMatch(/^body\.features\[1\]\.strategies\[0\]\.parameters\.rollout: /);
  });

  it('refuses a segment id that does not exist, naming the strategy segments', async () => {
    const environments = [{ name: 'development', strategies: [{ name: 'default', segments: [424242] }] }];
    expect(await refused(v2({ name: unique('flag'), project: 'default', environments }))).toMatch(/^body\.features\[1\]\.environments\[0\]\.strategies\[0\]\.segments: .*424242/);
  });

  it('refuses a tag of a tag type that does not exist, naming its type', async () => {
    expect(await refused(v2({ name: unique('flag'), project: 'default', tags: [{ type: 'nonexistent', value: 'web' }] }))).toMatch(/^body\.features\[1\]\.tags\[0\]\.type: /);
  });

  it('refuses a dependency on a flag that does not exist, naming the parent', async () => {
    expect(await refused(v2({ name: unique('flag'), project: 'default', dependencies: [{ feature: 'missing-parent' }] }))).toMatch(/^body\.features\[1\]\.dependencies\[0\]\.feature: .*"missing-parent"/);
  });

  it('refuses dependencies that form a cycle, naming the one that closes it', async () => {
    const [a, b] = [unique('cycle'), unique('cycle')];
    const document = { version: 2, features: [{ name: first, project: 'default' }, { name: a, project: 'default', dependencies: [{ feature: b }] }, { name: b, project: 'default', dependencies: [{ feature: a }] }] };
    expect(await refused(document)).toMatch(/^body\.features\[2\]\.dependencies\[0\]\.feature: .*cycle/);
  });

  it('refuses an environment the flag’s project does not use, naming it', async () => {
    const environments = [{ name: 'development', enabled: true }];
    expect(await refused(v2({ name: unique('flag'), project: 'production-only', environments }))).toMatch(/^body\.features\[1\]\.environments\[0\]\.name: .*"development"/);
  });

  it('refuses a version 1 flag whose project does not use the environment imported into, naming the flag', async () => {
    expect(await refused(v1({ name: unique('flag'), project: 'production-only' }))).toMatch(/^body\.features\[1\]/);
  });

  it('refuses the same flag twice, naming both places', async () => {
    expect(await refused(v1({ name: first }))).toBe(`body.features[1].name: the flag "${first}" is in the document twice, also at body.features[0].`);
  });

  it('refuses an environment to import into that does not exist, naming the query parameter', async () => {
    expect(await refused(v1({ name: unique('flag') }), 'environment=nowhere')).toMatch(/^environment: .*"nowhere"/);
  });

  it('refuses a flag type that does not exist, naming it', async () => {
    expect(await refused(v2({ name: unique('flag'), project: 'default', type: 'nonexistent' }))).toBe('body.features[1].type: "nonexistent" is not a flag type.');
  });

  it('refuses an environment listed twice for one flag, naming the second', async () => {
    const name = unique('flag');
    const environments = [{ name: 'development', enabled: true }, { name: 'development', enabled: false }];
    expect(await refused(v2({ name, project: 'default', environments }))).toBe(`body.features[1].environments[1].name: the environment "development" is listed twice for the flag "${name}".`);
  });

  it("refuses a segment of another project in a flag's strategy, naming it", async () => {
    const environments = [{ name: 'production', strategies: [{ name: 'default', segments: [9001] }] }];
    const document = { ...v2({ name: unique('flag'), project: 'default', environments }), segments: [{ id: 9001, name: unique('segment'), project: 'production-only' }] };
    expect(await refused(document)).toBe('body.features[1].environments[0].strategies[0].segments: the segment 9001 belongs to the project "production-only".');
  });

  it('refuses a parent that is archived, naming it', async () => {
    const [parent, child] = [unique('archived-parent'), unique('child')];
    const features = [{ name: first, project: 'default' }, { name: parent, project: 'default', archivedAt: '2024-01-01T00:00:00.000Z' }, { name: child, project: 'default', dependencies: [{ feature: parent }] }];
    expect(await refused({ version: 2, features })).toBe(`body.features[2].dependencies[0].feature: the parent flag "${parent}" is archived.`);
  });

  it('refuses a parent in another project, naming both', async () => {
    const [parent, child] = [unique('far-parent'), unique('child')];
    const features = [{ name: first, project: 'default' }, { name: parent, project: 'production-only' }, { name: child, project: 'default', dependencies: [{ feature: parent }] }];
    expect(await refused({ version: 2, features })).toBe(`body.features[2].dependencies[0].feature: the parent flag "${parent}" is in another project ("production-only").`);
  });

  it('refuses a project using an environment that does not exist, naming it', async () => {
    const document = { ...v2({ name: unique('flag'), project: 'default' }), projects: [{ id: unique('project'), name: 'P', environments: ['nowhere'] }] };
    expect(await refused(document)).toBe('body.projects[0].environments: no environment named "nowhere" exists.');
  });

  it('refuses a tag of a tag type that does not exist in the tags list, naming it', async () => {
    const document = { ...v2({ name: unique('flag'), project: 'default' }), tags: [{ type: 'nonexistent', value: 'web' }] };
    expect(await refused(document)).toBe('body.tags[0].type: no tag type named "nonexistent" exists.');
  });

  it('refuses a segment of a project that does not exist, naming its project', async () => {
    expect(await refused({ ...v2({ name: unique('flag'), project: 'default' }), segments: [{ id: 9000, name: unique('segment'), project: 'nowhere' }] })).toMatch(/^body\.segments\[0\]\.project: /);
  });

  it('writes none of the environments, projects, definitions, tag types, tags and segments before a bad flag', async () => {
    const environment = unique('env');
    const document = {
      version: 2,
      environments: [{ name: environment, type: 'test' }],
      projects: [{ id: unique('project'), name: 'Imported', environments: [environment] }],
      contextFields: [{ name: unique('context') }],
      strategies: [{ name: unique('definition') }],
      tagTypes: [{ name: unique('tag-type') }],
      tags: [{ type: 'team', value: unique('tag') }],
      segments: [{ id: 9001, name: unique('segment') }],
      features: [{ name: first, project: 'default', tags: [{ type: 'team', value: 'web' }] }, { name: unique('flag'), project: 'nowhere' }],
    };
    expect(await refused(document)).toMatch(/^body\.features\[1\]\.project: /);
  });
});

describe('a document that lists one thing twice', () => {
  beforeAll(() => {
    first = unique('first');
  });

  it('refuses two segments with one id, naming both places', async () => {
    const segments = [{ id: 9100, name: unique('segment') }, { id: 9101, name: unique('segment') }, { id: 9100, name: unique('segment') }];
    expect(await refused({ ...v2({ name: unique('flag'), project: 'default' }), segments })).toBe('body.segments[2].id: 9100 is also the id of body.segments[0].');
  });

  it.each([
    ['context fields', 'contextFields', (name: string) => ({ name })],
    ['environments', 'environments', (name: string) => ({ name, type: 'test' })],
    ['projects', 'projects', (name: string) => ({ id: name, name: 'Twice' })],
    ['strategy definitions', 'strategies', (name: string) => ({ name })],
    ['tag types', 'tagTypes', (name: string) => ({ name })],
  ])('refuses two %s with one name, naming both places', async (_label, list, item) => {
    const name = unique('twice');
    const key = list === 'projects' ? 'id' : 'name';
    const document = { ...v2({ name: unique('flag'), project: 'default' }), [list]: [item(name), item(unique('other')), item(name)] };
    expect(await refused(document)).toBe(`body.${list}[2].${key}: "${name}" is also the ${key} of body.${list}[0].`);
  });

  it('refuses two strategy definitions with one name in version 1, naming both places', async () => {
    const name = unique('twice');
    expect(await refused({ ...v1({ name: unique('flag') }), strategies: [{ name }, { name }] })).toBe(`body.strategies[1].name: "${name}" is also the name of body.strategies[0].`);
  });
});

describe('a document that would replace a built-in strategy', () => {
  beforeAll(() => {
    first = unique('first');
  });

  it.each(['default', 'flexibleRollout', 'remoteAddress', 'applicationHostname'])('refuses the definition of %s with keep=false, naming it', async (name) => {
    const document = { ...v1({ name: unique('flag') }), strategies: [{ name: unique('custom') }, { name, description: 'Replaced' }] };
    expect(await refused(document, 'keep=false')).toMatch(new RegExp(`^body\\.strategies\\[1\\]\\.name: "${name}" is built in`));
  });
});
