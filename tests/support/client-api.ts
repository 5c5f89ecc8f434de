// Reads of the client API (what backend SDKs poll), with a client token, through the typed client.
import { expect } from 'vitest';
import type { operations } from '../../client/index.js';
import type { TestApp } from './app.js';
import { ok } from './fixtures.js';

export type ClientFeaturesQuery = NonNullable<operations['getClientFeatures']['parameters']['query']>;

/** GET /api/client/features on the app with the token (null: none), the query and the headers; the typed answer. */
export const clientFeaturesOn = (app: TestApp, token: string | null, query: ClientFeaturesQuery = {}, headers: Record<string, string> = {}) =>
  app.clientWith(token ?? undefined).GET('/api/client/features', { params: { query }, headers });

/** GET /api/client/features that must answer 200; its body. */
export const clientFeaturesRead = (app: TestApp, token: string, query: ClientFeaturesQuery = {}, headers: Record<string, string> = {}) =>
  ok(clientFeaturesOn(app, token, query, headers), 200);

/** GET /api/client/features/{featureName} on the app with the token and the headers; the typed answer. */
export const clientFeatureOn = (app: TestApp, token: string, featureName: string, headers: Record<string, string> = {}) =>
  app.clientWith(token).GET('/api/client/features/{featureName}', { params: { path: { featureName } }, headers });

/** The names of the flags an answer lists, in its order. */
export const flagNames = (body: { features: { name: string }[] }) => body.features.map((f) => f.name);

export type DeltaQuery = NonNullable<operations['getClientDelta']['parameters']['query']>;

/** A first delta poll with the token and query, which must be a hydration; answers its ETag, to send back. */
export async function hydratedDelta(app: TestApp, token: string, query: DeltaQuery = {}): Promise<string> {
  const { data, error, response } = await app.clientWith(token).GET('/api/client/delta', { params: { query } });
  expect(response.status, JSON.stringify(error)).toBe(200);
  expect(data!.events.map((e) => e.type)).toEqual(['hydration']);
  return String(response.headers.get('etag'));
}
