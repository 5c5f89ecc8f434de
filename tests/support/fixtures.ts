// Resources many test files create before the behaviour they check, made through the API as the admin.
import { expect } from 'vitest';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import { call, startTestApp, type RawResponse, type TestApp } from './app.js';
import { metrics, registration } from './sdk-reports.js';
import { createFlagAs, type TestUser } from './users.js';

type CreateFeature = components['schemas']['CreateFeature'];
type CreateFeatureStrategy = components['schemas']['CreateFeatureStrategy'];
type UpsertSegment = components['schemas']['UpsertSegment'];
type UpsertGroup = components['schemas']['UpsertGroup'];
type ClientMetrics = components['schemas']['ClientMetrics'];
type Variants = components['schemas']['Variants'];
type CreateApiToken = components['schemas']['CreateApiToken'];
/** What a flag is created with besides its name; `tags` written `type:value` (split at the first colon). */
export type FlagOptions = Omit<CreateFeature, 'name' | 'tags'> & { tags?: string[] };

const asTag = (tag: string) => {
  const colon = tag.indexOf(':');
  return { type: tag.slice(0, colon), value: tag.slice(colon + 1) };
};

/** The typed client's `params` of an operation on a project. */
export const inProject = (projectId: string) => ({ params: { path: { projectId } } });

/** The typed client's `params` of an operation on a thing named by its numeric `id` (a user, an integration). */
export const idParams = (id: number) => ({ params: { path: { id } } });

/** A flag's path parameters, for the typed client's `params: { path }`. */
export const flagPath = (featureName: string, projectId = 'default') => ({ projectId, featureName });

/** A flag environment's path parameters, for the typed client's `params: { path }`. */
export const envPath = (featureName: string, environment = 'development', projectId = 'default') => ({ projectId, featureName, environment });

/** The typed client's `params` of an operation on one of a flag's strategies. */
export const strategyParams = (featureName: string, strategyId: string, environment = 'development', projectId = 'default') => ({
  params: { path: { ...envPath(featureName, environment, projectId), strategyId } },
});

/** A gradual rollout strategy letting in `percent` of contexts, by `stickiness`. */
export const rollout = (percent: number, stickiness = 'default', groupId = 'g') => ({
  name: 'flexibleRollout',
  parameters: { rollout: percent, stickiness, groupId },
});

/** A change-request change that turns the flag on in the request's environment. */
export const turnOnChange = (feature: string) => ({ feature, action: 'updateEnabled' as const, payload: { enabled: true } });

/** The node SDK's metrics report (see sdk-reports.ts), its toggles held to the contract's counts: a typed client's body. */
export const sdkMetrics = (appName: string, instanceId: string, stop: string, toggles: ClientMetrics['bucket']['toggles']) =>
  metrics(appName, instanceId, stop, toggles) as ClientMetrics;

/** Registers the application as the node SDK does, with the client token; the typed answer. */
export const registerClient = (app: TestApp, token: string, appName: string, instanceId = 'i-1') =>
  app.clientWith(token).POST('/api/client/register', { body: registration(appName, instanceId) });

/** Sends an SDK metrics report with the client token; the typed answer. */
export const reportMetrics = (app: TestApp, token: string, body: ClientMetrics) => app.clientWith(token).POST('/api/client/metrics', { body });

/** Reads until `done` holds of the value (every 50 ms); fails naming `what` and the last value after `timeoutMs`. */
export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until `check` holds (of an SDK's state, say), for `timeoutMs`. */
export const seen = (what: string, check: () => boolean, timeoutMs = 10_000) => until(what, async () => check(), (held) => held, timeoutMs);

/** Awaits a typed-client call that must succeed (below 300, or exactly `status`); answers its data. */
export async function ok<R extends { data?: unknown; error?: unknown; response: Response }>(pending: Promise<R> | R, status?: number): Promise<NonNullable<R['data']>> {
  const { data, error, response } = await pending;
  const failure = `${response.url}: ${JSON.stringify(error)}`;
  if (status === undefined) expect(response.status, failure).toBeLessThan(300);
  else expect(response.status, failure).toBe(status);
  return data as NonNullable<R['data']>;
}

/** The app's Prometheus scrape, without a credential, which must answer 200. Raw: the scrape is not an operation of the contract. */
export async function scrapeOf(app: TestApp): Promise<RawResponse> {
  const response = await call(app, 'GET', '/internal-backstage/prometheus', { token: null });
  expect(response.status, response.text).toBe(200);
  return response;
}

/** Polls the client API `times` at once as the application `appName` (with the admin token). */
export const pollAs = (app: TestApp, appName: string, times: number) =>
  Promise.all(Array.from({ length: times }, () => app.admin.GET('/api/client/features', { headers: { 'unleash-appname': appName } })));

/** The request rates GET /api/admin/metrics/rps answers, which must be a 200. */
export const requestRates = (app: TestApp) => ok(app.admin.GET('/api/admin/metrics/rps'), 200);

/** A new API token (created with the admin token); answers its secret. */
export async function newApiToken(on: TestApp, body: Omit<CreateApiToken, 'tokenName'>): Promise<string> {
  const created = await ok(on.admin.POST('/api/admin/api-tokens', { body: { tokenName: `test-${body.type}`, ...body } }));
  expect(typeof created.secret).toBe('string');
  return created.secret;
}

/** A started app with a client token (all projects) for development and one for production. */
export async function appWithClientTokens() {
  const app = await startTestApp();
  const devToken = await newApiToken(app, { type: 'client', environment: 'development' });
  const prodToken = await newApiToken(app, { type: 'client', environment: 'production' });
  return { app, devToken, prodToken };
}

/**
 * Creators acting as the admin of the app `current()` returns (apps start in beforeAll, after this runs),
 * naming what they create with the file's `unique` so that names never collide with the file's own.
 */
export function fixtures(current: () => TestApp, unique: (prefix: string) => string) {
  /** A project with a fresh id (`<prefix>-<n>`), with every environment unless `environments` names some; answers the id. */
  async function newProject(prefix = 'project', environments?: string[]): Promise<string> {
    const id = unique(prefix);
    const result = await current().admin.POST('/api/admin/projects', { body: { id, name: `Project ${id}`, ...(environments && { environments }) } });
    expect(result.response.status, JSON.stringify(result.error)).toBe(201);
    return id;
  }

  /** A flag named `name` in the project, with the tags asked for; answers its name. */
  async function createFlag(projectId: string, name: string, options: FlagOptions = {}): Promise<string> {
    const { tags, ...rest } = options;
    const body = { name, ...rest, ...(tags && { tags: tags.map(asTag) }) };
    const result = await current().admin.POST('/api/admin/projects/{projectId}/features', { params: { path: { projectId } }, body });
    expect(result.response.status, JSON.stringify(result.error)).toBe(201);
    return name;
  }

  /** A flag with a fresh name (`<prefix>-<n>`); answers its name. */
  const newFlag = (prefix = 'flag', projectId = 'default', options: FlagOptions = {}) => createFlag(projectId, unique(prefix), options);

  /** Tries to create a flag with a fresh name (`flag-<n>`) in the project as the user's session; the typed answer. */
  const newFlagAs = (user: TestUser, projectId = 'default') => createFlagAs(current(), user, projectId, unique('flag'));

  /** The flag's state in one environment, as the flag's GET shows it. */
  async function flagEnvironment(featureName: string, environment = 'development', projectId = 'default') {
    const { data, response } = await current().admin.GET('/api/admin/projects/{projectId}/features/{featureName}', {
      params: { path: { projectId, featureName } },
    });
    expect(response.status).toBe(200);
    const found = data!.environments.find((e) => e.name === environment);
    expect(found, `${featureName} has no environment ${environment}`).toBeDefined();
    return found!;
  }

  /** The flag as its GET shows it. */
  async function flagOf(featureName: string, projectId = 'default') {
    const result = await current().admin.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(featureName, projectId) } });
    expect(result.response.status, JSON.stringify(result.error)).toBe(200);
    return result.data!;
  }

  /** Archives the flag. */
  async function archiveFlag(projectId: string, featureName: string) {
    const result = await current().admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: flagPath(featureName, projectId) } });
    expect(result.response.status, JSON.stringify(result.error)).toBe(202);
  }

  /** Turns the flag on in the environment. */
  async function turnOn(featureName: string, environment = 'development', projectId = 'default') {
    const result = await current().admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', {
      params: { path: envPath(featureName, environment, projectId) },
    });
    expect(result.response.status, JSON.stringify(result.error)).toBe(200);
  }

  /** Turns the flag off in the environment. */
  async function turnOff(featureName: string, environment = 'development', projectId = 'default') {
    const result = await current().admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', {
      params: { path: envPath(featureName, environment, projectId) },
    });
    expect(result.response.status, JSON.stringify(result.error)).toBe(200);
  }

  /** Adds a strategy (by default `default`) to the flag in the environment; answers the strategy. */
  async function addStrategy(featureName: string, body: CreateFeatureStrategy = { name: 'default' }, environment = 'development', projectId = 'default') {
    const result = await current().admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: envPath(featureName, environment, projectId) },
      body,
    });
    expect(result.response.status, JSON.stringify(result.error)).toBe(200);
    return result.data!;
  }

  /** Tags the flag (the tag type must exist). */
  async function tagFlag(featureName: string, value: string, type = 'simple') {
    const result = await current().admin.POST('/api/admin/features/{featureName}/tags', { params: { path: { featureName } }, body: { type, value } });
    expect(result.response.status, JSON.stringify(result.error)).toBe(201);
  }

  /** Makes the child depend on the parent (on, unless `enabled` is false) in the default project. */
  async function addDependency(child: string, parent: string, enabled?: boolean) {
    const result = await current().admin.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
      params: { path: flagPath(child) },
      body: { feature: parent, ...(enabled !== undefined && { enabled }) },
    });
    expect(result.response.status, JSON.stringify(result.error)).toBe(200);
  }

  /** Deletes the flag's strategy in the environment. */
  async function deleteStrategy(featureName: string, strategyId: string, environment = 'development', projectId = 'default') {
    const result = await current().admin.DELETE('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { ...envPath(featureName, environment, projectId), strategyId } },
    });
    expect(result.response.status, JSON.stringify(result.error)).toBe(200);
  }

  /** The flag's strategies in the environment. */
  async function strategiesOf(featureName: string, environment = 'development', projectId = 'default') {
    const result = await current().admin.GET('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: envPath(featureName, environment, projectId) },
    });
    expect(result.response.status, JSON.stringify(result.error)).toBe(200);
    return result.data!;
  }

  /** A segment with a fresh name (`segment-<n>`) and no constraints unless `fields` says otherwise; answers the segment. */
  async function createSegment(fields: Partial<UpsertSegment> = {}) {
    const result = await current().admin.POST('/api/admin/segments', { body: { name: unique('segment'), constraints: [], ...fields } });
    expect(result.response.status, JSON.stringify(result.error)).toBe(201);
    return result.data!;
  }

  /** Replaces the flag's variants in the environment; answers them as stored. */
  async function setVariants(featureName: string, variants: Variants, environment = 'development', projectId = 'default') {
    const result = await current().admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants', {
      params: { path: envPath(featureName, environment, projectId) },
      body: variants,
    });
    expect(result.response.status, JSON.stringify(result.error)).toBe(200);
    return result.data!;
  }

  /** Marks the flags of the project stale. */
  async function markStale(projectId: string, features: string[]) {
    const result = await current().admin.POST('/api/admin/projects/{projectId}/stale', { params: { path: { projectId } }, body: { features, stale: true } });
    expect(result.response.status, JSON.stringify(result.error)).toBe(202);
  }

  /** A tag of the type (which must exist). */
  async function createTag(type: string, value: string) {
    const result = await current().admin.POST('/api/admin/tags', { body: { type, value } });
    expect(result.response.status, JSON.stringify(result.error)).toBe(201);
  }

  /** Flags carrying the tags, written as rows (no event, unlike the API): for tests that count the events of tags. */
  async function flagsWithTags(names: string[], tags: { type: string; value: string }[], project = 'default') {
    await current().db.insert(t.features).values(names.map((name) => ({ name, project })));
    const rows = names.flatMap((featureName) => tags.map((tag) => ({ featureName, tagType: tag.type, tagValue: tag.value })));
    if (rows.length > 0) await current().db.insert(t.featureTags).values(rows);
  }

  /** The flag's hourly SDK counts, as the raw metrics read answers them. */
  async function usageOf(featureName: string) {
    const result = await current().admin.GET('/api/admin/client-metrics/features/{featureName}/raw', { params: { path: { featureName } } });
    expect(result.response.status, JSON.stringify(result.error)).toBe(200);
    return result.data!;
  }

  /** A group with a fresh name (`group-<n>`) unless `fields` names it; answers the group. */
  async function createGroup(fields: Partial<UpsertGroup> = {}) {
    const result = await current().admin.POST('/api/admin/groups', { body: { name: unique('group'), ...fields } });
    expect(result.response.status, JSON.stringify(result.error)).toBe(201);
    return result.data!;
  }

  return {
    newProject,
    createFlag,
    newFlag,
    newFlagAs,
    flagEnvironment,
    flagOf,
    archiveFlag,
    turnOn,
    turnOff,
    addStrategy,
    deleteStrategy,
    addDependency,
    strategiesOf,
    setVariants,
    markStale,
    createSegment,
    createGroup,
    createTag,
    tagFlag,
    flagsWithTags,
    usageOf,
  };
}
