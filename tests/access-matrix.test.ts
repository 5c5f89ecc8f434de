// Who may do what: one representative operation per permission family, for each kind of caller.
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { userWithSession } from './support/users.js';

let app: TestApp;
const unique = uniqueNames();

/** The project where the Member and the development-only role hold their roles. */
const P = 'matrix';
/** A flag of P that the environment operations switch on. */
const FLAG = 'matrix-flag';
/** A flag of the default project, where the Member holds nothing. */
const DEFAULT_FLAG = 'matrix-default-flag';

type Credential = { token: string | null; headers?: Record<string, string> };
const callers: Record<string, Credential> = {};

async function created(response: Promise<{ status: number; text: string; json: any }>) {
  const answer = await response;
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer.json;
}

beforeAll(async () => {
  app = await startTestApp();
  await created(call(app, 'POST', '/api/admin/projects', { body: { id: P, name: 'Matrix' } }));
  await created(call(app, 'POST', `/api/admin/projects/${P}/features`, { body: { name: FLAG } }));
  await created(call(app, 'POST', '/api/admin/projects/default/features', { body: { name: DEFAULT_FLAG } }));
  const devOnly = await created(
    call(app, 'POST', '/api/admin/roles', {
      body: { name: 'development switcher', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }] },
    }),
  );

  const session = (cookie: string): Credential => ({ token: null, headers: { cookie } });
  for (const role of ['Viewer', 'Editor', 'Admin']) callers[role] = session((await userWithSession(app, role)).cookie);
  const member = await userWithSession(app, 'Viewer');
  await created(call(app, 'PUT', `/api/admin/projects/${P}/users/${member.id}/roles`, { body: { roles: [5] } }));
  callers['Member of P'] = session(member.cookie);
  const switcher = await userWithSession(app, 'Viewer');
  await created(call(app, 'PUT', `/api/admin/projects/${P}/users/${switcher.id}/roles`, { body: { roles: [devOnly.id] } }));
  callers['development-only role in P'] = session(switcher.cookie);
  const editor = await userWithSession(app, 'Editor');
  const pat = await created(
    call(app, 'POST', '/api/admin/user/tokens', { ...session(editor.cookie), body: { description: 'matrix', expiresAt: '2099-01-01T00:00:00.000Z' } }),
  );
  callers["Editor's personal access token"] = { token: pat.secret };

  callers['admin token'] = { token: app.adminToken };
  const clientToken = await created(call(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: 'matrix-client', type: 'client', environment: 'development' } }));
  callers['client token'] = { token: clientToken.secret };
  const scoped = await created(
    call(app, 'POST', '/api/admin/api-tokens', { body: { tokenName: 'matrix-scoped', type: 'client', environment: 'development', projects: [P] } }),
  );
  callers['client token scoped to P'] = { token: scoped.secret };
});

interface Operation {
  method: string;
  path: string;
  body?: () => object;
  /** The permission a denial names. */
  permission: string;
}

const operations: Record<string, Operation> = {
  'read flags of P': { method: 'GET', path: `/api/admin/projects/${P}/features`, permission: '' },
  'create a flag in P': { method: 'POST', path: `/api/admin/projects/${P}/features`, body: () => ({ name: unique('in-p') }), permission: 'CREATE_FEATURE' },
  'create a flag in default': { method: 'POST', path: '/api/admin/projects/default/features', body: () => ({ name: unique('in-default') }), permission: 'CREATE_FEATURE' },
  'enable in development': { method: 'POST', path: `/api/admin/projects/${P}/features/${FLAG}/environments/development/on`, permission: 'UPDATE_FEATURE_ENVIRONMENT' },
  'enable in production': { method: 'POST', path: `/api/admin/projects/${P}/features/${FLAG}/environments/production/on`, permission: 'UPDATE_FEATURE_ENVIRONMENT' },
  'enable a flag of default in production': {
    method: 'POST',
    path: `/api/admin/projects/default/features/${DEFAULT_FLAG}/environments/production/on`,
    permission: 'UPDATE_FEATURE_ENVIRONMENT',
  },
  'tag a flag of P': { method: 'POST', path: `/api/admin/features/${FLAG}/tags`, body: () => ({ type: 'simple', value: unique('tag') }), permission: 'UPDATE_FEATURE' },
  'tag a flag of default': {
    method: 'POST',
    path: `/api/admin/features/${DEFAULT_FLAG}/tags`,
    body: () => ({ type: 'simple', value: unique('tag') }),
    permission: 'UPDATE_FEATURE',
  },
  'add a strategy to a flag of P in development': {
    method: 'POST',
    path: `/api/admin/projects/${P}/features/${FLAG}/environments/development/strategies`,
    body: () => ({ name: 'default', parameters: {} }),
    permission: 'CREATE_FEATURE_STRATEGY',
  },
  'update project P': { method: 'PUT', path: `/api/admin/projects/${P}`, body: () => ({ name: unique('Matrix') }), permission: 'UPDATE_PROJECT' },
  'create a strategy definition': { method: 'POST', path: '/api/admin/strategies', body: () => ({ name: unique('strategy'), parameters: [] }), permission: 'CREATE_STRATEGY' },
  'create a tag type': { method: 'POST', path: '/api/admin/tag-types', body: () => ({ name: unique('tagtype') }), permission: 'CREATE_TAG_TYPE' },
  'create a context field': { method: 'POST', path: '/api/admin/context', body: () => ({ name: unique('field') }), permission: 'CREATE_CONTEXT_FIELD' },
  'create a segment': { method: 'POST', path: '/api/admin/segments', body: () => ({ name: unique('segment'), constraints: [] }), permission: 'CREATE_SEGMENT' },
  'create a project': { method: 'POST', path: '/api/admin/projects', body: () => ({ id: unique('project'), name: 'A project' }), permission: 'CREATE_PROJECT' },
  'create a client token': {
    method: 'POST',
    path: '/api/admin/api-tokens',
    body: () => ({ tokenName: unique('token'), type: 'client', environment: 'development' }),
    permission: 'CREATE_CLIENT_API_TOKEN',
  },
  'create a user': { method: 'POST', path: '/api/admin/user-admin', body: () => ({ email: `${unique('new')}@example.com`, rootRole: 'Viewer' }), permission: 'ADMIN' },
  'create a role': { method: 'POST', path: '/api/admin/roles', body: () => ({ name: unique('role'), type: 'root-custom', permissions: [] }), permission: 'ADMIN' },
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
    const response = await call(app, op.method, op.path, { ...callers[caller]!, ...(op.body && { body: op.body() }) });
    if (outcome === Y) {
      expect(response.status, response.text).toBeGreaterThanOrEqual(200);
      expect(response.status, response.text).toBeLessThan(300);
    } else {
      const error = expectError(response, 403, 'NoAccessError');
      // Tokens that are not for the admin API are told so; users are told the permission they lack.
      if (!/(client|admin) token/.test(caller)) expect(error.message).toContain(op.permission);
    }
  });
});

describe('a client token scoped to a project', () => {
  it('reads only the flags of its project on the client API', async () => {
    await created(call(app, 'POST', '/api/admin/projects/default/features', { body: { name: unique('outside') } }));
    const response = await call(app, 'GET', '/api/client/features', { token: callers['client token scoped to P']!.token });
    expect(response.status).toBe(200);
    const projects = new Set(response.json.features.map((feature: { project: string }) => feature.project));
    expect([...projects]).toEqual([P]);
  });
});
