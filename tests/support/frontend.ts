// Flags with strategies, set up through the admin API, and calls of the frontend API: shared by the frontend API,
// playground and real frontend SDK tests.
import type { components, operations } from '../../generated/api.js';
import type { TestApp } from './app.js';
import { envPath, inProject, ok } from './fixtures.js';

export type StrategyBody = components['schemas']['CreateFeatureStrategy'];

export interface FlagSetup {
  project?: string;
  environment?: string;
  /** Switched on in the environment unless false. */
  on?: boolean;
  /** The flag's variants in the environment (checked by the contract when sent: callers build them loosely typed). */
  variants?: object[];
  impressionData?: boolean;
}

/** A new flag with these strategies in the environment (development by default), switched on there; answers its name. */
export async function flagWith(app: TestApp, name: string, strategies: StrategyBody[], setup: FlagSetup = {}): Promise<string> {
  const { project = 'default', environment = 'development', on = true, variants, impressionData } = setup;
  await ok(app.admin.POST('/api/admin/projects/{projectId}/features', { ...inProject(project), body: { name, ...(impressionData !== undefined && { impressionData }) } }));
  const params = { path: envPath(name, environment, project) };
  const environmentPath = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}';
  for (const strategy of strategies) await ok(app.admin.POST(`${environmentPath}/strategies`, { params, body: strategy }));
  if (variants) await ok(app.admin.PUT(`${environmentPath}/variants`, { params, body: variants as components['schemas']['Variants'] }));
  if (on) await ok(app.admin.POST(`${environmentPath}/on`, { params }));
  return name;
}

type FrontendQuery = NonNullable<operations['getFrontendFeatures']['parameters']['query']>;

/** GET /api/frontend with the token (none when null), the context as query parameters and the headers; the typed answer. */
export const frontendGet = (app: TestApp, token: string | null, query: FrontendQuery = {}, headers: Record<string, string> = {}) =>
  app.clientWith(token ?? undefined).GET('/api/frontend', { params: { query }, headers });

/** GET /api/frontend/features/{featureName} with the token and the context as query parameters; the typed answer. */
export const frontendFlagGet = (app: TestApp, token: string, featureName: string, query: FrontendQuery = {}) =>
  app.clientWith(token).GET('/api/frontend/features/{featureName}', { params: { path: { featureName }, query } });

/**
 * A query with custom context fields as parameters of their own (`tier=gold`, `properties[tier]=gold`): the contract
 * reads any parameter it does not name as a custom field, which its types cannot name.
 */
export const withFields = (fields: Record<string, string>) => fields as FrontendQuery;

type FrontendContext = components['schemas']['FrontendContext'];

/**
 * POST /api/frontend with the context; the typed answer. The contract types a custom field at the top as
 * `string | null`, which no object with `properties` meets in TypeScript, hence the cast.
 */
export const frontendPost = (app: TestApp, token: string, context: Record<string, string | null | Record<string, string | null>>) =>
  app.clientWith(token).POST('/api/frontend', { body: { context: context as FrontendContext } });

/** The names of the flags the frontend API lists for the token and query. */
export async function enabledNames(app: TestApp, token: string | null, query: FrontendQuery = {}): Promise<string[]> {
  const { data, error, response } = await frontendGet(app, token, query);
  if (response.status !== 200) throw new Error(`GET /api/frontend: ${response.status} ${JSON.stringify(error)}`);
  return data!.toggles.map((toggle) => toggle.name);
}
