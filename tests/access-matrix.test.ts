// Who may do what: one representative operation per permission family, for each kind of caller.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../client/index.js';
import { uniqueNames } from './support/events.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { envPath, fixtures, inProject, newApiToken, ok } from './support/fixtures.js';
import { clientAs, userWithSession } from './support/users.js';

let app: TestApp;
const unique = uniqueNames();
const { createFlag } = fixtures(() => app, unique);

/** The project where the Member and the development-only role hold their roles. */
const P = 'matrix';
/** A flag of P that the environment operations switch on. */
const FLAG = 'matrix-flag';
/** A flag of the default project, where the Member holds nothing. */
const DEFAULT_FLAG = 'matrix-default-flag';

const callers: Record<string, ServiceClient> = {};

beforeAll(async () => {
  app = await startTestApp();
  await ok(app.admin.POST('/api/admin/projects', { body: { id: P, name: 'Matrix' } }));
  await createFlag(P, FLAG);
  await createFlag('default', DEFAULT_FLAG);
  const devOnly = await ok(
    app.admin.POST('/api/admin/roles', {
      body: { name: 'development switcher', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }] },
    }),
  );
  const giveRoles = (userId: number, roles: number[]) =>
    ok(app.admin.PUT('/api/admin/projects/{projectId}/users/{userId}/roles', { params: { path: { projectId: P, userId } }, body: { roles } }));

  for (const role of ['Viewer', 'Editor', 'Admin'] as const) callers[role] = clientAs(app, await userWithSession(app, role));
  const member = await userWithSession(app, 'Viewer');
  await giveRoles(member.id, [5]);
  callers['Member of P'] = clientAs(app, member);
  const switcher = await userWithSession(app, 'Viewer');
  await giveRoles(switcher.id, [devOnly.id]);
  callers['development-only role in P'] = clientAs(app, switcher);
  const editor = await userWithSession(app, 'Editor');
  const pat = await ok(clientAs(app, editor).POST('/api/admin/user/tokens', { body: { description: 'matrix', expiresAt: '2099-01-01T00:00:00.000Z' } }));
  callers["Editor's personal access token"] = app.clientWith(pat.secret);

  callers['admin token'] = app.admin;
  callers['client token'] = app.clientWith(await newApiToken(app, { type: 'client', environment: 'development' }));
  callers['client token scoped to P'] = app.clientWith(await newApiToken(app, { type: 'client', environment: 'development', projects: [P] }));
});

interface Operation {
  send: (client: ServiceClient) => Promise<{ response: Response; error?: unknown }>;
  /** The permission a denial names. */
  permission: string;
}

const switchOn = (client: ServiceClient, featureName: string, environment: string, projectId: string) =>
  client.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', { params: { path: envPath(featureName, environment, projectId) } });
const tag = (client: ServiceClient, featureName: string) =>
  client.POST('/api/admin/features/{featureName}/tags', { params: { path: { featureName } }, body: { type: 'simple', value: unique('tag') } });

const operations: Record<string, Operation> = {
  'read flags of P': { send: (c) => c.GET('/api/admin/projects/{projectId}/features', inProject(P)), permission: '' },
  'create a flag in P': { send: (c) => c.POST('/api/admin/projects/{projectId}/features', { ...inProject(P), body: { name: unique('in-p') } }), permission: 'CREATE_FEATURE' },
  'create a flag in default': {
    send: (c) => c.POST('/api/admin/projects/{projectId}/features', { ...inProject('default'), body: { name: unique('in-default') } }),
    permission: 'CREATE_FEATURE',
  },
  'enable in development': { send: (c) => switchOn(c, FLAG, 'development', P), permission: 'UPDATE_FEATURE_ENVIRONMENT' },
  'enable in production': { send: (c) => switchOn(c, FLAG, 'production', P), permission: 'UPDATE_FEATURE_ENVIRONMENT' },
  'enable a flag of default in production': { send: (c) => switchOn(c, DEFAULT_FLAG, 'production', 'default'), permission: 'UPDATE_FEATURE_ENVIRONMENT' },
  'tag a flag of P': { send: (c) => tag(c, FLAG), permission: 'UPDATE_FEATURE' },
  'tag a flag of default': { send: (c) => tag(c, DEFAULT_FLAG), permission: 'UPDATE_FEATURE' },
  'add a strategy to a flag of P in development': {
    send: (c) =>
      c.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
        params: { path: envPath(FLAG, 'development', P) },
        body: { name: 'default', parameters: {} },
      }),
    permission: 'CREATE_FEATURE_STRATEGY',
  },
  'update project P': { send: (c) => c.PUT('/api/admin/projects/{projectId}', { ...inProject(P), body: { name: unique('Matrix') } }), permission: 'UPDATE_PROJECT' },
  'create a strategy definition': { send: (c) => c.POST('/api/admin/strategies', { body: { name: unique('strategy'), parameters: [] } }), permission: 'CREATE_STRATEGY' },
  'create a tag type': { send: (c) => c.POST('/api/admin/tag-types', { body: { name: unique('tagtype') } }), permission: 'CREATE_TAG_TYPE' },
  'create a context field': { send: (c) => c.POST('/api/admin/context', { body: { name: unique('field') } }), permission: 'CREATE_CONTEXT_FIELD' },
  'create a segment': { send: (c) => c.POST('/api/admin/segments', { body: { name: unique('segment'), constraints: [] } }), permission: 'CREATE_SEGMENT' },
  'create a project': { send: (c) => c.POST('/api/admin/projects', { body: { id: unique('project'), name: 'A project' } }), permission: 'CREATE_PROJECT' },
  'create a client token': {
    send: (c) => c.POST('/api/admin/api-tokens', { body: { tokenName: unique('token'), type: 'client', environment: 'development' } }),
    permission: 'CREATE_CLIENT_API_TOKEN',
  },
  'create a user': { send: (c) => c.POST('/api/admin/user-admin', { body: { email: `${unique('new')}@example.com`, rootRole: 'Viewer' } }), permission: 'ADMIN' },
  'create a role': { send: (c) => c.POST('/api/admin/roles', { body: { name: unique('role'), type: 'root-custom', permissions: [] } }), permission: 'ADMIN' },
};

const Y = 'allowed';
const N = 'denied';
// Columns follow `operations` in order.
const expected: Record<string, string[]> = {
  Viewer: [Y, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N],
  // An Editor's flag permissions hold in the default project only (and in projects they create).
  Editor: [Y, N, Y, N, N, Y, N, Y, N, N, Y, Y, Y, Y, Y, N, N, N],
  "Editor's personal access token": [Y, N, Y, N, N, Y, N, Y, N, N, Y, Y, Y, Y, Y, N, N, N],
  Admin: [Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y],
  'Member of P': [Y, Y, N, Y, Y, N, Y, N, Y, N, N, N, N, N, N, N, N, N],
  'development-only role in P': [Y, N, N, Y, N, N, N, N, N, N, N, N, N, N, N, N, N, N],
  'admin token': [Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y],
  'client token': [N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N],
  'client token scoped to P': [N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N],
};

const rows = Object.entries(expected).flatMap(([caller, outcomes]) =>
  Object.keys(operations).map((operation, i) => ({ caller, operation, outcome: outcomes[i]! })),
);

describe('the access matrix', () => {
  it('has an expectation for every caller and operation', () => {
    for (const outcomes of Object.values(expected)) expect(outcomes).toHaveLength(Object.keys(operations).length);
  });

  it.each(rows)('$caller: $operation → $outcome', async ({ caller, operation, outcome }) => {
    const op = operations[operation]!;
    const result = await op.send(callers[caller]!);
    if (outcome === Y) {
      expect(result.response.status, JSON.stringify(result.error)).toBeGreaterThanOrEqual(200);
      expect(result.response.status, JSON.stringify(result.error)).toBeLessThan(300);
    } else {
      const error = expectError(result, 403, 'NoAccessError');
      // Tokens that are not for the admin API are told so; users are told the permission they lack.
      if (!/(client|admin) token/.test(caller)) expect(error.message).toContain(op.permission);
    }
  });
});

describe('a client token scoped to a project', () => {
  it('reads only the flags of its project on the client API', async () => {
    await createFlag('default', unique('outside'));
    const { features } = await ok(callers['client token scoped to P']!.GET('/api/client/features'), 200);
    const projects = new Set(features.map((feature) => feature.project));
    expect([...projects]).toEqual([P]);
  });
});
