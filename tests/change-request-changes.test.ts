// The changes of a change request: checked when proposed, edited and discarded by their author, and applied for real,
// all or nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, asUser, author, changeRequestCalls, environmentRequiring, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { adminJson, fixtures } from './support/fixtures.js';
import type { TestUser } from './support/users.js';

let app: TestApp;
let reviewer: TestUser;
const unique = uniqueNames();
const { newFlag, flagEnvironment } = fixtures(() => app, unique);
const events = eventReader(() => app);
const { base, propose, moveTo, read, requestIn } = changeRequestCalls(() => app);

const turnOn = (feature: string) => ({ feature, action: 'updateEnabled', payload: { enabled: true } });
const changePath = (id: number, changeId: number) => `${base}/change-requests/${id}/changes/${changeId}`;
const strategiesOf = (flag: string) => `${base}/features/${flag}/environments/production/strategies`;

/** A strategy added directly in production by the admin token (which may skip change requests); answers its id. */
const addStrategy = async (flag: string, body: object = { name: 'default' }): Promise<string> => (await adminJson(app, 'POST', strategiesOf(flag), body)).id;

/** Proposes, approves and applies `changes`; answers the apply's raw response. */
async function applied(changes: unknown) {
  const request = await requestIn('Approved', changes, { reviewer });
  return moveTo(reviewer, request.id, 'Applied');
}

async function expectApplied(changes: unknown) {
  const response = await applied(changes);
  expect(response.status, response.text).toBe(200);
  expect(response.json.state).toBe('Applied');
}

const feature = (flag: string) => adminJson(app, 'GET', `${base}/features/${flag}`);

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
    const error = expectError(await propose(writer, { feature: await newFlag('bad'), action, payload }), 400, 'ValidationError');
    expect(error.message).toContain(place);
    expect((await call(app, 'GET', `${base}/change-requests?state=Draft`)).json.filter((r: { createdBy: { id: number } }) => r.createdBy.id === writer.id)).toEqual([]);
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
    expect((await propose(onOffOnly, turnOn(flag))).status).toBe(200);
    const error = expectError(await propose(onOffOnly, { feature: flag, action: 'addStrategy', payload: { name: 'default' } }), 403, 'NoAccessError');
    expect(error.message).toContain('CREATE_FEATURE_STRATEGY');
  });

  it("puts an admin API token's proposals into the tokens' shared draft, not a user's", async () => {
    const byToken = (flag: string) => call(app, 'POST', `${base}/environments/production/change-requests`, { body: turnOn(flag) });
    const first = await byToken(await newFlag('by-token'));
    expect(first.status, first.text).toBe(200);
    const second = await byToken(await newFlag('by-token'));
    expect(second.json.id).toBe(first.json.id);
    expect(second.json.features).toHaveLength(2);
    expect((await propose(await author(app), turnOn(await newFlag('by-user')))).json.id).not.toBe(first.json.id);
  });

  it("leaves a token's request to be approved by a user: the token cannot approve it (403)", async () => {
    const proposed = await call(app, 'POST', `${base}/environments/production/change-requests`, { body: turnOn(await newFlag('token-review')) });
    const { id } = proposed.json;
    expect((await call(app, 'PUT', `${base}/change-requests/${id}/state`, { body: { state: 'In review' } })).status).toBe(200);
    expectError(await call(app, 'PUT', `${base}/change-requests/${id}/state`, { body: { state: 'Approved' } }), 403, 'NoAccessError');
    expect((await moveTo(reviewer, id, 'Approved')).json.state).toBe('Approved');
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
    expect(second.json.id).toBe(first.json.id);
    expect(second.json.features.map((f: { name: string }) => f.name)).toEqual([a, b]);
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-added']);
  });

  it('is one per author: another author opens their own', async () => {
    const first = await propose(await author(app), turnOn(await newFlag('mine')));
    const second = await propose(await author(app), turnOn(await newFlag('yours')));
    expect(second.json.id).not.toBe(first.json.id);
  });

  it('takes a title from its author', async () => {
    const writer = await author(app);
    const request = await requestIn('Draft', turnOn(await newFlag('titled')), { by: writer });
    const titled = await asUser(app, writer, 'PUT', `${base}/change-requests/${request.id}/title`, { title: 'Roll out in production' });
    expect(titled.status, titled.text).toBe(204);
    expect((await read(request.id)).title).toBe('Roll out in production');
  });

  it('takes no title from another user (403)', async () => {
    const request = await requestIn('Draft', turnOn(await newFlag('not-titled')));
    expectError(await asUser(app, reviewer, 'PUT', `${base}/change-requests/${request.id}/title`, { title: 'Mine now' }), 403, 'NoAccessError');
    expect((await read(request.id)).title).toBe(`Change request #${request.id}`);
  });
});

describe('editing a change', () => {
  it('replaces it, checked as when added, and records change-edited', async () => {
    const writer = await author(app);
    const flag = await newFlag('edited');
    const request = await requestIn('Draft', turnOn(flag), { by: writer });
    const changeId = request.features[0].changes[0].id;
    const since = await events.latestEventId();
    const edited = await asUser(app, writer, 'PUT', changePath(request.id, changeId), { feature: flag, action: 'addStrategy', payload: { name: 'default' } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.features).toMatchObject([{ name: flag, changes: [{ id: changeId, action: 'addStrategy', payload: { name: 'default' } }] }]);
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-edited']);
  });

  it('refuses a bad payload with 400', async () => {
    const writer = await author(app);
    const flag = await newFlag('edited-badly');
    const request = await requestIn('Draft', turnOn(flag), { by: writer });
    const error = expectError(await asUser(app, writer, 'PUT', changePath(request.id, request.features[0].changes[0].id), { feature: flag, action: 'updateEnabled', payload: {} }), 400, 'ValidationError');
    expect(error.message).toContain('body.payload.enabled');
  });

  it('is for the author only (403)', async () => {
    const flag = await newFlag('edit-others');
    const request = await requestIn('Draft', turnOn(flag));
    const change = request.features[0].changes[0];
    expectError(await asUser(app, await author(app), 'PUT', changePath(request.id, change.id), { feature: flag, action: 'updateEnabled', payload: { enabled: false } }), 403, 'NoAccessError');
    expect((await read(request.id)).features[0].changes[0].payload).toEqual({ enabled: true });
  });

  it('is allowed while the request is in review', async () => {
    const writer = await author(app);
    const flag = await newFlag('edit-in-review');
    const request = await requestIn('In review', turnOn(flag), { by: writer });
    const edited = await asUser(app, writer, 'PUT', changePath(request.id, request.features[0].changes[0].id), { feature: flag, action: 'updateEnabled', payload: { enabled: false } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.state).toBe('In review');
  });

  it('is 409 once the request is approved', async () => {
    const writer = await author(app);
    const flag = await newFlag('edit-approved');
    const request = await requestIn('Approved', turnOn(flag), { by: writer, reviewer });
    const error = expectError(await asUser(app, writer, 'PUT', changePath(request.id, request.features[0].changes[0].id), { feature: flag, action: 'updateEnabled', payload: { enabled: false } }), 409, 'ConflictError');
    expect(error.message).toContain('"Approved"');
  });

  it('withdraws the approvals given so far', async () => {
    const environment = await environmentRequiring(app, 'default', 'edits-withdraw', 2);
    const first = await approver(app, 'default', environment);
    const writer = await author(app);
    const flag = await newFlag('withdrawn');
    const request = await requestIn('In review', turnOn(flag), { by: writer, environment });
    expect((await moveTo(first, request.id, 'Approved')).json.approvals).toHaveLength(1);
    const edited = await asUser(app, writer, 'PUT', changePath(request.id, request.features[0].changes[0].id), { feature: flag, action: 'updateEnabled', payload: { enabled: false } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json).toMatchObject({ state: 'In review', approvals: [] });
  });

  it('is 404 for a change of another request', async () => {
    const writer = await author(app);
    const mine = await requestIn('Draft', turnOn(await newFlag('mine')), { by: writer });
    const theirs = await requestIn('Draft', turnOn(await newFlag('theirs')));
    expectError(await asUser(app, writer, 'DELETE', changePath(mine.id, theirs.features[0].changes[0].id)), 404, 'NotFoundError');
  });
});

describe('discarding a change', () => {
  it('removes it and records change-discarded', async () => {
    const writer = await author(app);
    const [kept, dropped] = [await newFlag('kept'), await newFlag('dropped')];
    const request = await requestIn('Draft', [turnOn(kept), turnOn(dropped)], { by: writer });
    const since = await events.latestEventId();
    const discarded = await asUser(app, writer, 'DELETE', changePath(request.id, request.features[1].changes[0].id));
    expect(discarded.status, discarded.text).toBe(204);
    expect((await read(request.id)).features.map((f: { name: string }) => f.name)).toEqual([kept]);
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-discarded']);
  });

  it('is for the author only (403)', async () => {
    const request = await requestIn('Draft', turnOn(await newFlag('discard-others')));
    expectError(await asUser(app, await author(app), 'DELETE', changePath(request.id, request.features[0].changes[0].id)), 403, 'NoAccessError');
    expect((await read(request.id)).features).toHaveLength(1);
  });

  it('is 409 once the request is applied', async () => {
    const writer = await author(app);
    const request = await requestIn('Approved', turnOn(await newFlag('discard-applied')), { by: writer, reviewer });
    expect((await moveTo(reviewer, request.id, 'Applied')).status).toBe(200);
    const error = expectError(await asUser(app, writer, 'DELETE', changePath(request.id, request.features[0].changes[0].id)), 409, 'ConflictError');
    expect(error.message).toContain('"Applied"');
  });
});

describe('every action is applied for real', () => {
  it('updateEnabled turns the flag off', async () => {
    const flag = await newFlag('turned-off');
    await adminJson(app, 'POST', `${base}/features/${flag}/environments/production/on`);
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
    const id = await addStrategy(flag, { name: 'flexibleRollout', parameters: { rollout: 10 } });
    await expectApplied({ feature: flag, action: 'updateStrategy', payload: { id, name: 'flexibleRollout', parameters: { rollout: 60 } } });
    expect((await flagEnvironment(flag, 'production')).strategies).toMatchObject([{ id, parameters: { rollout: '60' } }]);
  });

  it('deleteStrategy removes the strategy', async () => {
    const flag = await newFlag('strategy-deleted');
    const id = await addStrategy(flag);
    await expectApplied({ feature: flag, action: 'deleteStrategy', payload: { id } });
    expect((await flagEnvironment(flag, 'production')).strategies).toEqual([]);
  });

  it('reorderStrategy changes the order SDKs evaluate them in', async () => {
    const flag = await newFlag('strategy-reordered');
    const first = await addStrategy(flag, { name: 'default', sortOrder: 0 });
    const second = await addStrategy(flag, { name: 'flexibleRollout', sortOrder: 1 });
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
    await adminJson(app, 'POST', `${base}/features/${child}/dependencies`, { feature: parent });
    await expectApplied({ feature: child, action: 'deleteDependency', payload: { feature: parent } });
    expect((await feature(child)).dependencies).toEqual([]);
  });

  it('archiveFeature archives the flag', async () => {
    const flag = await newFlag('archived');
    await adminJson(app, 'POST', `${base}/features/${flag}/environments/production/on`);
    await expectApplied({ feature: flag, action: 'archiveFeature', payload: {} });
    expectError(await call(app, 'GET', `${base}/features/${flag}`), 404, 'NotFoundError');
    expect((await adminJson(app, 'GET', '/api/admin/archive/features/default')).features.map((f: { name: string }) => f.name)).toContain(flag);
  });

  it('records each change\'s usual event, then change-request-applied', async () => {
    const flag = await newFlag('events');
    const request = await requestIn('Approved', [{ feature: flag, action: 'addStrategy', payload: { name: 'default' } }, turnOn(flag)], { reviewer });
    const since = await events.latestEventId();
    expect((await moveTo(reviewer, request.id, 'Applied')).status).toBe(200);
    const written = await events.eventsSince(since);
    expect(written.map((e) => e.type)).toEqual(['feature-strategy-add', 'feature-environment-enabled', 'change-request-applied']);
    expect(written.slice(0, 2).every((e) => e.createdByUserId === reviewer.id)).toBe(true);
  });
});

describe('an apply that no longer fits the flag', () => {
  it('whose strategy was deleted directly is 409 naming the change, and applies nothing', async () => {
    const [other, flag] = [await newFlag('untouched'), await newFlag('strategy-gone')];
    const id = await addStrategy(flag);
    const request = await requestIn('Approved', [turnOn(other), { feature: flag, action: 'deleteStrategy', payload: { id } }], { reviewer });
    await adminJson(app, 'DELETE', `${strategiesOf(flag)}/${id}`);
    const since = await events.latestEventId();
    const error = expectError(await moveTo(reviewer, request.id, 'Applied'), 409, 'ConflictError');
    const failing = request.features[1].changes[0].id;
    expect(error.message).toContain(`Change ${failing}`);
    expect(error.message).toContain(flag);
    expect((await flagEnvironment(other, 'production')).enabled).toBe(false);
    expect((await read(request.id)).state).toBe('Approved');
    expect(await events.eventsSince(since)).toEqual([]);
  });

  it('whose flag was archived directly is 409 naming the change, and applies nothing', async () => {
    const [other, flag] = [await newFlag('kept-off'), await newFlag('archived-meanwhile')];
    const request = await requestIn('Approved', [{ feature: other, action: 'addStrategy', payload: { name: 'default' } }, turnOn(flag)], { reviewer });
    await adminJson(app, 'DELETE', `${base}/features/${flag}`);
    const error = expectError(await moveTo(reviewer, request.id, 'Applied'), 409, 'ConflictError');
    expect(error.message).toContain(`Change ${request.features[1].changes[0].id}`);
    expect(error.message).toContain(flag);
    expect((await flagEnvironment(other, 'production')).strategies).toEqual([]);
    expect((await read(request.id)).state).toBe('Approved');
  });
});
