// Integrations made through the admin API, and their delivery logs read back.
import { expect } from 'vitest';
import * as t from '../../db/schema.js';
import { adminJson, until } from './fixtures.js';
import { call, expectError, type TestApp } from './app.js';
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

/**
 * A webhook stored as it was before a rule of today refused its parameters (or the instance's settings changed);
 * answers its id.
 */
export async function storedWebhook(app: TestApp, url: string, events: UpsertAddon['events'], parameters: Record<string, string> = {}) {
  const [row] = await app.db
    .insert(t.addons)
    .values({ provider: 'webhook', enabled: true, parameters: { url, ...parameters }, events, projects: [], environments: [] })
    .returning({ id: t.addons.id });
  return row!.id;
}

/** A create or update of an integration refused with 400; answers the message. */
export async function refusedUpsert(app: TestApp, method: string, path: string, body: UpsertAddon): Promise<string> {
  return expectError(await call(app, method, path, { body }), 400, 'ValidationError').message;
}

/**
 * The messages of the refused create, and of the refused update (on both routes) of an integration of the same
 * provider made with `valid` parameters.
 */
export async function refusedEverywhere(app: TestApp, body: UpsertAddon, valid: UpsertAddon['parameters']): Promise<string[]> {
  const { id } = await adminJson(app, 'POST', '/api/addons', { ...body, parameters: valid });
  return [
    await refusedUpsert(app, 'POST', '/api/addons', body),
    await refusedUpsert(app, 'POST', `/api/addons/${id}`, body),
    await refusedUpsert(app, 'PUT', `/api/admin/addons/${id}`, body),
  ];
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
