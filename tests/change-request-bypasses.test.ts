// Writes that changed what SDKs get in an environment requiring change requests without one: removing the environment,
// moving flags, segments, archive and revive around dependencies. Each is refused with 409 unless the caller may skip.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { expectRequired, guardFixtures } from './support/change-request-guard.js';
import { author, changeRequestCalls, proposeAs, requireChangeRequests } from './support/change-requests.js';
import { uniqueNames } from './support/events.js';
import { fixtures, flagPath, inProject, newApiToken } from './support/fixtures.js';
import { clientAs, type TestUser } from './support/users.js';

let app: TestApp;
let editor: TestUser;
let productionToken: string;
/** A project that requires no change requests, where the editor is an Owner. */
let side: string;
const unique = uniqueNames();
const { newFlag, newProject, flagEnvironment, createSegment, addStrategy, turnOn, archiveFlag } = fixtures(() => app, unique);
const { moveTo } = changeRequestCalls(() => app);
/** The typed client's `params` of the project environment. */
const projectEnvironment = (projectId: string) => ({ params: { path: { projectId, environment: 'production' } } });
const ofFeature = (featureName: string) => ({ params: { path: { featureName } } });
const asEditor = () => clientAs(app, editor);

const { productionFeatures, makeOwner, onInProduction, parentOfChildOn } = guardFixtures(() => app, unique, () => productionToken);

async function maySkipInProduction(user: TestUser, project: string) {
  const role = await app.admin.POST('/api/admin/roles', {
    body: { name: unique('Skipper'), type: 'custom', permissions: [{ name: 'SKIP_CHANGE_REQUEST', environment: 'production' }] },
  });
  expect(role.response.status, JSON.stringify(role.error)).toBe(201);
  const access = await app.admin.POST('/api/admin/projects/{projectId}/access', {
    params: { path: { projectId: project } },
    body: { roles: [role.data!.id], users: [user.id] },
  });
  expect(access.response.status, JSON.stringify(access.error)).toBe(200);
}

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  editor = await author(app);
  productionToken = await newApiToken(app, { type: 'client', environment: 'production' });
  side = await newProject('side');
  await makeOwner(side, editor);
});

describe("removing an environment from a project", () => {
  it('is refused where the project requires change requests, and its flags stay as they were', async () => {
    const project = await newProject('removal');
    await requireChangeRequests(app, project, 'production');
    await makeOwner(project, editor);
    const flag = await onInProduction('kept-on', project);
    const before = await productionFeatures();
    expectRequired(await clientAs(app, editor).DELETE('/api/admin/projects/{projectId}/environments/{environment}', projectEnvironment(project)), project);
    expect(await productionFeatures()).toBe(before);
    expect((await flagEnvironment(flag, 'production', project)).enabled).toBe(true);
  });

  it('is allowed to a caller who may skip change requests there', async () => {
    const project = await newProject('removal-skipped');
    await requireChangeRequests(app, project, 'production');
    const skipper = await author(app);
    await makeOwner(project, skipper);
    await maySkipInProduction(skipper, project);
    expect((await clientAs(app, skipper).DELETE('/api/admin/projects/{projectId}/environments/{environment}', projectEnvironment(project))).response.status).toBe(200);
  });

  it('is allowed where the project does not require change requests', async () => {
    const project = await newProject('removal-free');
    await makeOwner(project, editor);
    expect((await clientAs(app, editor).DELETE('/api/admin/projects/{projectId}/environments/{environment}', projectEnvironment(project))).response.status).toBe(200);
  });
});

describe('moving a flag to another project', () => {
  const move = (user: TestUser, flag: string, from: string, to: string) =>
    clientAs(app, user).POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', { params: { path: flagPath(flag, from) }, body: { newProjectId: to } });

  it('out of a project requiring change requests is refused, and the flag stays', async () => {
    const flag = await onInProduction('out');
    const before = await productionFeatures();
    expectRequired(await move(editor, flag, 'default', side));
    expect(await productionFeatures()).toBe(before);
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(true);
  });

  it('into a project requiring change requests is refused, and the flag stays', async () => {
    const flag = await onInProduction('in', side);
    const before = await productionFeatures();
    expectRequired(await move(editor, flag, side, 'default'));
    expect(await productionFeatures()).toBe(before);
    expect((await flagEnvironment(flag, 'production', side)).enabled).toBe(true);
  });

  it('between projects that require none is allowed', async () => {
    const other = await newProject('other-side');
    await makeOwner(other, editor);
    const flag = await onInProduction('free', side);
    expect((await move(editor, flag, side, other)).response.status).toBe(200);
  });

  it('is refused with 403 first to a caller who may not move flags into the target', async () => {
    const flag = await onInProduction('forbidden');
    const elsewhere = await newProject('not-owned');
    expectError(await move(editor, flag, 'default', elsewhere), 403, 'NoAccessError');
  });

  it('with a pending change request is refused even to an admin, until the request is closed', async () => {
    const flag = await onInProduction('pending');
    const proposed = await proposeAs(app, editor, { feature: flag, action: 'updateEnabled', payload: { enabled: false } });
    const moveByAdmin = () =>
      app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', { params: { path: flagPath(flag) }, body: { newProjectId: side } });
    expect(expectError(await moveByAdmin(), 409, 'ConflictError').message).toContain(`change request ${proposed.id}`);
    expect((await moveTo(editor, proposed.id, 'Cancelled')).response.status).toBe(200);
    expect((await moveByAdmin()).response.status).toBe(200);
  });
});

describe('segments used in an environment requiring change requests', () => {
  let guarded: string;

  beforeAll(async () => {
    guarded = await newProject('segment-guarded');
    await requireChangeRequests(app, guarded, 'production');
  });

  async function segmentUsedBy(...uses: { project: string; environment: string }[]): Promise<number> {
    const segment = await createSegment({ constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
    for (const { project, environment } of uses) {
      const flag = await newFlag('segmented', project);
      await addStrategy(flag, { name: 'default', segments: [segment.id] }, environment, project);
      await turnOn(flag, environment, project);
    }
    return segment.id;
  }

  const update = (user: TestUser, id: number) =>
    clientAs(app, user).PUT('/api/admin/segments/{segmentId}', {
      params: { path: { segmentId: id } },
      body: { name: unique('renamed'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['2'] }] },
    });

  it('cannot be updated, and SDKs get what they got', async () => {
    const id = await segmentUsedBy({ project: 'default', environment: 'production' });
    const before = await productionFeatures();
    expectRequired(await update(editor, id));
    expect(await productionFeatures()).toBe(before);
  });

  it('cannot be deleted, and the refusal says where change requests are required', async () => {
    const id = await segmentUsedBy({ project: guarded, environment: 'production' });
    expectRequired(await clientAs(app, editor).DELETE('/api/admin/segments/{segmentId}', { params: { path: { segmentId: id } } }), guarded);
    expect((await app.admin.GET('/api/admin/segments/{segmentId}', { params: { path: { segmentId: id } } })).response.status).toBe(200);
  });

  it('can be updated when used only where change requests are not required', async () => {
    const id = await segmentUsedBy({ project: 'default', environment: 'development' }, { project: side, environment: 'production' });
    expect((await update(editor, id)).response.status).toBe(204);
  });

  it('needs SKIP_CHANGE_REQUEST in every project environment that uses it', async () => {
    const id = await segmentUsedBy({ project: 'default', environment: 'production' }, { project: guarded, environment: 'production' });
    const user = await author(app);
    await maySkipInProduction(user, 'default');
    expectRequired(await update(user, id), guarded);
    await maySkipInProduction(user, guarded);
    expect((await update(user, id)).response.status).toBe(204);
  });
});

describe('archive and revive', () => {
  it('a flag archived while on comes back off everywhere', async () => {
    const flag = await onInProduction('revived');
    await turnOn(flag);
    await archiveFlag('default', flag);
    expect((await asEditor().POST('/api/admin/archive/revive/{featureName}', ofFeature(flag))).response.status).toBe(200);
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(false);
    expect((await flagEnvironment(flag, 'development')).enabled).toBe(false);
  });

  it('archiving a parent that a child on there depends on is refused', async () => {
    const parent = await parentOfChildOn('archived');
    const before = await productionFeatures();
    expectRequired(await asEditor().DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(parent) } }));
    expectRequired(await asEditor().POST('/api/admin/projects/{projectId}/archive', { ...inProject('default'), body: { features: [parent] } }));
    expect(await productionFeatures()).toBe(before);
  });

  it('reviving such a parent is refused, by either route', async () => {
    const parent = await parentOfChildOn('revived');
    await archiveFlag('default', parent);
    const before = await productionFeatures();
    expectRequired(await asEditor().POST('/api/admin/archive/revive/{featureName}', ofFeature(parent)));
    expectRequired(await asEditor().POST('/api/admin/projects/{projectId}/revive', { ...inProject('default'), body: { features: [parent] } }));
    expect(await productionFeatures()).toBe(before);
  });

  it('deleting such an archived parent for good is refused, by either route', async () => {
    const parent = await parentOfChildOn('deleted');
    await archiveFlag('default', parent);
    const before = await productionFeatures();
    expectRequired(await asEditor().DELETE('/api/admin/archive/{featureName}', ofFeature(parent)));
    expectRequired(await asEditor().POST('/api/admin/projects/{projectId}/delete', { ...inProject('default'), body: { features: [parent] } }));
    expect(await productionFeatures()).toBe(before);
  });

  it('a parent whose children are off there may be archived, revived and deleted', async () => {
    const parent = await newFlag('free-parent');
    const child = await newFlag('off-child');
    const dependency = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
      params: { path: flagPath(child) },
      body: { feature: parent, enabled: false },
    });
    expect(dependency.response.status, JSON.stringify(dependency.error)).toBe(200);
    const archive = () => asEditor().DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(parent) } });
    expect((await archive()).response.status).toBe(202);
    expect((await asEditor().POST('/api/admin/archive/revive/{featureName}', ofFeature(parent))).response.status).toBe(200);
    expect((await archive()).response.status).toBe(202);
    expect((await asEditor().DELETE('/api/admin/archive/{featureName}', ofFeature(parent))).response.status).toBe(200);
  });
});
