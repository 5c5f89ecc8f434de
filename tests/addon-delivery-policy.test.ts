// Where and for how long deliveries are attempted: private addresses at send time, and the retry period.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, until } from './support/fixtures.js';
import { createWebhook, loggedAttempts, receivedCount } from './support/integrations.js';
import { startReceiver } from './support/receiver.js';

const unique = uniqueNames();

describe('with private addresses refused', () => {
  let strict: TestApp;
  const { newFlag } = fixtures(() => strict, unique);
  beforeAll(async () => {
    // Its own database: on PostgreSQL, a shared one would let this instance take the other app's deliveries too.
    strict = await startTestApp({ integrations: { allowPrivateUrls: false }, ownDatabase: true });
  });

  it('accepts a host name that does not resolve yet', async () => {
    const body = { provider: 'webhook', enabled: true, events: ['feature-created' as const], parameters: { url: 'http://not-registered-yet.invalid/hook' } };
    expect((await strict.admin.POST('/api/addons', { body })).response.status).toBe(201);
  });

  it('refuses to send to an address inside the network, logging the attempt as failed and not retried', async () => {
    const receiver = await startReceiver();
    // Stored as an integration made while private addresses were allowed (the setting changed since).
    const [addon] = await strict.db
      .insert(t.addons)
      .values({ provider: 'webhook', enabled: true, parameters: { url: `${receiver.url}/hook` }, events: ['feature-created'], projects: [], environments: [] })
      .returning();
    await newFlag('inside');
    const [attempt] = await loggedAttempts(strict, addon!.id, 1);
    expect(attempt).toMatchObject({ state: 'failed', details: { willRetry: false } });
    expect(attempt!.stateDetails).toContain('private');
    expect(receiver.received).toHaveLength(0);
    await strict.db.delete(t.addons).where(eq(t.addons.id, addon!.id));
  });
});

describe('with a short retry period', () => {
  let app: TestApp;
  const { newFlag } = fixtures(() => app, unique);
  beforeAll(async () => {
    app = await startTestApp({ integrations: { retryPeriodMs: 400, retryBaseMs: 100 } });
  });

  it('gives a delivery up once the period is over, then delivers the next event', async () => {
    const receiver = await startReceiver({ status: 503 });
    const addon = await createWebhook(app, receiver, ['feature-created']);
    const first = await newFlag('abandoned');
    const log = await until(
      'the delivery to be given up',
      async () => (await app.admin.GET('/api/admin/addons/{id}/events', { params: { path: { id: addon.id }, query: { limit: 100 } } })).data!.integrationEvents,
      (entries) => entries.some((entry) => !entry.details.willRetry),
      10_000,
    );
    expect(log[0]).toMatchObject({ state: 'failed', details: { willRetry: false, status: 503 } });
    expect(log.length).toBeGreaterThan(1);
    receiver.otherwise = { status: 200 };
    const sent = receiver.received.length;
    const second = await newFlag('after');
    const requests = await receivedCount(receiver, sent + 1);
    expect(requests.at(-1)!.json.featureName).toBe(second);
    expect(requests.every((r) => [first, second].includes(r.json.featureName))).toBe(true);
  });
});
