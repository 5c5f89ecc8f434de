// Each change-request action names the direct operation it runs, and takes from the operation table what proposing it
// needs: the operation's permission and its body's schema. Proven through the API: a user holding only that permission
// may propose the change and one holding every other of the route's may not; a payload the operation's schema refuses
// is refused as the operation refuses the same body.
import { beforeAll, describe, expect, it } from 'vitest';
import { actionOperations } from '../domain/change-requests/actions.js';
import { mayBeProposed } from '../domain/change-requests/guard.js';
import type { components } from '../generated/api.js';
import { operationTable, type OperationId } from '../generated/operations.js';
import { call, expectError, type TestApp, startTestApp } from './support/app.js';
import { permissionRows } from '../db/default-permissions.js';
import { changeRequestCalls, requireChangeRequests } from './support/change-requests.js';
import { uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { userWithSession, type TestUser } from './support/users.js';

type Action = components['schemas']['ChangeRequestAction'];

let app: TestApp;
let parent: string;
const unique = uniqueNames();
const { newFlag } = fixtures(() => app, unique);
const { proposeRaw } = changeRequestCalls(() => app);

const actions = Object.keys(actionOperations) as Action[];
const route = operationTable.addChangeRequestChanges;
const permissionsOf = (id: OperationId) => operationTable[id].permissions as readonly string[];
/** The permission proposing the action needs, as its direct operations need it. */
const permissionOf = (action: Action) => permissionsOf(actionOperations[action][0]!)[0]!;

/** A payload each action accepts (proposing checks the flag, the payload and the permission; applying checks the rest). */
const payloads: Record<Action, () => unknown> = {
  updateEnabled: () => ({ enabled: true }),
  addStrategy: () => ({ name: 'default' }),
  updateStrategy: () => ({ id: 'some-strategy', name: 'flexibleRollout', parameters: { rollout: '50' } }),
  deleteStrategy: () => ({ id: 'some-strategy' }),
  reorderStrategy: () => [{ id: 'some-strategy', sortOrder: 1 }],
  patchVariant: () => ({ variants: [] }),
  addDependency: () => ({ feature: parent }),
  deleteDependency: () => ({ feature: parent }),
  archiveFeature: () => ({}),
  startMilestone: () => ({ planId: 'some-plan', milestoneId: 'some-milestone' }),
};

const isEnvironmentPermission = (name: string) => permissionRows.some((row) => row.name === name && row.type === 'environment');

/** A Viewer holding the permissions in the default project, those of environments in production, through a role of its own. */
async function userHolding(permissions: readonly string[]): Promise<TestUser> {
  const user = await userWithSession(app, 'Viewer', 'proposer');
  const body = { name: unique('proposer'), type: 'custom' as const, permissions: permissions.map((name) => (isEnvironmentPermission(name) ? { name, environment: 'production' } : { name })) };
  const role = await app.admin.POST('/api/admin/roles', { body });
  expect(role.response.status, JSON.stringify(role.error)).toBe(201);
  const access = await app.admin.POST('/api/admin/projects/{projectId}/access', { params: { path: { projectId: 'default' } }, body: { roles: [role.data!.id], users: [user.id] } });
  expect(access.response.status, JSON.stringify(access.error)).toBeLessThan(300);
  return user;
}

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  parent = await newFlag('parent');
});

describe('the actions and the operation table', () => {
  it("each action runs operations the guard refuses where change requests are required, with a rule that lets them be proposed", () => {
    for (const action of actions) {
      for (const id of actionOperations[action]) {
        const kind = operationTable[id].changeRequest;
        expect(kind, `${action} runs ${id}, which no x-change-request guards`).not.toBeNull();
        expect(mayBeProposed(kind!), `${action} runs ${id}, whose rule ${kind} cannot be proposed`).toBe(true);
      }
    }
  });

  it("the route proposing changes may be called with any action's permission, and with no other", () => {
    expect([...route.permissions].sort()).toEqual([...new Set(actions.map(permissionOf))].sort());
  });
});

describe.each(actions)('%s', (action) => {
  it("may be proposed by a user holding only its operation's permission there", async () => {
    const user = await userHolding([permissionOf(action)]);
    // Raw: the table's payloads are built per action at run time, untyped.
    const response = await proposeRaw(user, { feature: await newFlag(action), action, payload: payloads[action]() });
    expect(response.status, response.text).toBe(200);
  });

  it("is refused with 403 naming its operation's permission to a user holding every other permission of the route", async () => {
    const others = route.permissions.filter((permission) => permission !== permissionOf(action));
    const user = await userHolding(others);
    const error = expectError(await proposeRaw(user, { feature: await newFlag(action), action, payload: payloads[action]() }), 403, 'NoAccessError');
    expect(error.message).toContain(permissionOf(action));
  });
});

/** Bodies each operation's schema refuses, the path of a flag in development to send them to, and the action's payload. */
const refusedBodies: { action: Action; body: unknown; path: (flag: string) => string; payload: (body: unknown) => unknown }[] = [
  { action: 'addStrategy', body: { parameters: {} }, path: (flag) => `${environmentOf(flag)}/strategies`, payload: (body) => body },
  { action: 'updateStrategy', body: { name: 'default', sortOrder: 'first' }, path: (flag) => `${environmentOf(flag)}/strategies/some-strategy`, payload: (body) => ({ id: 'some-strategy', ...(body as object) }) },
  { action: 'reorderStrategy', body: [{ id: 'some-strategy' }], path: (flag) => `${environmentOf(flag)}/strategies/set-sort-order`, payload: (body) => body },
  { action: 'patchVariant', body: [{ weightType: 'variable' }], path: (flag) => `${environmentOf(flag)}/variants`, payload: (variants) => ({ variants }) },
  { action: 'addDependency', body: { enabled: true }, path: (flag) => `/api/admin/projects/default/features/${flag}/dependencies`, payload: (body) => body },
];
const environmentOf = (flag: string) => `/api/admin/projects/default/features/${flag}/environments/development`;

describe.each(refusedBodies)('$action', ({ action, body, path, payload }) => {
  it("refuses a payload its operation's body schema refuses, with the operation's message", async () => {
    const flag = await newFlag(`${action}-refused`);
    const [id] = actionOperations[action];
    const direct = expectError(await call(app, operationTable[id!].method, path(flag), { body: body as object }), 400, 'ValidationError');
    const user = await userHolding([permissionOf(action)]);
    const proposed = expectError(await proposeRaw(user, { feature: flag, action, payload: payload(body) }), 400, 'ValidationError');
    const at = action === 'patchVariant' ? 'body.payload.variants' : 'body.payload';
    expect(proposed.message).toBe(direct.message.replace(/^body/, at));
  });
});
