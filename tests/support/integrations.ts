// Integrations made through the admin API, and their delivery logs read back.
import { expect } from 'vitest';
import { adminJson, until } from './fixtures.js';
import type { TestApp } from './app.js';
import type { Receiver } from './receiver.js';
import type { components } from '../../generated/api.js';

type UpsertAddon = components['schemas']['UpsertAddon'];
type IntegrationEvent = components['schemas']['IntegrationEvent'];

/** A webhook integration to the receiver for `events`; answers the created integration. */
export async function createWebhook(app: TestApp, receiver: Receiver, events: UpsertAddon['events'], extra: Partial<UpsertAddon> = {}) {
  const { parameters, ...rest } = extra;
  return adminJson(app, 'POST', '/api/addons', {
    provider: 'webhook',
    enabled: true,
    events,
    parameters: { url: `${receiver.url}/hook`, ...parameters },
    ...rest,
  }) as Promise<components['schemas']['Addon']>;
}

/** The integration's delivery log, newest first. */
export async function deliveryLog(app: TestApp, id: number, query = ''): Promise<IntegrationEvent[]> {
  return (await adminJson(app, 'GET', `/api/admin/addons/${id}/events${query}`)).integrationEvents;
}

/** Waits until the receiver got `count` requests (and a little longer, so that an extra one would show). */
export async function receivedCount(receiver: Receiver, count: number) {
  await until(`${count} requests at the receiver`, async () => receiver.received.length, (n) => n >= count, 10_000);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(receiver.received).toHaveLength(count);
  return receiver.received;
}

/** Waits until the log holds `count` attempts; answers them oldest first. */
export async function loggedAttempts(app: TestApp, id: number, count: number): Promise<IntegrationEvent[]> {
  const log = await until(`${count} logged attempts`, () => deliveryLog(app, id, '?limit=100'), (entries) => entries.length >= count, 10_000);
  return [...log].reverse();
}
