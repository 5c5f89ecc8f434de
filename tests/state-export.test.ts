// Exporting the instance's state: the interface's version 1 document of one environment (JSON or YAML, as a
// download), who may export it, and the complete version 2 document holding no secret.
import { parse as parseYaml } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { adminJson, newApiToken } from './support/fixtures.js';
import { importForm } from './support/state.js';
import { as, userWithSession, USER_PASSWORD } from './support/users.js';

let app: TestApp;

const exportState = (query = '', options: Parameters<typeof call>[3] = {}) => call(app, 'GET', `/api/admin/state/export${query && `?${query}`}`, options);

/** A custom strategy definition, a flag set up differently in development and production, and an archived flag. */
async function buildInstance() {
  const admin = (method: string, path: string, body?: unknown) => adminJson(app, method, path, body);
  await admin('POST', '/api/admin/strategies', { name: 'beta-users', description: 'Beta programme', parameters: [{ name: 'cohort', type: 'string', description: 'Which', required: true }] });
  await admin('POST', '/api/admin/projects/default/features', { name: 'checkout', description: 'New checkout', type: 'experiment', impressionData: true });
  await admin('POST', '/api/admin/projects/default/features/checkout/environments/development/strategies', {
    name: 'flexibleRollout',
    parameters: { rollout: 50, stickiness: 'userId', groupId: 'checkout' },
    constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
  });
  await admin('POST', '/api/admin/projects/default/features/checkout/environments/development/on');
  await admin('PUT', '/api/admin/projects/default/features/checkout/environments/development/variants', [{ name: 'blue', weightType: 'variable' }]);
  await admin('POST', '/api/admin/projects/default/features/checkout/environments/production/strategies', { name: 'beta-users', parameters: { cohort: 'a' } });
  await admin('PUT', '/api/admin/projects/default/features/checkout/environments/production/variants', [
    { name: 'red', weight: 300, weightType: 'fix' },
    { name: 'green', weightType: 'variable' },
  ]);
  await admin('POST', '/api/admin/projects/default/features', { name: 'retired' });
  await admin('DELETE', '/api/admin/projects/default/features/retired');
}

beforeAll(async () => {
  app = await startTestApp();
  await buildInstance();
});

describe('the version 1 export', () => {
  it('answers the flags of development with their state, strategies and variants there, and the custom strategy definitions', async () => {
    const response = await exportState();
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json).toEqual({
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
    expect((await exportState()).json.features.map((f: { name: string }) => f.name)).not.toContain('retired');
  });

  it('answers the state, strategies and variants of the environment the query names', async () => {
    const [flag] = (await exportState('environment=production')).json.features;
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
    const error = expectError(await exportState('environment=nowhere'), 404, 'NotFoundError');
    expect(error.message).toContain('nowhere');
  });

  it('leaves the flags out with featureToggles=false', async () => {
    expect(Object.keys((await exportState('featureToggles=false')).json).sort()).toEqual(['strategies', 'version']);
  });

  it('leaves the strategy definitions out with strategies=0', async () => {
    expect(Object.keys((await exportState('strategies=0')).json).sort()).toEqual(['features', 'version']);
  });

  it('answers as an inline document without download', async () => {
    expect((await exportState()).headers['content-disposition']).toBeUndefined();
  });
});

describe('formats', () => {
  it('answers YAML that reads as the same document as the JSON export with format=yaml', async () => {
    const [yaml, json] = [await exportState('format=yaml'), await exportState()];
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toMatch(/^application\/yaml/);
    expect(yaml.text.trimStart().startsWith('{')).toBe(false);
    expect(parseYaml(yaml.text)).toEqual(json.json);
  });

  it('answers a JSON attachment named with the time with download=true', async () => {
    const response = await exportState('download=true');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="export-\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.json"$/);
    expect(response.json.version).toBe(1);
  });

  it('names a YAML attachment .yml', async () => {
    const response = await exportState('format=yaml&download=1');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="export-\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.yml"$/);
    expect(parseYaml(response.text).version).toBe(1);
  });

  it('refuses a format it does not write, naming it', async () => {
    const error = expectError(await exportState('format=xml'), 400, 'ValidationError');
    expect(error.message).toContain('format');
  });

  it('refuses a version it does not have, naming it', async () => {
    const error = expectError(await exportState('version=3'), 400, 'ValidationError');
    expect(error.message).toContain('version');
  });

  it('refuses a yes/no parameter that is neither, naming it', async () => {
    const error = expectError(await exportState('download=maybe'), 400, 'ValidationError');
    expect(error.message).toContain('download');
  });
});

describe('who may export', () => {
  it('refuses a Viewer', async () => {
    const viewer = await userWithSession(app, 'Viewer');
    expectError(await exportState('', as(viewer)), 403, 'NoAccessError');
  });

  it('refuses a client token', async () => {
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    expectError(await exportState('', { token }), 403, 'NoAccessError');
  });

  it('answers 401 without a credential', async () => {
    expectError(await exportState('', { token: null }), 401, 'AuthenticationRequired');
  });
});

describe('the version 2 export', () => {
  it('holds no API token, user, password or integration secret', async () => {
    const clientToken = await newApiToken(app, { type: 'client', environment: 'production' });
    const adminToken = await newApiToken(app, { type: 'admin' });
    const user = await userWithSession(app, 'Editor', 'exported-user');
    const url = 'http://127.0.0.1:9/hooks/secret-path-4711';
    await adminJson(app, 'POST', '/api/admin/addons', {
      provider: 'webhook',
      enabled: true,
      events: ['feature-created'],
      parameters: { url, authorization: 'Bearer integration-secret-0815' },
    });
    const response = await exportState('version=2');
    expect(response.status).toBe(200);
    expect(response.json.version).toBe(2);
    for (const secret of [clientToken, adminToken, app.adminToken, user.email, USER_PASSWORD, url, 'secret-path-4711', 'integration-secret-0815']) {
      expect(response.text).not.toContain(secret);
    }
  });

  it('holds every flag, the archived one included', async () => {
    const { features } = (await exportState('version=2')).json;
    const archived = Object.fromEntries(features.map((f: { name: string; archivedAt: string | null }) => [f.name, f.archivedAt !== null]));
    expect(archived).toMatchObject({ checkout: false, retired: true });
  });

  it('answers YAML that an empty instance imports as the same document, strings that read as other YAML kept strings', async () => {
    const tricky = ['yes', 'null', '~', '0x1F', '1e3', '007', '2026-01-01', '- a', 'a: b', '# c', ' padded ', 'two\nlines'];
    await adminJson(app, 'POST', '/api/admin/segments', { name: 'tricky', description: 'no', constraints: [{ contextName: 'region', operator: 'IN', values: tricky }] });
    await adminJson(app, 'POST', '/api/admin/projects/default/features', { name: 'yaml-strings', description: 'on: off # true' });
    const yaml = await exportState('version=2&format=yaml');
    const target = await startTestApp({ ownDatabase: true });
    const imported = await importForm(target, { file: { content: yaml.text, filename: 'state.yml' } }, 'drop=true');
    expect(imported.status, imported.text).toBe(202);
    expect(await adminJson(target, 'GET', '/api/admin/state/export?version=2')).toEqual((await exportState('version=2')).json);
  });
});
