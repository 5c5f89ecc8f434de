// The change-request guard's answers word for word, one guarded write of each rule, and the edges where it lets a write
// through: another environment, a project requiring none, a move that moves nothing, a flag that does not exist.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { guardFixtures } from './support/change-request-guard.js';
import { author, changeRequestCalls, requireChangeRequests } from './support/change-requests.js';
import { uniqueNames } from './support/events.js';
import { envPath, fixtures, flagPath, turnOnChange } from './support/fixtures.js';
import { clientAs, type TestUser } from './support/users.js';

let app: TestApp;
let editor: TestUser;
/** The editor's typed client: an Editor may not skip change requests. */
let asEditor: ReturnType<typeof clientAs>;
const unique = uniqueNames();
const { newFlag, newProject, createSegment, addStrategy, archiveFlag } = fixtures(() => app, unique);
const { makeOwner, onInProduction, parentOfChildOn } = guardFixtures(() => app, unique);
const { propose } = changeRequestCalls(() => app);

const REQUIRED = 'The environment "production" of the project "default" requires change requests: ';
const PROPOSE = 'propose this change with POST /api/admin/projects/default/environments/production/change-requests, or ask for the SKIP_CHANGE_REQUEST permission there.';
const NOT_PROPOSABLE = 'this change cannot be proposed in a change request: ask someone who holds the SKIP_CHANGE_REQUEST permission there to make it.';

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  editor = await author(app);
  asEditor = clientAs(app, editor);
});

const refusal = async (pending: Promise<{ response: Response; error?: unknown }>) => expectError(await pending, 409, 'ConflictError').message;

describe('a write a change request could make instead', () => {
  it('is refused saying where and how to propose it (turning a flag on there)', async () => {
    const flag = await newFlag('turned-on');
    const turnOn = asEditor.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', { params: { path: envPath(flag, 'production') } });
    expect(await refusal(turnOn)).toBe(REQUIRED + PROPOSE);
  });

  it("is refused saying how to propose it when it changes the project's every environment (a dependency)", async () => {
    const [parent, child] = [await newFlag('parent'), await newFlag('child')];
    const depend = asEditor.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', { params: { path: flagPath(child) }, body: { feature: parent } });
    expect(await refusal(depend)).toBe(REQUIRED + PROPOSE);
  });

  it('is refused saying how to propose it when it archives a flag on there', async () => {
    const flag = await onInProduction('archived');
    expect(await refusal(asEditor.DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(flag) } }))).toBe(REQUIRED + PROPOSE);
  });
});

describe('a write no change request can make', () => {
  it('is refused saying who may make it: reviving a parent a child on there depends on', async () => {
    const parent = await parentOfChildOn('revived');
    await archiveFlag('default', parent);
    expect(await refusal(asEditor.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName: parent } } }))).toBe(REQUIRED + NOT_PROPOSABLE);
  });

  it("is refused saying who may make it: removing the environment from the project", async () => {
    const remove = asEditor.DELETE('/api/admin/projects/{projectId}/environments/{environment}', { params: { path: { projectId: 'default', environment: 'production' } } });
    expect(await refusal(remove)).toBe(REQUIRED + NOT_PROPOSABLE);
  });

  it('is refused saying who may make it: changing a segment a flag uses there', async () => {
    const segment = await createSegment();
    const flag = await onInProduction('segmented');
    await addStrategy(flag, { name: 'default', segments: [segment.id] }, 'production');
    const update = asEditor.PUT('/api/admin/segments/{segmentId}', { params: { path: { segmentId: segment.id } }, body: { name: segment.name, constraints: [] } });
    expect(await refusal(update)).toBe(REQUIRED + NOT_PROPOSABLE);
  });

  it('is refused saying who may make it: moving a flag out of the project', async () => {
    const [flag, target] = [await onInProduction('moved'), await newProject('target')];
    await makeOwner(target, editor);
    const move = asEditor.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', { params: { path: flagPath(flag) }, body: { newProjectId: target } });
    expect(await refusal(move)).toBe(REQUIRED + NOT_PROPOSABLE);
  });
});

describe('moving a flag a pending change request is about', () => {
  it('is refused naming the request, its project and state, and what to do', async () => {
    const flag = await newFlag('pending');
    const proposed = await propose(editor, [turnOnChange(flag)]);
    expect(proposed.response.status, JSON.stringify(proposed.error)).toBe(200);
    const move = app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', { params: { path: flagPath(flag) }, body: { newProjectId: await newProject('away') } });
    expect(await refusal(move)).toBe(
      `The flag "${flag}" is in the change request ${proposed.data!.id} of the project "default", which is "Draft": ` +
        'apply, reject or cancel it (or discard its changes to the flag) before moving the flag.',
    );
  });

  it('into the project it is already in changes nothing and is allowed', async () => {
    const flag = await newFlag('staying');
    expect((await propose(editor, [turnOnChange(flag)])).response.status).toBe(200);
    const stay = await app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', { params: { path: flagPath(flag) }, body: { newProjectId: 'default' } });
    expect(stay.response.status).toBe(200);
  });
});

describe('the guard lets through', () => {
  it('a write to an environment of the project that requires no change requests', async () => {
    const flag = await newFlag('in-development');
    const turnOn = await asEditor.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', { params: { path: envPath(flag) } });
    expect(turnOn.response.status).toBe(200);
  });

  it('archiving a flag of a project that requires none', async () => {
    const project = await newProject('free');
    await makeOwner(project, editor);
    const flag = await newFlag('free', project);
    expect((await asEditor.DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(flag, project) } })).response.status).toBe(202);
  });

  it('to the 404 of reviving or deleting for good a flag that does not exist', async () => {
    const featureName = unique('never-created');
    expectError(await app.admin.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName } } }), 404, 'NotFoundError');
    expectError(await app.admin.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName } } }), 404, 'NotFoundError');
  });
});
