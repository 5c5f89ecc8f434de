// A scheduled change request on two instances sharing one PostgreSQL database: applied once, by one of them.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { approver, changeRequestCalls, requireChangeRequests } from '../support/change-requests.js';
import { eventReader, uniqueNames } from '../support/events.js';
import { fixtures, until } from '../support/fixtures.js';
import type { TestUser } from '../support/users.js';

let first: TestApp;
let second: TestApp;
let reviewer: TestUser;
const unique = uniqueNames();
const { newFlag, flagEnvironment } = fixtures(() => first, unique);
const events = eventReader(() => second);
const { moveTo, read, requestIn } = changeRequestCalls(() => first);

beforeAll(async () => {
  // Both look for due requests every 200 ms.
  first = await startTestApp();
  second = await startTestApp();
  await requireChangeRequests(first, 'default', 'production');
  reviewer = await approver(first, 'default', 'production');
});

describe('a request scheduled on one of two instances', () => {
  it('is applied exactly once', async () => {
    const flag = await newFlag('scheduled-once');
    const request = await requestIn('Approved', { feature: flag, action: 'addStrategy', payload: { name: 'default' } }, { reviewer });
    const since = await events.latestEventId();
    const scheduled = await moveTo(reviewer, request.id, 'Scheduled', { scheduledAt: new Date(Date.now() + 1000).toISOString() });
    expect(scheduled.response.status, JSON.stringify(scheduled.error)).toBe(200);
    await until(`request ${request.id} to be applied`, () => read(request.id), (r) => r.state === 'Applied', 10_000);
    const types = (await events.eventsSince(since)).map((e) => e.type);
    expect(types.filter((type) => type === 'change-request-applied')).toHaveLength(1);
    expect(types.filter((type) => type === 'change-request-scheduled-application-success')).toHaveLength(1);
    expect(types.filter((type) => type === 'feature-strategy-add')).toHaveLength(1);
    expect((await flagEnvironment(flag, 'production')).strategies).toMatchObject([{ name: 'default' }]);
  });

  it('several due at the same moment are each applied exactly once', async () => {
    const flags = [await newFlag('together'), await newFlag('together'), await newFlag('together'), await newFlag('together')];
    const requests = [];
    for (const flag of flags) requests.push(await requestIn('Approved', { feature: flag, action: 'addStrategy', payload: { name: 'default' } }, { reviewer }));
    const at = new Date(Date.now() + 1500).toISOString();
    const since = await events.latestEventId();
    for (const request of requests) expect((await moveTo(reviewer, request.id, 'Scheduled', { scheduledAt: at })).response.status).toBe(200);
    for (const request of requests) await until(`request ${request.id} to be applied`, () => read(request.id), (r) => r.state === 'Applied', 10_000);
    const written = await events.eventsSince(since);
    expect(written.filter((e) => e.type === 'change-request-applied').map((e) => e.data?.id).sort()).toEqual(requests.map((r) => r.id).sort());
    expect(written.filter((e) => e.type === 'feature-strategy-add').map((e) => e.featureName).sort()).toEqual([...flags].sort());
  });
});
