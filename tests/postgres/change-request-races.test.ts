// Change requests moved at the same moment in an order that timing alone rarely produces: a row lock the test holds
// stops one call half-way until the other has started, so the interleaving is certain.
import { sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from '../support/app.js';
import { approver, changeRequestCalls, requireChangeRequests } from '../support/change-requests.js';
import { eventReader, uniqueNames } from '../support/events.js';
import { fixtures, until } from '../support/fixtures.js';
import type { TestUser } from '../support/users.js';

let app: TestApp;
let reviewer: TestUser;
const unique = uniqueNames();
const { newFlag, flagEnvironment, addStrategy } = fixtures(() => app, unique);
const events = eventReader(() => app);
const { moveTo, read, requestIn } = changeRequestCalls(() => app);

/** Runs `lock` (a `SELECT … FOR UPDATE`) in a transaction of its own; answers what ends it. */
async function hold(lock: SQL): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const transaction = app.db.transaction(async (tx) => {
    await tx.execute(lock);
    locked();
    await released;
  });
  await Promise.race([holding, transaction]);
  return async () => {
    release();
    await transaction;
  };
}

async function sessionsWaitingForALock(): Promise<number> {
  const result = (await app.db.execute(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0]!.n;
}

/** Waits until `n` sessions wait for a lock, or `unless` has settled. */
async function waitingFor(n: number, unless?: Promise<unknown>) {
  let settled = false;
  void unless?.finally(() => (settled = true));
  await until(`${n} sessions to wait for a lock`, async () => settled || (await sessionsWaitingForALock()) >= n, Boolean);
}

const countOf = async (since: number, type: string) => (await events.eventsSince(since)).filter((e) => e.type === type).length;

beforeAll(async () => {
  // Looks for due requests every 200 ms.
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  reviewer = await approver(app, 'default', 'production');
});

describe('applying', () => {
  it('a user applying a request the scheduler is applying is refused, and it is applied once', async () => {
    const flag = await newFlag('scheduler-and-user');
    const request = await requestIn('Approved', { feature: flag, action: 'addStrategy', payload: { name: 'default' } }, { reviewer });
    const since = await events.latestEventId();
    // Adding the strategy waits for the flag's row.
    const release = await hold(sql`select 1 from features where name = ${flag} for update`);
    const scheduled = await moveTo(reviewer, request.id, 'Scheduled', { scheduledAt: new Date(Date.now() + 300).toISOString() });
    expect(scheduled.response.status, JSON.stringify(scheduled.error)).toBe(200);
    await waitingFor(1);
    const applying = moveTo(reviewer, request.id, 'Applied');
    await waitingFor(2, applying);
    await release();
    const error = expectError(await applying, 409, 'ConflictError');
    expect(error.message).toContain(`The change request ${request.id} is "Applied": it cannot be applied`);
    expect(await countOf(since, 'change-request-applied')).toBe(1);
    expect(await countOf(since, 'change-request-scheduled-application-success')).toBe(1);
    expect(await countOf(since, 'feature-strategy-add')).toBe(1);
    expect((await flagEnvironment(flag, 'production')).strategies).toHaveLength(1);
  });

  it('scheduling a request while it is applied leaves it applied, not scheduled to be applied again', async () => {
    const flag = await newFlag('schedule-and-apply');
    const strategy = (await addStrategy(flag, { name: 'default' }, 'production')).id;
    const change = { feature: flag, action: 'updateStrategy' as const, payload: { id: strategy, name: 'flexibleRollout', parameters: { rollout: 60 } } };
    const request = await requestIn('Approved', change, { reviewer });
    const since = await events.latestEventId();
    // Scheduling records the strategy as it is on the change's row, and waits for it.
    const release = await hold(sql`select 1 from change_request_changes where id = ${request.features[0]!.changes[0]!.id} for update`);
    const scheduling = moveTo(reviewer, request.id, 'Scheduled', { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    await waitingFor(1, scheduling);
    const applying = moveTo(reviewer, request.id, 'Applied');
    await waitingFor(2, applying);
    await release();
    const [scheduled, applied] = await Promise.all([scheduling, applying]);
    expect(applied.response.status, JSON.stringify(applied.error)).toBe(200);
    if (scheduled.response.status !== 200) expectError(scheduled, 409, 'ConflictError');
    expect((await read(request.id)).state).toBe('Applied');
    expect(await countOf(since, 'change-request-applied')).toBe(1);
  });
});
