// Importing a state document: version 1 as a JSON body (where it goes, its events, SDKs seeing it), as a
// multipart file of JSON or YAML, who may import, and the content types and sizes the operation takes.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok } from './support/fixtures.js';
import { expectNothingWritten, importDocument, importForm } from './support/state.js';
import { clientAs, userWithSession } from './support/users.js';

let app: TestApp;
const unique = uniqueNames();
const events = eventReader(() => app);
const { flagEnvironment, flagOf } = fixtures(() => app, unique);

/** A gradual rollout to Europe, as a version 1 flag has it. */
const euRollout = (groupId: string) => ({
  name: 'flexibleRollout',
  parameters: { rollout: '25', stickiness: 'default', groupId },
  constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'], inverted: false, caseInsensitive: false }],
});

beforeAll(async () => {
  app = await startTestApp();
});

describe('a version 1 document as the JSON body', () => {
  it('answers 202 and creates its flags with their enabled state, strategies and variants in development', async () => {
    const [on, off] = [unique('on'), unique('off')];
    const variants = [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }];
    const { data, response } = await importDocument(app, {
      version: 1,
      features: [
        { name: on, description: 'Imported', type: 'experiment', enabled: true, strategies: [euRollout(on)], variants },
        { name: off, enabled: false },
      ],
    });
    expect(response.status).toBe(202);
    expect([data, response.headers.get('content-length')]).toEqual([undefined, '0']);
    expect(await flagOf(on)).toMatchObject({ name: on, description: 'Imported', type: 'experiment', project: 'default' });
    const development = await flagEnvironment(on);
    expect(development).toMatchObject({ enabled: true, variants });
    expect(development.strategies).toMatchObject([euRollout(on)]);
    expect(await flagEnvironment(off)).toMatchObject({ enabled: false, strategies: [], variants: [] });
  });

  it('puts the flags in the environment the query names, and nothing in development', async () => {
    const name = unique('production');
    await ok(importDocument(app, { version: 1, features: [{ name, enabled: true, strategies: [{ name: 'default' }] }] }, { environment: 'production' }), 202);
    const production = await flagEnvironment(name, 'production');
    expect(production.enabled).toBe(true);
    expect(production.strategies.map((s) => s.name)).toEqual(['default']);
    expect(await flagEnvironment(name, 'development')).toMatchObject({ enabled: false, strategies: [] });
  });

  it('adds its custom strategy definitions', async () => {
    const name = unique('cohort');
    const parameters = [{ name: 'cohort', type: 'string', description: 'Which cohort', required: true }];
    await ok(importDocument(app, { version: 1, strategies: [{ name, description: 'Cohorts', parameters }] }), 202);
    const definition = await app.admin.GET('/api/admin/strategies/{strategyName}', { params: { path: { strategyName: name } } });
    expect(definition.data).toMatchObject({ name, description: 'Cohorts', parameters, editable: true });
  });

  it('lets a flag use a strategy definition of the same document', async () => {
    const [definition, flag] = [unique('definition'), unique('user-of-definition')];
    const document = { version: 1 as const, features: [{ name: flag, enabled: true, strategies: [{ name: definition, parameters: { cohort: 'a' } }] }], strategies: [{ name: definition }] };
    await ok(importDocument(app, document), 202);
    expect((await flagEnvironment(flag)).strategies.map((s) => s.name)).toEqual([definition]);
  });

  it('shows the imported flags to SDKs at once', async () => {
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    const sdk = app.clientWith(token);
    const before = await sdk.GET('/api/client/features');
    const name = unique('seen');
    await ok(importDocument(app, { version: 1, features: [{ name, enabled: true, strategies: [{ name: 'default' }] }] }), 202);
    const after = await sdk.GET('/api/client/features', { headers: { 'if-none-match': String(before.response.headers.get('etag')) } });
    expect(after.response.status).toBe(200);
    expect(after.data!.features.find((f) => f.name === name)).toMatchObject({ name, enabled: true, strategies: [{ name: 'default' }] });
  });

  it('records feature-import for each flag, with its name and project, and strategy-import for each definition', async () => {
    const [first, second, definition] = [unique('event'), unique('event'), unique('event-definition')];
    const since = await events.latestEventId();
    await ok(importDocument(app, { version: 1, features: [{ name: first }, { name: second }], strategies: [{ name: definition }] }), 202);
    const written = await events.eventsSince(since);
    expect(written.filter((e) => e.type === 'feature-import').map((e) => [e.featureName, e.project])).toEqual([
      [first, 'default'],
      [second, 'default'],
    ]);
    expect(written.filter((e) => e.type === 'strategy-import').map((e) => (e.data as { name: string }).name)).toEqual([definition]);
  });

  it('reads booleans written 1 and 0', async () => {
    const name = unique('numeric');
    await ok(importDocument(app, { version: 1, features: [{ name, enabled: 1, stale: 0, impressionData: 1 }] }), 202);
    expect(await flagOf(name)).toMatchObject({ stale: false, impressionData: true });
    expect((await flagEnvironment(name)).enabled).toBe(true);
  });

  it('reads a document without a version as version 1', async () => {
    const name = unique('unversioned');
    await ok(importDocument(app, { features: [{ name, enabled: true }] }), 202);
    expect((await flagEnvironment(name)).enabled).toBe(true);
  });
});

describe('a multipart form', () => {
  it('imports a JSON file', async () => {
    const name = unique('json-file');
    const response = await importForm(app, { file: { content: JSON.stringify({ version: 1, features: [{ name, enabled: true }] }), filename: 'state.json' } });
    expect(response.status, response.text).toBe(202);
    expect((await flagEnvironment(name)).enabled).toBe(true);
  });

  it('imports a YAML file', async () => {
    const name = unique('yaml-file');
    const yaml = [
      'version: 1',
      'features:',
      `  - name: ${name}`,
      '    enabled: true',
      '    strategies:',
      '      - name: flexibleRollout',
      '        parameters: { rollout: "25", stickiness: default, groupId: g }',
      'strategies: []',
      '',
    ].join('\n');
    const response = await importForm(app, { file: { content: yaml, filename: 'state.yml' } });
    expect(response.status, response.text).toBe(202);
    const development = await flagEnvironment(name);
    expect(development.enabled).toBe(true);
    expect(development.strategies).toMatchObject([{ name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'default', groupId: 'g' } }]);
  });

  it('tells JSON from YAML by content, not by the file name', async () => {
    const name = unique('misnamed');
    const response = await importForm(app, { file: { content: `version: 1\nfeatures:\n  - name: ${name}\n`, filename: 'state.json' } });
    expect(response.status, response.text).toBe(202);
    expect((await flagOf(name)).name).toBe(name);
  });

  it('reads a file without a version as version 1', async () => {
    const name = unique('unversioned-file');
    const response = await importForm(app, { file: { content: JSON.stringify({ features: [{ name, enabled: 1 }] }), filename: 'old.json' } });
    expect(response.status, response.text).toBe(202);
    expect((await flagEnvironment(name)).enabled).toBe(true);
  });

  it('refuses a file that is neither JSON nor YAML, naming file, and writes nothing', async () => {
    const response = await expectNothingWritten(app, events, () => importForm(app, { file: { content: '{ "version": 1, features: [ {', filename: 'state.json' } }));
    expect(expectError(response, 400, 'ValidationError').message).toMatch(/^file: /);
  });

  it('refuses a file that is not a document, naming file', async () => {
    const response = await importForm(app, { file: { content: 'just some words', filename: 'notes.txt' } });
    expect(expectError(response, 400, 'ValidationError').message).toMatch(/^file: /);
  });

  it('refuses a YAML file whose aliases would expand without bound, naming file', async () => {
    const levels = 'abcdefghij';
    const lines = [`a: &a [x, x, x, x, x, x, x, x, x]`, ...[...levels.slice(1)].map((name, i) => `${name}: &${name} [${Array(9).fill(`*${levels[i]}`).join(', ')}]`)];
    const response = await importForm(app, { file: { content: lines.join('\n'), filename: 'laughs.yml' } });
    expect(expectError(response, 400, 'ValidationError').message).toMatch(/^file: /);
  });

  it('refuses a form without a file field, naming file', async () => {
    const response = await expectNothingWritten(app, events, () => importForm(app, { document: JSON.stringify({ version: 1 }) }));
    expect(expectError(response, 400, 'ValidationError').message).toMatch(/^file: /);
  });

  it('refuses an empty form, naming file', async () => {
    const response = await expectNothingWritten(app, events, () => importForm(app, {}));
    expect(expectError(response, 400, 'ValidationError').message).toMatch(/^file: /);
  });

  it('refuses a JSON file with a NUL character in a text, naming its place, and writes nothing', async () => {
    const content = JSON.stringify({ version: 1, features: [{ name: unique('nul'), description: 'a\u0000b' }] });
    const response = await expectNothingWritten(app, events, () => importForm(app, { file: { content, filename: 'state.json' } }));
    expect(expectError(response, 400, 'ValidationError').message).toContain('file.features.0.description');
  });

  it('refuses a YAML file with a lone surrogate in a text, naming its place, and writes nothing', async () => {
    const content = `version: 1\nfeatures:\n  - name: ${unique('surrogate')}\n    description: "a\\ud800b"\n`;
    const response = await expectNothingWritten(app, events, () => importForm(app, { file: { content, filename: 'state.yml' } }));
    expect(expectError(response, 400, 'ValidationError').message).toContain('file.features.0.description');
  });

  it('refuses a multipart content type without a boundary with 400', async () => {
    const response = await call(app, 'POST', '/api/admin/state/import', { body: '{"version":2}', contentType: 'multipart/form-data' });
    expect(expectError(response, 400, 'ValidationError').message).toMatch(/multipart/);
  });

  it('refuses a multipart body that ends before its closing boundary with 400', async () => {
    const part = '--b1\r\nContent-Disposition: form-data; name="file"; filename="s.json"\r\n\r\n{"version":1}';
    const response = await call(app, 'POST', '/api/admin/state/import', { body: part, contentType: 'multipart/form-data; boundary=b1' });
    expect(expectError(response, 400, 'ValidationError').message).toMatch(/multipart/);
  });
});

describe('content types and sizes', () => {
  it('answers 415 for a text/plain body', async () => {
    const response = await call(app, 'POST', '/api/admin/state/import', { body: 'version: 1', contentType: 'text/plain' });
    expectError(response, 415, 'ContentTypeerror');
  });

  it('accepts a JSON body over 1 MB', async () => {
    const description = 'x'.repeat(1000);
    const names = Array.from({ length: 2100 }, (_, i) => `large-${i}`);
    const document = { version: 1 as const, features: names.map((name) => ({ name, description })) };
    expect(JSON.stringify(document).length).toBeGreaterThan(2 * 1024 * 1024);
    await ok(importDocument(app, document), 202);
    expect((await flagOf('large-2099')).description).toBe(description);
  });
  it('answers 413 for a JSON body over 50 MB, and writes nothing', async () => {
    const name = unique('too-large');
    const body = JSON.stringify({ version: 1, features: [{ name }] }) + ' '.repeat(50 * 1024 * 1024);
    const response = await expectNothingWritten(app, events, () => call(app, 'POST', '/api/admin/state/import', { body }));
    expectError(response, 413, 'PayloadTooLargeError');
  });

  it('answers 413 for a file over 50 MB', async () => {
    const content = JSON.stringify({ version: 1, features: [{ name: unique('too-large') }] }) + ' '.repeat(50 * 1024 * 1024);
    expectError(await importForm(app, { file: { content, filename: 'large.json' } }), 413, 'PayloadTooLargeError');
  });
});

describe('who may import', () => {
  it('refuses a Viewer, and writes nothing', async () => {
    const viewer = await userWithSession(app, 'Viewer');
    const name = unique('by-viewer');
    const response = await expectNothingWritten(app, events, () => importDocument(app, { version: 1, features: [{ name }] }, {}, clientAs(app, viewer)));
    expectError(response, 403, 'NoAccessError');
  });

  it('refuses a client token', async () => {
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    expectError(await app.clientWith(token).POST('/api/admin/state/import', { body: { version: 1 } }), 403, 'NoAccessError');
  });

  it('answers 401 without a credential', async () => {
    expectError(await app.clientWith().POST('/api/admin/state/import', { body: { version: 1 } }), 401, 'AuthenticationRequired');
  });
});
