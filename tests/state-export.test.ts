// Exporting the instance's state: the interface's version 1 document of one environment (JSON or YAML, as a
// download), who may export it, and the complete version 2 document holding no secret.
import { parse as parseYaml } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components, operations } from '../generated/api.js';
import type { ServiceClient } from '../client/index.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { fixtures, newApiToken } from './support/fixtures.js';
import { uniqueNames } from './support/events.js';
import { importForm } from './support/state.js';
import { clientAs, userWithSession, USER_PASSWORD } from './support/users.js';

type StateV1 = components['schemas']['StateV1'];
type StateV2 = components['schemas']['StateV2'];
type ExportQuery = NonNullable<operations['exportState']['parameters']['query']>;

let app: TestApp;
const { createFlag, addStrategy, turnOn, archiveFlag, setVariants } = fixtures(() => app, uniqueNames());

const exportState = (query: ExportQuery = {}, client: ServiceClient = app.admin) => client.GET('/api/admin/state/export', { params: { query } });
/** The export as text, for YAML. */
const exportText = (query: ExportQuery) => app.admin.GET('/api/admin/state/export', { params: { query }, parseAs: 'text' });
const exportV1 = async (query: ExportQuery = {}) => (await exportState(query)).data as StateV1;
const exportV2 = async () => (await exportState({ version: 2 })).data as StateV2;

/** A custom strategy definition, a flag set up differently in development and production, and an archived flag. */
async function buildInstance() {
  const definition = await app.admin.POST('/api/admin/strategies', {
    body: { name: 'beta-users', description: 'Beta programme', parameters: [{ name: 'cohort', type: 'string', description: 'Which', required: true }] },
  });
  expect(definition.response.status, JSON.stringify(definition.error)).toBe(201);
  await createFlag('default', 'checkout', { description: 'New checkout', type: 'experiment', impressionData: true });
  await addStrategy('checkout', {
    name: 'flexibleRollout',
    parameters: { rollout: 50, stickiness: 'userId', groupId: 'checkout' },
    constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
  });
  await turnOn('checkout');
  await setVariants('checkout', [{ name: 'blue', weightType: 'variable' }]);
  await addStrategy('checkout', { name: 'beta-users', parameters: { cohort: 'a' } }, 'production');
  await setVariants(
    'checkout',
    [
      { name: 'red', weight: 300, weightType: 'fix' },
      { name: 'green', weightType: 'variable' },
    ],
    'production',
  );
  await createFlag('default', 'retired');
  await archiveFlag('default', 'retired');
}

beforeAll(async () => {
  app = await startTestApp();
  await buildInstance();
});

describe('the version 1 export', () => {
  it('answers the flags of development with their state, strategies and variants there, and the custom strategy definitions', async () => {
    const { data, response } = await exportState();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(data).toEqual({
      version: 1,
      features: [
        {
          name: 'checkout',
          description: 'New checkout',
          type: 'experiment',
          project: 'default',
          enabled: true,
          stale: false,
          impressionData: true,
          strategies: [
            {
              name: 'flexibleRollout',
              parameters: { rollout: '50', stickiness: 'userId', groupId: 'checkout' },
              constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'], inverted: false, caseInsensitive: false }],
            },
          ],
          variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
        },
      ],
      strategies: [{ name: 'beta-users', description: 'Beta programme', parameters: [{ name: 'cohort', type: 'string', description: 'Which', required: true }] }],
    });
  });

  it('leaves archived flags out', async () => {
    expect((await exportV1()).features!.map((f) => f.name)).not.toContain('retired');
  });

  it('answers the state, strategies and variants of the environment the query names', async () => {
    const [flag] = (await exportV1({ environment: 'production' })).features!;
    expect(flag).toMatchObject({
      name: 'checkout',
      enabled: false,
      strategies: [{ name: 'beta-users', parameters: { cohort: 'a' }, constraints: [] }],
      variants: [
        { name: 'red', weight: 300, weightType: 'fix' },
        { name: 'green', weight: 700, weightType: 'variable' },
      ],
    });
  });

  it('answers 404 for an environment that does not exist', async () => {
    const error = expectError(await exportState({ environment: 'nowhere' }), 404, 'NotFoundError');
    expect(error.message).toContain('nowhere');
  });

  it('leaves the flags out with featureToggles=false', async () => {
    expect(Object.keys(await exportV1({ featureToggles: 'false' })).sort()).toEqual(['strategies', 'version']);
  });

  it('leaves the strategy definitions out with strategies=0', async () => {
    expect(Object.keys(await exportV1({ strategies: '0' })).sort()).toEqual(['features', 'version']);
  });

  it('answers as an inline document without download', async () => {
    expect((await exportState()).response.headers.get('content-disposition')).toBeNull();
  });
});

describe('formats', () => {
  it('answers YAML that reads as the same document as the JSON export with format=yaml', async () => {
    const [yaml, json] = [await exportText({ format: 'yaml' }), await exportState()];
    expect(yaml.response.status).toBe(200);
    expect(yaml.response.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(yaml.data!.trimStart().startsWith('{')).toBe(false);
    expect(parseYaml(yaml.data!)).toEqual(json.data);
  });

  it('answers a JSON attachment named with the time with download=true', async () => {
    const { data, response } = await exportState({ download: 'true' });
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="export-\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.json"$/);
    expect(data!.version).toBe(1);
  });

  it('names a YAML attachment .yml', async () => {
    const { data, response } = await exportText({ format: 'yaml', download: '1' });
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="export-\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.yml"$/);
    expect(parseYaml(data!).version).toBe(1);
  });

  it('refuses a format it does not write, naming it', async () => {
    const error = expectError(await call(app, 'GET', '/api/admin/state/export?format=xml'), 400, 'ValidationError');
    expect(error.message).toContain('format');
  });

  it('refuses a version it does not have, naming it', async () => {
    const error = expectError(await call(app, 'GET', '/api/admin/state/export?version=3'), 400, 'ValidationError');
    expect(error.message).toContain('version');
  });

  it('refuses a yes/no parameter that is neither, naming it', async () => {
    const error = expectError(await call(app, 'GET', '/api/admin/state/export?download=maybe'), 400, 'ValidationError');
    expect(error.message).toContain('download');
  });
});

describe('who may export', () => {
  it('refuses a Viewer', async () => {
    const viewer = await userWithSession(app, 'Viewer');
    expectError(await exportState({}, clientAs(app, viewer)), 403, 'NoAccessError');
  });

  it('refuses a client token', async () => {
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    expectError(await exportState({}, app.clientWith(token)), 403, 'NoAccessError');
  });

  it('answers 401 without a credential', async () => {
    expectError(await exportState({}, app.clientWith()), 401, 'AuthenticationRequired');
  });
});

describe('the version 2 export', () => {
  it('holds no API token, user, password or integration secret', async () => {
    const clientToken = await newApiToken(app, { type: 'client', environment: 'production' });
    const adminToken = await newApiToken(app, { type: 'admin' });
    const user = await userWithSession(app, 'Editor', 'exported-user');
    const url = 'http://127.0.0.1:9/hooks/secret-path-4711';
    const addon = await app.admin.POST('/api/admin/addons', {
      body: { provider: 'webhook', enabled: true, events: ['feature-created'], parameters: { url, authorization: 'Bearer integration-secret-0815' } },
    });
    expect(addon.response.status, JSON.stringify(addon.error)).toBe(201);
    const { data, response } = await exportText({ version: 2 });
    expect(response.status).toBe(200);
    expect(JSON.parse(data!).version).toBe(2);
    for (const secret of [clientToken, adminToken, app.adminToken, user.email, USER_PASSWORD, url, 'secret-path-4711', 'integration-secret-0815']) {
      expect(data).not.toContain(secret);
    }
  });

  it('holds every flag, the archived one included', async () => {
    const { features } = await exportV2();
    const archived = Object.fromEntries(features!.map((f) => [f.name, f.archivedAt !== null]));
    expect(archived).toMatchObject({ checkout: false, retired: true });
  });

  it('answers YAML that an empty instance imports as the same document, strings that read as other YAML kept strings', async () => {
    const tricky = ['yes', 'null', '~', '0x1F', '1e3', '007', '2026-01-01', '- a', 'a: b', '# c', ' padded ', 'two\nlines'];
    const segment = await app.admin.POST('/api/admin/segments', {
      body: { name: 'tricky', description: 'no', constraints: [{ contextName: 'region', operator: 'IN', values: tricky }] },
    });
    expect(segment.response.status, JSON.stringify(segment.error)).toBe(201);
    await createFlag('default', 'yaml-strings', { description: 'on: off # true' });
    const yaml = await exportText({ version: 2, format: 'yaml' });
    const target = await startTestApp({ ownDatabase: true });
    const imported = await importForm(target, { file: { content: yaml.data!, filename: 'state.yml' } }, 'drop=true');
    expect(imported.status, imported.text).toBe(202);
    const targetExport = await target.admin.GET('/api/admin/state/export', { params: { query: { version: 2 } } });
    expect(targetExport.response.status).toBe(200);
    expect(targetExport.data).toEqual(await exportV2());
  });
});
