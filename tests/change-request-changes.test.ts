// The changes of a change request: checked when proposed, edited and discarded by their author, and applied for real,
// all or nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, author, changeRequestCalls, environmentRequiring, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { envPath, fixtures, flagPath, inProject, ok, turnOnChange as turnOn } from './support/fixtures.js';
import { clientAs, type TestUser } from './support/users.js';

let app: TestApp;
let reviewer: TestUser;
const unique = uniqueNames();
const { newFlag, flagEnvironment, flagOf: feature, turnOn: switchOn, archiveFlag, addStrategy, deleteStrategy } = fixtures(() => app, unique);
const events = eventReader(() => app);
const { propose, proposeRaw, moveTo, read, requestIn } = changeRequestCalls(() => app);

const changeAt = (changeRequestId: number, changeId: number) => ({ params: { path: { projectId: 'default', changeRequestId, changeId } } });
const changePath = '/api/admin/projects/{projectId}/change-requests/{changeRequestId}/changes/{changeId}' as const;
const editChange = (user: TestUser, id: number, changeId: number, body: components['schemas']['ChangeRequestChangeInput']) =>
  clientAs(app, user).PUT(changePath, { ...changeAt(id, changeId), body });
const discardChange = (user: TestUser, id: number, changeId: number) => clientAs(app, user).DELETE(changePath, changeAt(id, changeId));
const retitle = (user: TestUser, changeRequestId: number, title: string) =>
  clientAs(app, user).PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/title', {
    params: { path: { projectId: 'default', changeRequestId } },
    body: { title },
  });
/** Proposes turning the flag on in production with the admin token. */
const proposeByToken = (flag: string) =>
  app.admin.POST('/api/admin/projects/{projectId}/environments/{environment}/change-requests', {
    params: { path: { projectId: 'default', environment: 'production' } },
    body: turnOn(flag),
  });

/** A strategy added directly in production by the admin token (which may skip change requests); answers its id. */
const addProductionStrategy = async (flag: string, body: components['schemas']['CreateFeatureStrategy'] = { name: 'default' }) =>
  (await addStrategy(flag, body, 'production')).id;

/** Proposes, approves and applies `changes`; answers the apply's raw response. */
async function applied(changes: components['schemas']['ChangeRequestChangesInput']) {
  const request = await requestIn('Approved', changes, { reviewer });
  return moveTo(reviewer, request.id, 'Applied');
}

async function expectApplied(changes: components['schemas']['ChangeRequestChangesInput']) {
  const response = await applied(changes);
  expect(response.response.status, JSON.stringify(response.error)).toBe(200);
  expect(response.data!.state).toBe('Applied');
}


beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  reviewer = await approver(app, 'default', 'production');
});

describe('proposing checks each change when it is added', () => {
  const badPayloads: { action: string; payload: unknown; place: string }[] = [
    { action: 'updateEnabled', payload: { enabled: 'yes' }, place: 'body.payload.enabled' },
    { action: 'addStrategy', payload: { parameters: {} }, place: 'body.payload' },
    { action: 'updateStrategy', payload: { name: 'default' }, place: 'body.payload.id' },
    { action: 'deleteStrategy', payload: {}, place: 'body.payload.id' },
    { action: 'reorderStrategy', payload: [{ id: 'x' }], place: 'body.payload.0' },
    { action: 'patchVariant', payload: { variants: [{ weightType: 'variable' }] }, place: 'body.payload.variants.0' },
    { action: 'addDependency', payload: { enabled: true }, place: 'body.payload' },
    { action: 'deleteDependency', payload: {}, place: 'body.payload.feature' },
    { action: 'archiveFeature', payload: { now: true }, place: 'body.payload' },
  ];

  it.each(badPayloads)('refuses a bad $action payload with 400 naming $place', async ({ action, payload, place }) => {
    const writer = await author(app);
    const error = expectError(await proposeRaw(writer, { feature: await newFlag('bad'), action, payload }), 400, 'ValidationError');
    expect(error.message).toContain(place);
    const drafts = await ok(app.admin.GET('/api/admin/projects/{projectId}/change-requests', { params: { path: { projectId: 'default' }, query: { state: 'Draft' } } }), 200);
    expect(drafts.filter((r) => r.createdBy.id === writer.id)).toEqual([]);
  });

  it('names the place within a list of changes', async () => {
    const flag = await newFlag('listed');
    const error = expectError(await propose(await author(app), [turnOn(flag), { feature: flag, action: 'deleteStrategy', payload: {} }]), 400, 'ValidationError');
    expect(error.message).toContain('body[1].payload.id');
  });

  it('refuses an unknown flag with 400', async () => {
    const error = expectError(await propose(await author(app), turnOn('no-such-flag')), 400, 'ValidationError');
    expect(error.message).toContain('body.feature');
    expect(error.message).toContain('no-such-flag');
  });

  it("refuses a user lacking the action's permission there with 403", async () => {
    const onOffOnly = await approver(app, 'default', 'production', ['UPDATE_FEATURE_ENVIRONMENT']);
    const flag = await newFlag('permission');
    expect((await propose(onOffOnly, turnOn(flag))).response.status).toBe(200);
    const error = expectError(await propose(onOffOnly, { feature: flag, action: 'addStrategy', payload: { name: 'default' } }), 403, 'NoAccessError');
    expect(error.message).toContain('CREATE_FEATURE_STRATEGY');
  });

  it("puts an admin API token's proposals into the tokens' shared draft, not a user's", async () => {
    const first = await ok(proposeByToken(await newFlag('by-token')), 200);
    const second = await ok(proposeByToken(await newFlag('by-token')), 200);
    expect(second.id).toBe(first.id);
    expect(second.features).toHaveLength(2);
    expect((await propose(await author(app), turnOn(await newFlag('by-user')))).data!.id).not.toBe(first.id);
  });

  it("leaves a token's request to be approved by a user: the token cannot approve it (403)", async () => {
    const { id } = await ok(proposeByToken(await newFlag('token-review')), 200);
    const moveByToken = (state: components['schemas']['ChangeRequestState']) =>
      app.admin.PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/state', {
        params: { path: { projectId: 'default', changeRequestId: id } },
        body: { state },
      });
    expect((await moveByToken('In review')).response.status).toBe(200);
    expectError(await moveByToken('Approved'), 403, 'NoAccessError');
    expect((await moveTo(reviewer, id, 'Approved')).data!.state).toBe('Approved');
  });

  it('refuses an environment that does not require change requests with 409', async () => {
    const error = expectError(await propose(await author(app), turnOn(await newFlag('not-required')), 'development'), 409, 'ConflictError');
    expect(error.message).toContain('does not require change requests');
  });
});

describe('the draft', () => {
  it('collects later changes of the same author in the same request', async () => {
    const writer = await author(app);
    const [a, b] = [await newFlag('joined-a'), await newFlag('joined-b')];
    const first = await propose(writer, turnOn(a));
    const since = await events.latestEventId();
    const second = await propose(writer, turnOn(b));
    expect(second.data!.id).toBe(first.data!.id);
    expect(second.data!.features.map((f: { name: string }) => f.name)).toEqual([a, b]);
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-added']);
  });

  it('is one per author: another author opens their own', async () => {
    const first = await propose(await author(app), turnOn(await newFlag('mine')));
    const second = await propose(await author(app), turnOn(await newFlag('yours')));
    expect(second.data!.id).not.toBe(first.data!.id);
  });

  it('takes a title from its author', async () => {
    const writer = await author(app);
    const request = await requestIn('Draft', turnOn(await newFlag('titled')), { by: writer });
    const titled = await retitle(writer, request.id, 'Roll out in production');
    expect(titled.response.status, JSON.stringify(titled.error)).toBe(204);
    expect((await read(request.id)).title).toBe('Roll out in production');
  });

  it('takes no title from another user (403)', async () => {
    const request = await requestIn('Draft', turnOn(await newFlag('not-titled')));
    expectError(await retitle(reviewer, request.id, 'Mine now'), 403, 'NoAccessError');
    expect((await read(request.id)).title).toBe(`Change request #${request.id}`);
  });
});

describe('editing a change', () => {
  it('replaces it, checked as when added, and records change-edited', async () => {
    const writer = await author(app);
    const flag = await newFlag('edited');
    const request = await requestIn('Draft', turnOn(flag), { by: writer });
    const changeId = request.features[0]!.changes[0]!.id;
    const since = await events.latestEventId();
    const edited = await ok(editChange(writer, request.id, changeId, { feature: flag, action: 'addStrategy', payload: { name: 'default' } }), 200);
    expect(edited.features).toMatchObject([{ name: flag, changes: [{ id: changeId, action: 'addStrategy', payload: { name: 'default' } }] }]);
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-edited']);
  });

  it('refuses a bad payload with 400', async () => {
    const writer = await author(app);
    const flag = await newFlag('edited-badly');
    const request = await requestIn('Draft', turnOn(flag), { by: writer });
    const error = expectError(await editChange(writer, request.id, request.features[0]!.changes[0]!.id, { feature: flag, action: 'updateEnabled', payload: {} }), 400, 'ValidationError');
    expect(error.message).toContain('body.payload.enabled');
  });

  it('is for the author only (403)', async () => {
    const flag = await newFlag('edit-others');
    const request = await requestIn('Draft', turnOn(flag));
    const change = request.features[0]!.changes[0]!;
    expectError(await editChange(await author(app), request.id, change.id, { feature: flag, action: 'updateEnabled', payload: { enabled: false } }), 403, 'NoAccessError');
    expect((await read(request.id)).features[0]!.changes[0]!.payload).toEqual({ enabled: true });
  });

  it('is allowed while the request is in review', async () => {
    const writer = await author(app);
    const flag = await newFlag('edit-in-review');
    const request = await requestIn('In review', turnOn(flag), { by: writer });
    const edited = await ok(editChange(writer, request.id, request.features[0]!.changes[0]!.id, { feature: flag, action: 'updateEnabled', payload: { enabled: false } }), 200);
    expect(edited.state).toBe('In review');
  });

  it('is 409 once the request is approved', async () => {
    const writer = await author(app);
    const flag = await newFlag('edit-approved');
    const request = await requestIn('Approved', turnOn(flag), { by: writer, reviewer });
    const error = expectError(await editChange(writer, request.id, request.features[0]!.changes[0]!.id, { feature: flag, action: 'updateEnabled', payload: { enabled: false } }), 409, 'ConflictError');
    expect(error.message).toContain('"Approved"');
  });

  it('withdraws the approvals given so far', async () => {
    const environment = await environmentRequiring(app, 'default', 'edits-withdraw', 2);
    const first = await approver(app, 'default', environment);
    const writer = await author(app);
    const flag = await newFlag('withdrawn');
    const request = await requestIn('In review', turnOn(flag), { by: writer, environment });
    expect((await moveTo(first, request.id, 'Approved')).data!.approvals).toHaveLength(1);
    const edited = await ok(editChange(writer, request.id, request.features[0]!.changes[0]!.id, { feature: flag, action: 'updateEnabled', payload: { enabled: false } }), 200);
    expect(edited).toMatchObject({ state: 'In review', approvals: [] });
  });

  it('is 404 for a change of another request', async () => {
    const writer = await author(app);
    const mine = await requestIn('Draft', turnOn(await newFlag('mine')), { by: writer });
    const theirs = await requestIn('Draft', turnOn(await newFlag('theirs')));
    expectError(await discardChange(writer, mine.id, theirs.features[0]!.changes[0]!.id), 404, 'NotFoundError');
  });
});

describe('discarding a change', () => {
  it('removes it and records change-discarded', async () => {
    const writer = await author(app);
    const [kept, dropped] = [await newFlag('kept'), await newFlag('dropped')];
    const request = await requestIn('Draft', [turnOn(kept), turnOn(dropped)], { by: writer });
    const since = await events.latestEventId();
    const discarded = await discardChange(writer, request.id, request.features[1]!.changes[0]!.id);
    expect(discarded.response.status, JSON.stringify(discarded.error)).toBe(204);
    expect((await read(request.id)).features.map((f: { name: string }) => f.name)).toEqual([kept]);
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-discarded']);
  });

  it('is for the author only (403)', async () => {
    const request = await requestIn('Draft', turnOn(await newFlag('discard-others')));
    expectError(await discardChange(await author(app), request.id, request.features[0]!.changes[0]!.id), 403, 'NoAccessError');
    expect((await read(request.id)).features).toHaveLength(1);
  });

  it('is 409 once the request is applied', async () => {
    const writer = await author(app);
    const request = await requestIn('Approved', turnOn(await newFlag('discard-applied')), { by: writer, reviewer });
    expect((await moveTo(reviewer, request.id, 'Applied')).response.status).toBe(200);
    const error = expectError(await discardChange(writer, request.id, request.features[0]!.changes[0]!.id), 409, 'ConflictError');
    expect(error.message).toContain('"Applied"');
  });
});

describe('every action is applied for real', () => {
  it('updateEnabled turns the flag off', async () => {
    const flag = await newFlag('turned-off');
    await switchOn(flag, 'production');
    await expectApplied({ feature: flag, action: 'updateEnabled', payload: { enabled: false } });
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(false);
  });

  it('addStrategy adds the strategy', async () => {
    const flag = await newFlag('strategy-added');
    await expectApplied({ feature: flag, action: 'addStrategy', payload: { name: 'flexibleRollout', parameters: { rollout: 30 }, title: 'A third' } });
    expect((await flagEnvironment(flag, 'production')).strategies).toMatchObject([{ name: 'flexibleRollout', title: 'A third', parameters: { rollout: '30' } }]);
  });

  it('updateStrategy replaces the strategy', async () => {
    const flag = await newFlag('strategy-updated');
    const id = await addProductionStrategy(flag, { name: 'flexibleRollout', parameters: { rollout: 10 } });
    await expectApplied({ feature: flag, action: 'updateStrategy', payload: { id, name: 'flexibleRollout', parameters: { rollout: 60 } } });
    expect((await flagEnvironment(flag, 'production')).strategies).toMatchObject([{ id, parameters: { rollout: '60' } }]);
  });

  it('deleteStrategy removes the strategy', async () => {
    const flag = await newFlag('strategy-deleted');
    const id = await addProductionStrategy(flag);
    await expectApplied({ feature: flag, action: 'deleteStrategy', payload: { id } });
    expect((await flagEnvironment(flag, 'production')).strategies).toEqual([]);
  });

  it('reorderStrategy changes the order SDKs evaluate them in', async () => {
    const flag = await newFlag('strategy-reordered');
    const first = await addProductionStrategy(flag, { name: 'default', sortOrder: 0 });
    const second = await addProductionStrategy(flag, { name: 'flexibleRollout', sortOrder: 1 });
    await expectApplied({ feature: flag, action: 'reorderStrategy', payload: [{ id: first, sortOrder: 2 }, { id: second, sortOrder: 1 }] });
    expect((await flagEnvironment(flag, 'production')).strategies.map((s) => s.id)).toEqual([second, first]);
  });

  it("patchVariant replaces the flag's variants in the environment", async () => {
    const flag = await newFlag('variants');
    await expectApplied({ feature: flag, action: 'patchVariant', payload: { variants: [{ name: 'blue', weightType: 'variable', stickiness: 'default' }, { name: 'green', weightType: 'variable', stickiness: 'default' }] } });
    expect((await flagEnvironment(flag, 'production')).variants.map((v) => [v.name, v.weight])).toEqual([['blue', 500], ['green', 500]]);
    expect((await flagEnvironment(flag, 'development')).variants).toEqual([]);
  });

  it('addDependency makes the flag depend on its parent', async () => {
    const [parent, child] = [await newFlag('parent'), await newFlag('child')];
    await expectApplied({ feature: child, action: 'addDependency', payload: { feature: parent, enabled: false } });
    expect((await feature(child)).dependencies).toMatchObject([{ feature: parent, enabled: false }]);
  });

  it('deleteDependency removes the dependency', async () => {
    const [parent, child] = [await newFlag('old-parent'), await newFlag('orphan')];
    await ok(app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', { params: { path: flagPath(child) }, body: { feature: parent } }));
    await expectApplied({ feature: child, action: 'deleteDependency', payload: { feature: parent } });
    expect((await feature(child)).dependencies).toEqual([]);
  });

  it('archiveFeature archives the flag', async () => {
    const flag = await newFlag('archived');
    await switchOn(flag, 'production');
    await expectApplied({ feature: flag, action: 'archiveFeature', payload: {} });
    expectError(await app.admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(flag) } }), 404, 'NotFoundError');
    expect((await ok(app.admin.GET('/api/admin/archive/features/{projectId}', inProject('default')), 200)).features.map((f) => f.name)).toContain(flag);
  });

  it('records each change\'s usual event, then change-request-applied', async () => {
    const flag = await newFlag('events');
    const request = await requestIn('Approved', [{ feature: flag, action: 'addStrategy', payload: { name: 'default' } }, turnOn(flag)], { reviewer });
    const since = await events.latestEventId();
    expect((await moveTo(reviewer, request.id, 'Applied')).response.status).toBe(200);
    const written = await events.eventsSince(since);
    expect(written.map((e) => e.type)).toEqual(['feature-strategy-add', 'feature-environment-enabled', 'change-request-applied']);
    expect(written.slice(0, 2).every((e) => e.createdByUserId === reviewer.id)).toBe(true);
  });
});

describe('an apply that no longer fits the flag', () => {
  it('whose strategy was deleted directly is 409 naming the change, and applies nothing', async () => {
    const [other, flag] = [await newFlag('untouched'), await newFlag('strategy-gone')];
    const id = await addProductionStrategy(flag);
    const request = await requestIn('Approved', [turnOn(other), { feature: flag, action: 'deleteStrategy', payload: { id } }], { reviewer });
    await deleteStrategy(flag, id, 'production');
    const since = await events.latestEventId();
    const error = expectError(await moveTo(reviewer, request.id, 'Applied'), 409, 'ConflictError');
    const failing = request.features[1]!.changes[0]!.id;
    expect(error.message).toContain(`Change ${failing}`);
    expect(error.message).toContain(flag);
    expect((await flagEnvironment(other, 'production')).enabled).toBe(false);
    expect((await read(request.id)).state).toBe('Approved');
    expect(await events.eventsSince(since)).toEqual([]);
  });

  it('whose flag was archived directly is 409 naming the change, and applies nothing', async () => {
    const [other, flag] = [await newFlag('kept-off'), await newFlag('archived-meanwhile')];
    const request = await requestIn('Approved', [{ feature: other, action: 'addStrategy', payload: { name: 'default' } }, turnOn(flag)], { reviewer });
    await archiveFlag('default', flag);
    const error = expectError(await moveTo(reviewer, request.id, 'Applied'), 409, 'ConflictError');
    expect(error.message).toContain(`Change ${request.features[1]!.changes[0]!.id}`);
    expect(error.message).toContain(flag);
    expect((await flagEnvironment(other, 'production')).strategies).toEqual([]);
    expect((await read(request.id)).state).toBe('Approved');
  });
});
