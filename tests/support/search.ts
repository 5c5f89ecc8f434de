// Feature searches (GET /api/admin/search/features) that must succeed, through the typed client.
import type { operations, ServiceClient } from '../../client/index.js';
import { ok } from './fixtures.js';

export type SearchQuery = NonNullable<operations['searchFeatures']['parameters']['query']>;

/** The whole answer of a search as the client, which must answer 200. */
export const searchAs = (client: ServiceClient, query: SearchQuery = {}) => ok(client.GET('/api/admin/search/features', { params: { query } }), 200);

/** The flags a search of the project finds, as the client. */
export const searchProject = async (client: ServiceClient, project: string, query: SearchQuery = {}) =>
  (await searchAs(client, { project: `IS:${project}`, ...query })).features;

/** The names a search finds, in the order answered. */
export const namesFound = async (client: ServiceClient, query: SearchQuery) => (await searchAs(client, query)).features.map((f) => f.name);

/** The names a search finds, sorted: for filters, where only the set matters. */
export const foundSorted = async (client: ServiceClient, query: SearchQuery) => (await namesFound(client, query)).sort();

/** A sorted copy of the names, to compare with `foundSorted`. */
export const sorted = (names: string[]) => [...names].sort();
