// Scheduled change requests: applied when due, suspended when their flag was archived meanwhile, cancellable.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, changeRequestCalls, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures, turnOnChange, until } from './support/fixtures.js';
import type { TestUser } from './support/users.js';

let app: TestApp;
let reviewer: TestUser;
const unique = uniqueNames();
const { newFlag, flagEnvironment, archiveFlag, addStrategy, deleteStrategy } = fixtures(() => app, unique);
const events = eventReader(() => app);
const { moveTo, read, requestIn } = changeRequestCalls(() => app);

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
/** Waits until the request has left `Scheduled` or its schedule is no longer pending (the app looks every 200 ms). */
const settled = (id: number) => until(`request ${id} to be handled`, () => read(id), (r) => r.state !== 'Scheduled' || r.schedule?.status !== 'pending', 10_000);

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  reviewer = await approver(app, 'default', 'production');
});

describe('scheduling', () => {
  it('needs a scheduledAt in the future (400 for one in the past)', async () => {
    const request = await requestIn('Approved', turnOnChange(await newFlag('past')), { reviewer });
    const error = expectError(await moveTo(reviewer, request.id, 'Scheduled', { scheduledAt: inMs(-60_000) }), 400, 'ValidationError');
    expect(error.message).toContain('scheduledAt');
    expect((await read(request.id)).state).toBe('Approved');
  });

  it('needs a scheduledAt (400 without one)', async () => {
    const request = await requestIn('Approved', turnOnChange(await newFlag('no-time')), { reviewer });
    const error = expectError(await moveTo(reviewer, request.id, 'Scheduled'), 400, 'ValidationError');
    expect(error.message).toContain('scheduledAt');
  });

  it('needs APPLY_CHANGE_REQUEST', async () => {
    const approveOnly = await approver(app, 'default', 'production', ['APPROVE_CHANGE_REQUEST']);
    const request = await requestIn('Approved', turnOnChange(await newFlag('no-apply')), { reviewer: approveOnly });
    expectError(await moveTo(approveOnly, request.id, 'Scheduled', { scheduledAt: inMs(60_000) }), 403, 'NoAccessError');
  });

  it('is 409 for a request not yet approved', async () => {
    const request = await requestIn('In review', turnOnChange(await newFlag('unapproved')));
    const error = expectError(await moveTo(reviewer, request.id, 'Scheduled', { scheduledAt: inMs(60_000) }), 409, 'ConflictError');
    expect(error.message).toContain('"In review"');
  });

  it('shows the schedule as pending and records change-request-scheduled', async () => {
    const request = await requestIn('Approved', turnOnChange(await newFlag('later')), { reviewer });
    const at = inMs(3_600_000);
    const since = await events.latestEventId();
    const scheduled = await moveTo(reviewer, request.id, 'Scheduled', { scheduledAt: at });
    expect(scheduled.response.status, JSON.stringify(scheduled.error)).toBe(200);
    expect(scheduled.data!).toMatchObject({ state: 'Scheduled', schedule: { scheduledAt: at, status: 'pending' } });
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-request-scheduled']);
  });
});

describe('when a scheduled request is due', () => {
  it('is applied, with the changes and their events', async () => {
    const flag = await newFlag('due');
    const request = await requestIn('Approved', turnOnChange(flag), { reviewer });
    const since = await events.latestEventId();
    expect((await moveTo(reviewer, request.id, 'Scheduled', { scheduledAt: inMs(1000) })).response.status).toBe(200);
    expect((await settled(request.id)).state).toBe('Applied');
    expect((await flagEnvironment(flag, 'production')).enabled).toBe(true);
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual([
      'change-request-scheduled',
      // Turning on a flag without strategies there gives it the default one, as the direct operation does.
      'feature-strategy-add',
      'feature-environment-enabled',
      'change-request-applied',
      'change-request-scheduled-application-success',
    ]);
  });

  it('whose flag was archived meanwhile is suspended and applies nothing', async () => {
    const [other, flag] = [await newFlag('spared'), await newFlag('archived-meanwhile')];
    const request = await requestIn('Approved', [turnOnChange(other), turnOnChange(flag)], { reviewer });
    expect((await moveTo(reviewer, request.id, 'Scheduled', { scheduledAt: inMs(2000) })).response.status).toBe(200);
    await archiveFlag('default', flag);
    const since = await events.latestEventId();
    const handled = await settled(request.id);
    expect(handled).toMatchObject({ state: 'Scheduled', schedule: { status: 'suspended', reason: expect.stringContaining(flag) } });
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-request-schedule-suspended']);
    expect((await flagEnvironment(other, 'production')).enabled).toBe(false);
  });

  it('whose strategy was deleted meanwhile is suspended', async () => {
    const flag = await newFlag('strategy-gone');
    const strategy = await addStrategy(flag, { name: 'default' }, 'production');
    const request = await requestIn('Approved', { feature: flag, action: 'deleteStrategy', payload: { id: strategy.id } }, { reviewer });
    expect((await moveTo(reviewer, request.id, 'Scheduled', { scheduledAt: inMs(2000) })).response.status).toBe(200);
    await deleteStrategy(flag, strategy.id, 'production');
    expect(await settled(request.id)).toMatchObject({ state: 'Scheduled', schedule: { status: 'suspended' } });
  });
});

describe('cancelling a scheduled request', () => {
  it('before its time keeps it from being applied', async () => {
    const [cancelled, marker] = [await newFlag('cancelled'), await newFlag('marker')];
    const first = await requestIn('Approved', turnOnChange(cancelled), { reviewer });
    const second = await requestIn('Approved', turnOnChange(marker), { reviewer });
    expect((await moveTo(reviewer, first.id, 'Scheduled', { scheduledAt: inMs(1000) })).response.status).toBe(200);
    const since = await events.latestEventId();
    const response = await moveTo(reviewer, first.id, 'Cancelled');
    expect(response.response.status, JSON.stringify(response.error)).toBe(200);
    expect(response.data!.state).toBe('Cancelled');
    expect((await events.eventsSince(since)).map((e) => e.type)).toEqual(['change-request-cancelled']);
    // A request due after the cancelled one was: once it is applied, the cancelled one's time has passed too.
    expect((await moveTo(reviewer, second.id, 'Scheduled', { scheduledAt: inMs(1500) })).response.status).toBe(200);
    expect((await settled(second.id)).state).toBe('Applied');
    expect((await read(first.id)).state).toBe('Cancelled');
    expect((await flagEnvironment(cancelled, 'production')).enabled).toBe(false);
  });
});
