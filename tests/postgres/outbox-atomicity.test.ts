// The outbox is written in the event's own transaction: a write that fails after recording its event rolls its
// deliveries back with it. On PostgreSQL a delivery queued on another connection would outlive the rollback.
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import * as t from '../../db/schema.js';
import { expectError, startTestApp, type TestApp } from '../support/app.js';
import { approver, changeRequestCalls, requireChangeRequests } from '../support/change-requests.js';
import { uniqueNames } from '../support/events.js';
import { fixtures, turnOnChange } from '../support/fixtures.js';
import { createWebhook, receivedCount } from '../support/integrations.js';
import { startReceiver } from '../support/receiver.js';
import type { TestUser } from '../support/users.js';

let app: TestApp;
let reviewer: TestUser;
const unique = uniqueNames();
const { newFlag, addStrategy, turnOn, deleteStrategy } = fixtures(() => app, unique);
const { moveTo, requestIn } = changeRequestCalls(() => app);

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  reviewer = await approver(app, 'default', 'production');
});

it('a change request whose second change fails after the first recorded its event queues and delivers nothing of it', async () => {
  const receiver = await startReceiver();
  const addon = await createWebhook(app, receiver, ['feature-environment-enabled']);
  const [rolledBack, flag] = [await newFlag('rolled-back'), await newFlag('strategy-gone')];
  const { id } = await addStrategy(flag, { name: 'default' }, 'production');
  const request = await requestIn('Approved', [turnOnChange(rolledBack), { feature: flag, action: 'deleteStrategy', payload: { id } }], { reviewer });
  await deleteStrategy(flag, id, 'production');
  expectError(await moveTo(reviewer, request.id, 'Applied'), 409, 'ConflictError');

  expect(await app.db.select().from(t.integrationDeliveries).where(eq(t.integrationDeliveries.addonId, addon.id))).toEqual([]);
  await turnOn(flag, 'production');
  const [delivered] = await receivedCount(receiver, 1);
  expect(delivered!.json).toMatchObject({ type: 'feature-environment-enabled', featureName: flag });
});
