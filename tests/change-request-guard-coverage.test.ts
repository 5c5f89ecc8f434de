// Every write operation of the contract, classified. Guarded: an Editor who may not skip change requests, in the default
// project whose production requires them, is refused with 409, and an SDK polling production gets the same bytes after.
// Unguarded: a stated reason, checked where that is cheap. A write operation added to the contract without a line here,
// or a line that disagrees with the contract's x-change-request, fails this test.
// Flag writes, found in the contract by their paths (not by x-change-request), must all be guarded.
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../db/default-permissions.js';
import { actionOperations } from '../domain/change-requests/actions.js';
import { operationTable, type OperationId } from '../generated/operations.js';
import { call, expectError, type RawResponse, type TestApp } from './support/app.js';
import { expectRequired, guardFixtures } from './support/change-request-guard.js';
import { asUser, author, requireChangeRequests } from './support/change-requests.js';
import { uniqueNames } from './support/events.js';
import { appWithClientTokens, fixtures, ok } from './support/fixtures.js';
import type { TestUser } from './support/users.js';
import { milestoneFor, releasePlans } from './support/release-plans.js';

let app: TestApp;
let editor: TestUser;
let productionToken: string;
/** A project requiring no change requests where the editor is an Owner. */
let side: string;
/** A flag on in production with a segment, variants and a child on there: what SDKs get is not trivial. */
let served: string;
let segmentId: number;
const unique = uniqueNames();
const { newFlag, newProject, addStrategy, archiveFlag, addDependency, tagFlag, createSegment, setVariants, turnOn } = fixtures(() => app, unique);
const base = '/api/admin/projects/default';
const production = (flag: string, project = 'default') => `/api/admin/projects/${project}/features/${flag}/environments/production`;

interface Request {
  method: string;
  path: string;
  body?: unknown;
  /** Who calls, when an unguarded check needs a user rather than the admin token. */
  user?: TestUser;
}
const request = (method: string, path: string, body?: unknown, user?: TestUser): Request => ({ method, path, body, user });

const { productionFeatures, makeOwner, onInProduction, parentOfChildOn } = guardFixtures(() => app, unique, () => productionToken);
const { createTemplate, addPlan, runningPlan, pause } = releasePlans(() => app, unique);

// Raw: the classification below is a table of requests, one per operation id of the contract, each a method, a path
// and a body sent by this one sender.
const sendRequest = ({ method, path, body, user }: Request): Promise<RawResponse> =>
  user ? asUser(app, user, method, path, body) : call(app, method, path, body === undefined ? {} : { body: body as object });

async function succeeds(req: Request) {
  const response = await sendRequest(req);
  expect(response.status, `${req.method} ${req.path}: ${response.text}`).toBeLessThan(300);
}

async function withStrategy(prefix: string) {
  const flag = await newFlag(prefix);
  const strategy = await addStrategy(flag, { name: 'default' }, 'production');
  return `${production(flag)}/strategies/${strategy.id}`;
}

async function dependent(prefix: string) {
  const [parent, child] = [await newFlag(`${prefix}-parent`), await newFlag(`${prefix}-child`)];
  await addDependency(child, parent);
  return { parent, child };
}

/** An archived flag that a child on in production depends on. */
async function archivedParentOfChildOn(prefix: string) {
  const parent = await parentOfChildOn(prefix);
  await archiveFlag('default', parent);
  return parent;
}

type Classification = { guarded: () => Promise<Request> } | { unguarded: string; check?: (id: OperationId) => Promise<void> };

const guarded = (scenario: () => Promise<Request>): Classification => ({ guarded: scenario });

/** Unguarded because it changes nothing an SDK in production gets: the call succeeds and the bytes stay the same. */
const unchanged = (reason: string, scenario: () => Promise<Request>): Classification => ({
  unguarded: reason,
  check: async () => {
    const req = await scenario();
    const before = await productionFeatures();
    await succeeds(req);
    expect(await productionFeatures()).toBe(before);
  },
});

/** Only admins may call it, and admins may skip change requests everywhere. */
const adminsOnly = (what: string): Classification => ({
  unguarded: `${what}: only admins may, and admins may skip change requests everywhere`,
  check: async (id) => expect(operationTable[id].permissions).toEqual(['ADMIN']),
});

/** What SDKs need to evaluate each flag: everything but the metadata shared by every environment. */
async function evaluation() {
  const { features, segments } = JSON.parse(await productionFeatures());
  return { segments, features: features.map(({ description: _d, type: _t, stale: _s, impressionData: _i, ...rest }: Record<string, unknown>) => rest) };
}

/** Flag metadata, as in Unleash outside change requests: SDKs get the new text, and every flag evaluates as before. */
const metadata = (scenario: () => Promise<Request>): Classification => ({
  unguarded: "the flag's metadata (description, type, stale, impression data), the same in every environment and outside change requests as in Unleash; no flag evaluates differently",
  check: async () => {
    const req = await scenario();
    const before = await evaluation();
    await succeeds(req);
    expect(await evaluation()).toEqual(before);
  },
});

/** A release plan of a flag on in production, started at its first milestone when asked (by the admin token, which may skip). */
async function planInProduction(prefix: string, started = false) {
  const place = { featureName: await onInProduction(prefix), environment: 'production' };
  const milestones = [milestoneFor('first', ['u1']), milestoneFor('second', ['u2'])];
  const plan = started ? await runningPlan(place, milestones) : await addPlan(place, (await createTemplate(milestones)).id);
  return { plan, path: `${production(place.featureName)}/release-plans/${plan.id}`, place };
}

const safeguard = { impactMetric: { metricName: 'errors', timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} }, triggerCondition: { operator: '>', threshold: 1 } };

/** A plan in production with a safeguard on it; answers the safeguard's path. */
async function safeguardInProduction(prefix: string) {
  const { path, place, plan } = await planInProduction(prefix);
  const created = await ok(
    app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards', {
      params: { path: { projectId: 'default', featureName: place.featureName, environment: 'production', planId: plan.id } },
      body: safeguard as never,
    }),
  );
  return `${path}/safeguards/${created.id}`;
}

const TEMPLATES = "release templates are not served: a plan copies a template's milestones when it is added, and only a started milestone is";

const TAGS = 'tags are not served; they only choose which flags an SDK filtering by tag is sent, each evaluating as before';

const classification: Record<string, Classification> = {
  // Flags in an environment: on/off, strategies, variants.
  enableFeatureEnvironment: guarded(async () => request('POST', `${production(await newFlag('enable'))}/on`)),
  disableFeatureEnvironment: guarded(async () => request('POST', `${production(await onInProduction('disable'))}/off`)),
  addFeatureStrategy: guarded(async () => request('POST', `${production(await newFlag('add-strategy'))}/strategies`, { name: 'default' })),
  updateFeatureStrategy: guarded(async () => request('PUT', await withStrategy('put-strategy'), { name: 'flexibleRollout' })),
  patchFeatureStrategy: guarded(async () => request('PATCH', await withStrategy('patch-strategy'), [{ op: 'replace', path: '/disabled', value: true }])),
  deleteFeatureStrategy: guarded(async () => request('DELETE', await withStrategy('delete-strategy'))),
  setStrategySortOrder: guarded(async () => {
    const strategy = await withStrategy('order');
    return request('POST', `${strategy.slice(0, strategy.lastIndexOf('/'))}/set-sort-order`, [{ id: strategy.slice(strategy.lastIndexOf('/') + 1), sortOrder: 5 }]);
  }),
  setEnvironmentVariants: guarded(async () => request('PUT', `${production(await onInProduction('variants'))}/variants`, [{ name: 'blue', weightType: 'variable' }])),
  patchEnvironmentVariants: guarded(async () =>
    request('PATCH', `${production(await onInProduction('patch-variants'))}/variants`, [{ op: 'add', path: '/-', value: { name: 'blue', weightType: 'variable' } }]),
  ),
  // Dependencies apply in every environment.
  addDependency: guarded(async () => request('POST', `${base}/features/${await newFlag('child')}/dependencies`, { feature: await newFlag('parent') })),
  deleteDependency: guarded(async () => {
    const { parent, child } = await dependent('one');
    return request('DELETE', `${base}/features/${child}/dependencies/${parent}`);
  }),
  deleteDependencies: guarded(async () => request('DELETE', `${base}/features/${(await dependent('all')).child}/dependencies`)),
  // Archive, revive and delete for good.
  archiveFeature: guarded(async () => request('DELETE', `${base}/features/${await onInProduction('archive')}`)),
  archiveFeatures: guarded(async () => request('POST', `${base}/archive`, { features: [await onInProduction('archive-many')] })),
  reviveFeature: guarded(async () => request('POST', `/api/admin/archive/revive/${await archivedParentOfChildOn('revive')}`)),
  reviveFeatures: guarded(async () => request('POST', `${base}/revive`, { features: [await archivedParentOfChildOn('revive-many')] })),
  deleteArchivedFeature: guarded(async () => request('DELETE', `/api/admin/archive/${await archivedParentOfChildOn('delete')}`)),
  deleteFeatures: guarded(async () => request('POST', `${base}/delete`, { features: [await archivedParentOfChildOn('delete-many')] })),
  // Release plans: their milestones become a flag's strategies; pausing, resuming and safeguards decide when.
  addReleasePlan: guarded(async () => request('POST', `${production(await onInProduction('add-plan'))}/release-plans`, { templateId: (await createTemplate([milestoneFor('only', ['u1'])])).id })),
  deleteReleasePlan: guarded(async () => request('DELETE', `${(await planInProduction('remove-plan', true)).path}?keepStrategies=false`)),
  startReleasePlanMilestone: guarded(async () => {
    const { plan, path } = await planInProduction('start-milestone');
    return request('POST', `${path}/milestones/${plan.milestones[0]!.id}/start`);
  }),
  pauseReleasePlan: guarded(async () => request('POST', `${(await planInProduction('pause-plan', true)).path}/pause`)),
  resumeReleasePlan: guarded(async () => {
    const { plan, path, place } = await planInProduction('resume-plan', true);
    await ok(pause(place, plan.id), 200);
    return request('POST', `${path}/resume`);
  }),
  createReleasePlanSafeguard: guarded(async () => request('POST', `${(await planInProduction('add-safeguard')).path}/safeguards`, safeguard)),
  updateReleasePlanSafeguard: guarded(async () => request('PUT', await safeguardInProduction('put-safeguard'), safeguard)),
  deleteReleasePlanSafeguard: guarded(async () => request('DELETE', await safeguardInProduction('delete-safeguard'))),
  createReleasePlanTemplate: unchanged(TEMPLATES, async () => request('POST', '/api/admin/release-plan-templates', { name: unique('template'), milestones: [milestoneFor('only', ['u1'])] })),
  updateReleasePlanTemplate: { unguarded: TEMPLATES },
  deleteReleasePlanTemplate: { unguarded: TEMPLATES },
  // Project moves and the project's environments.
  changeFeatureProject: guarded(async () => request('POST', `${base}/features/${await onInProduction('move')}/changeProject`, { newProjectId: side })),
  removeEnvironmentFromProject: guarded(async () => request('DELETE', `${base}/environments/production`)),
  addEnvironmentToProject: {
    unguarded: 'flags are served off, without strategies, in an environment their project lacks; adding it gives them exactly that',
    check: async () => {
      const project = await newProject('re-added');
      await makeOwner(project, editor);
      await requireChangeRequests(app, project, 'production');
      const flag = await onInProduction('re-added', project);
      await addStrategy(flag, { name: 'default' }, 'production', project);
      await ok(app.admin.DELETE('/api/admin/projects/{projectId}/environments/{environment}', { params: { path: { projectId: project, environment: 'production' } } }));
      const before = await productionFeatures();
      await succeeds(request('POST', `/api/admin/projects/${project}/environments`, { environment: 'production' }, editor));
      expect(await productionFeatures()).toBe(before);
    },
  },
  // Segments.
  updateSegment: guarded(async () =>
    request('PUT', `/api/admin/segments/${segmentId}`, { name: unique('renamed'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['2'] }] }),
  ),
  deleteSegment: guarded(async () => request('DELETE', `/api/admin/segments/${segmentId}`)),
  createSegment: unchanged('a new segment is used by no strategy', async () => request('POST', '/api/admin/segments', { name: unique('new-segment'), constraints: [] })),
  // The flag itself.
  createFeature: {
    unguarded: 'a new flag is off in every environment, without strategies',
    check: async () => {
      const before = JSON.parse(await productionFeatures());
      const name = unique('created');
      await succeeds(request('POST', `${base}/features`, { name }, editor));
      const after = JSON.parse(await productionFeatures());
      expect(after.features.find((f: { name: string }) => f.name === name)).toMatchObject({ enabled: false, strategies: [], variants: [] });
      expect({ ...after, features: after.features.filter((f: { name: string }) => f.name !== name) }).toEqual(before);
    },
  },
  updateFeature: metadata(async () => request('PUT', `${base}/features/${served}`, { description: unique('described'), impressionData: true }, editor)),
  patchFeature: metadata(async () => request('PATCH', `${base}/features/${served}`, [{ op: 'replace', path: '/description', value: unique('patched') }], editor)),
  markFeaturesStale: metadata(async () => request('POST', `${base}/stale`, { features: [served], stale: true }, editor)),
  completeFeature: unchanged('a lifecycle stage, not served', async () => request('POST', `${base}/features/${served}/lifecycle/complete`, { status: 'kept' }, editor)),
  uncompleteFeature: unchanged('a lifecycle stage, not served', async () => request('POST', `${base}/features/${served}/lifecycle/uncomplete`, undefined, editor)),
  favoriteFeature: unchanged("a user's own mark", async () => request('POST', `${base}/features/${served}/favorites`, undefined, editor)),
  unfavoriteFeature: unchanged("a user's own mark", async () => request('DELETE', `${base}/features/${served}/favorites`, undefined, editor)),
  favoriteProject: unchanged("a user's own mark", async () => request('POST', `${base}/favorites`, undefined, editor)),
  unfavoriteProject: unchanged("a user's own mark", async () => request('DELETE', `${base}/favorites`, undefined, editor)),
  // Tags.
  addFeatureTag: unchanged(TAGS, async () => request('POST', `/api/admin/features/${served}/tags`, { type: 'simple', value: unique('tag') })),
  removeFeatureTag: unchanged(TAGS, async () => request('DELETE', `/api/admin/features/${served}/tags/simple/served`)),
  updateFeatureTags: unchanged(TAGS, async () => request('PUT', `/api/admin/features/${served}/tags`, { addedTags: [{ type: 'simple', value: unique('tag') }] })),
  createTag: unchanged(TAGS, async () => request('POST', '/api/admin/tags', { type: 'simple', value: unique('tag') })),
  deleteTag: unchanged(TAGS, async () => {
    const value = unique('tag');
    await tagFlag(served, value);
    return request('DELETE', `/api/admin/tags/simple/${value}`);
  }),
  createTagType: unchanged('tag types are not served', async () => request('POST', '/api/admin/tag-types', { name: unique('type') })),
  updateTagType: unchanged('tag types are not served', async () => request('PUT', '/api/admin/tag-types/simple', { description: unique('described') })),
  deleteTagType: unchanged('tag types are not served', async () => {
    const name = unique('type');
    await ok(app.admin.POST('/api/admin/tag-types', { body: { name } }), 201);
    return request('DELETE', `/api/admin/tag-types/${name}`);
  }),
  // Projects.
  createProject: unchanged('a new project has no flags', async () => request('POST', '/api/admin/projects', { id: unique('new'), name: 'New' }, editor)),
  updateProject: unchanged("a project's name, description, mode and default stickiness are not served", async () =>
    request('PUT', base, { name: 'Default', description: unique('described') }, editor),
  ),
  deleteProject: unchanged('refused while the project has active flags, so nothing it deletes is served', async () => {
    const project = await newProject('deleted');
    await requireChangeRequests(app, project, 'production');
    const flag = await onInProduction('archived', project);
    await archiveFlag(project, flag);
    return request('DELETE', `/api/admin/projects/${project}`);
  }),
  addProjectAccess: unchanged('who may do what in a project; no flag is written', async () => {
    const user = await author(app);
    return request('POST', `${base}/access`, { roles: [ROLE.Member], users: [user.id] }, editor);
  }),
  setProjectUserRoles: { unguarded: 'who may do what in a project; no flag is written' },
  setProjectGroupRoles: { unguarded: 'who may do what in a project; no flag is written' },
  removeProjectUserRoles: { unguarded: 'who may do what in a project; no flag is written' },
  removeProjectGroupRoles: { unguarded: 'who may do what in a project; no flag is written' },
  // Change requests: the way around the guard is through them.
  updateChangeRequestConfig: { unguarded: 'the rule itself; it writes no flag (each change recorded as change-request-configuration-updated)' },
  addChangeRequestChanges: unchanged('a proposal: nothing applies until approved', async () =>
    request('POST', `${base}/environments/production/change-requests`, { feature: served, action: 'updateEnabled', payload: { enabled: false } }, editor),
  ),
  updateChangeRequestState: {
    unguarded: 'applies a request only once approved by others than its author, as the change-request tests prove',
    check: async () => {
      const proposed = await asUser(app, editor, 'POST', `${base}/environments/production/change-requests`, { feature: served, action: 'updateEnabled', payload: { enabled: false } });
      const before = await productionFeatures();
      expectError(await asUser(app, editor, 'PUT', `${base}/change-requests/${proposed.json.id}/state`, { state: 'Applied' }), 409, 'ConflictError');
      expect(await productionFeatures()).toBe(before);
    },
  },
  updateChangeRequestChange: { unguarded: 'edits a proposal, which applies only once approved' },
  discardChangeRequestChange: { unguarded: 'edits a proposal, which applies only once approved' },
  updateChangeRequestTitle: { unguarded: "a request's title" },
  addChangeRequestComment: { unguarded: 'a comment on a request' },
  // Definitions a flag's strategies and constraints copy from, not served themselves.
  createContextField: unchanged('context fields are not served; constraints carry their own names and values', async () =>
    request('POST', '/api/admin/context', { name: unique('field') }, editor),
  ),
  updateContextField: { unguarded: 'context fields are not served; constraints carry their own names and values' },
  deleteContextField: { unguarded: 'context fields are not served; constraints carry their own names and values' },
  addContextFieldLegalValue: { unguarded: 'legal values are offered to people writing constraints, not served' },
  deleteContextFieldLegalValue: { unguarded: 'legal values are offered to people writing constraints, not served' },
  validateContextFieldName: { unguarded: 'checks a name; writes nothing' },
  validateFeature: { unguarded: 'checks a name; writes nothing' },
  validateSegment: { unguarded: 'checks a name; writes nothing' },
  validateProjectId: { unguarded: 'checks an id; writes nothing' },
  createStrategy: unchanged("strategy definitions are not served; a flag's strategies carry their own name and parameters", async () =>
    request('POST', '/api/admin/strategies', { name: unique('custom') }, editor),
  ),
  updateStrategy: { unguarded: "strategy definitions are not served; a flag's strategies carry their own name and parameters" },
  deleteStrategy: { unguarded: 'refused while a flag strategy uses the definition' },
  deprecateStrategy: { unguarded: 'deprecation is advice to people adding strategies, not served' },
  reactivateStrategy: { unguarded: 'deprecation is advice to people adding strategies, not served' },
  // The instance: admins only.
  importState: adminsOnly('importing state'),
  createEnvironment: adminsOnly('environments'),
  updateEnvironment: adminsOnly('environments'),
  deleteEnvironment: adminsOnly('environments'),
  enableEnvironment: adminsOnly('environments'),
  disableEnvironment: adminsOnly('environments'),
  updateEnvironmentSortOrder: adminsOnly('environments'),
  createUser: adminsOnly('users'),
  updateUser: adminsOnly('users'),
  deleteUser: adminsOnly('users'),
  changeUserPassword: adminsOnly('users'),
  createGroup: adminsOnly('groups'),
  updateGroup: adminsOnly('groups'),
  deleteGroup: adminsOnly('groups'),
  createRole: adminsOnly('roles'),
  updateRole: adminsOnly('roles'),
  deleteRole: adminsOnly('roles'),
  createSignupToken: adminsOnly('invite links'),
  updateSignupToken: adminsOnly('invite links'),
  // Credentials, integrations and sign-in: no flag is written.
  setOidcSettings: { unguarded: 'single sign-on settings; no flag is written' },
  deleteOidcSettings: { unguarded: 'single sign-on settings; no flag is written' },
  setSamlSettings: { unguarded: 'single sign-on settings; no flag is written' },
  deleteSamlSettings: { unguarded: 'single sign-on settings; no flag is written' },
  setPasswordAuthSettings: { unguarded: 'sign-in settings; no flag is written' },
  finishSamlSignIn: { unguarded: 'signs in; no flag is written' },
  createApiToken: { unguarded: 'credentials; no flag is written' },
  deleteApiToken: { unguarded: 'credentials; no flag is written' },
  createPersonalAccessToken: { unguarded: 'credentials; no flag is written' },
  deletePersonalAccessToken: { unguarded: 'credentials; no flag is written' },
  changeOwnPassword: { unguarded: 'credentials; no flag is written' },
  login: { unguarded: 'signs in; no flag is written' },
  logout: { unguarded: 'signs out; no flag is written' },
  signUp: { unguarded: 'creates a Viewer; no flag is written' },
  createAddon: { unguarded: 'integrations receive events; no flag is written' },
  createAddonAdmin: { unguarded: 'integrations receive events; no flag is written' },
  updateAddon: { unguarded: 'integrations receive events; no flag is written' },
  updateAddonAdmin: { unguarded: 'integrations receive events; no flag is written' },
  deleteAddon: { unguarded: 'integrations receive events; no flag is written' },
  // SDKs and evaluations: reports and reads with a body.
  registerClient: { unguarded: 'an SDK reporting itself; what SDKs get does not depend on it' },
  reportClientMetrics: { unguarded: 'an SDK reporting usage; what SDKs get does not depend on it' },
  registerFrontendClient: { unguarded: 'an SDK reporting itself; what SDKs get does not depend on it' },
  reportFrontendMetrics: { unguarded: 'an SDK reporting usage; what SDKs get does not depend on it' },
  reportBulkClientMetrics: { unguarded: 'an Edge reporting the usage of the SDKs behind it; what SDKs get does not depend on it' },
  validateEdgeTokens: { unguarded: 'a read of token scopes with the tokens as its body; writes nothing' },
  getFrontendFeaturesWithPost: { unguarded: 'a read with the context as its body; writes nothing' },
  getPlayground: { unguarded: 'an evaluation with the context as its body; writes nothing' },
  getAdvancedPlayground: { unguarded: 'an evaluation with the context as its body; writes nothing' },
  evaluateOfrepFlag: { unguarded: 'an OpenFeature evaluation with the context as its body; writes nothing' },
  evaluateOfrepFlags: { unguarded: 'an OpenFeature evaluation with the context as its body; writes nothing' },
};

const writes = (Object.keys(operationTable) as OperationId[]).filter((id) => !['GET', 'HEAD'].includes(operationTable[id].method)).sort();

/**
 * The contract's flag writes, by a rule that does not read x-change-request: what SDKs evaluate for one flag changes
 * with every write under its environments (on/off, strategies, variants) or its dependencies, and with archiving it.
 */
const flagPath = '/api/admin/projects/{projectId}/features/{featureName}';
const flagWrites = writes.filter((id) => {
  const { method, path } = operationTable[id];
  return path.startsWith(`${flagPath}/environments/`) || path.startsWith(`${flagPath}/dependencies`) || (path === flagPath && method === 'DELETE');
});

/** Whether the request's path is one the operation's path template matches. */
const routes = (template: string, path: string) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path.split('?')[0]!);

beforeAll(async () => {
  ({ app, prodToken: productionToken } = await appWithClientTokens());
  await requireChangeRequests(app, 'default', 'production');
  editor = await author(app);
  side = await newProject('side');
  await makeOwner(side, editor);
  segmentId = (await createSegment({ constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] })).id;
  served = await newFlag('served', 'default', { tags: ['simple:served'] });
  await addStrategy(served, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: served }, segments: [segmentId] }, 'production');
  await setVariants(served, [{ name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'default' }], 'production');
  await turnOn(served, 'production');
  const child = await onInProduction('served-child');
  await addDependency(child, served);
});

describe('the classification', () => {
  it('covers every write operation of the contract, and nothing else', () => {
    expect(Object.keys(classification).sort()).toEqual(writes);
  });

  it("calls guarded exactly the operations the contract gives an x-change-request", () => {
    const declared = writes.filter((id) => operationTable[id].changeRequest !== null);
    expect(writes.filter((id) => 'guarded' in classification[id]!)).toEqual(declared);
  });
});

describe('flag writes', () => {
  it('every flag write of the contract is guarded, each proven refused below', () => {
    expect(flagWrites).toEqual(expect.arrayContaining(['enableFeatureEnvironment', 'addFeatureStrategy', 'setEnvironmentVariants', 'addDependency', 'archiveFeature']));
    expect(flagWrites.filter((id) => !('guarded' in classification[id]!))).toEqual([]);
  });

  it('every operation a change-request action runs is a flag write', () => {
    expect(Object.values(actionOperations).flat().filter((id) => !flagWrites.includes(id))).toEqual([]);
  });
});

describe.each(writes.filter((id) => 'guarded' in (classification[id] ?? {})))('%s', (id) => {
  it('refuses an Editor who may not skip change requests with 409, and SDKs in production get the same bytes', async () => {
    const req = await (classification[id] as { guarded: () => Promise<Request> }).guarded();
    expect(req.method).toBe(operationTable[id].method);
    expect(routes(operationTable[id].path, req.path), `${req.path} is not ${operationTable[id].path}`).toBe(true);
    const before = await productionFeatures();
    expectRequired(await asUser(app, editor, req.method, req.path, req.body));
    expect(await productionFeatures()).toBe(before);
  });
});

describe.each(writes.filter((id) => (classification[id] as { check?: unknown } | undefined)?.check))('%s', (id) => {
  it(`is unguarded: ${(classification[id] as { unguarded: string }).unguarded}`, async () => {
    await (classification[id] as { check: (id: OperationId) => Promise<void> }).check(id);
  });
});
