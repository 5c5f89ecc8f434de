// Integrations made through the admin API, and their delivery logs read back.
import { expect } from 'vitest';
import * as t from '../../db/schema.js';
import { ok, until } from './fixtures.js';
import { expectError, type TestApp } from './app.js';
import type { Receiver } from './receiver.js';
import type { components } from '../../generated/api.js';

type UpsertAddon = components['schemas']['UpsertAddon'];
type IntegrationEvent = components['schemas']['IntegrationEvent'];
type Answer = { response: Response; error?: unknown };

/** A webhook's body for feature-created events with these parameters (`url` among them). */
export const webhookBody = (parameters: UpsertAddon['parameters']): UpsertAddon => ({ provider: 'webhook', enabled: true, events: ['feature-created'], parameters });

/** Creates the integration (by admin token, or on `app` as given); answers it as created. */
export const createIntegration = (app: TestApp, body: UpsertAddon) => ok(app.admin.POST('/api/addons', { body }));

/** A webhook integration to the receiver for `events`; answers the created integration. */
export async function createWebhook(app: TestApp, receiver: Receiver, events: UpsertAddon['events'], extra: Partial<UpsertAddon> = {}) {
  const { parameters, ...rest } = extra;
  return createIntegration(app, { provider: 'webhook', enabled: true, events, parameters: { url: `${receiver.url}/hook`, ...parameters }, ...rest });
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
const refusal = async (pending: Promise<Answer>): Promise<string> => expectError(await pending, 400, 'ValidationError').message;

/** A create of an integration refused with 400; answers the message. */
export const refusedCreate = (app: TestApp, body: UpsertAddon) => refusal(app.admin.POST('/api/addons', { body }));

/**
 * The messages of the refused create, and of the refused update (on both routes) of an integration of the same
 * provider made with `valid` parameters.
 */
export async function refusedEverywhere(app: TestApp, body: UpsertAddon, valid: UpsertAddon['parameters']): Promise<string[]> {
  const { id } = await createIntegration(app, { ...body, parameters: valid });
  const params = { path: { id } };
  return [
    await refusedCreate(app, body),
    await refusal(app.admin.POST('/api/addons/{id}', { params, body })),
    await refusal(app.admin.PUT('/api/admin/addons/{id}', { params, body })),
  ];
}

/** The integration's delivery log, newest first. */
export async function deliveryLog(app: TestApp, id: number, query: { limit?: number; offset?: number } = {}): Promise<IntegrationEvent[]> {
  return (await ok(app.admin.GET('/api/admin/addons/{id}/events', { params: { path: { id }, query } }))).integrationEvents;
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
  const log = await until(`${count} logged attempts`, () => deliveryLog(app, id, { limit: 100 }), (entries) => entries.length >= count, 10_000);
  return [...log].reverse();
}
