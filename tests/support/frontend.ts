// Flags with strategies, set up through the admin API, and calls of the frontend API: shared by the frontend API,
// playground and real frontend SDK tests.
import { call, type RawResponse, type TestApp } from './app.js';
import { adminJson } from './fixtures.js';

export interface StrategyBody {
  name: string;
  title?: string;
  disabled?: boolean;
  parameters?: Record<string, string | number>;
  constraints?: { contextName: string; operator: string; values?: string[]; value?: string; inverted?: boolean; caseInsensitive?: boolean }[];
  variants?: { name: string; weight?: number; weightType?: 'variable' | 'fix'; stickiness?: string; payload?: { type: string; value: string } }[];
  segments?: number[];
}

export interface FlagSetup {
  project?: string;
  environment?: string;
  /** Switched on in the environment unless false. */
  on?: boolean;
  /** The flag's variants in the environment. */
  variants?: object[];
  impressionData?: boolean;
}

export const flagPath = (name: string, project = 'default') => `/api/admin/projects/${project}/features/${encodeURIComponent(name)}`;

/** A new flag with these strategies in the environment (development by default), switched on there; answers its name. */
export async function flagWith(app: TestApp, name: string, strategies: StrategyBody[], setup: FlagSetup = {}): Promise<string> {
  const { project = 'default', environment = 'development', on = true, variants, impressionData } = setup;
  await adminJson(app, 'POST', `/api/admin/projects/${project}/features`, { name, ...(impressionData !== undefined && { impressionData }) });
  const environmentPath = `${flagPath(name, project)}/environments/${environment}`;
  for (const strategy of strategies) await adminJson(app, 'POST', `${environmentPath}/strategies`, strategy);
  if (variants) await adminJson(app, 'PUT', `${environmentPath}/variants`, variants);
  if (on) await adminJson(app, 'POST', `${environmentPath}/on`);
  return name;
}

/** GET /api/frontend (or a path below it) with the token and the query. */
export function frontendGet(app: TestApp, token: string | null, query: Record<string, string> = {}, path = '', headers: Record<string, string> = {}): Promise<RawResponse> {
  const search = new URLSearchParams(query).toString();
  return call(app, 'GET', `/api/frontend${path}${search ? `?${search}` : ''}`, { token, headers });
}

/** The names of the flags the frontend API lists for the token and query. */
export async function enabledNames(app: TestApp, token: string, query: Record<string, string> = {}): Promise<string[]> {
  const response = await frontendGet(app, token, query);
  if (response.status !== 200) throw new Error(`GET /api/frontend: ${response.status} ${response.text}`);
  return (response.json.toggles as { name: string }[]).map((toggle) => toggle.name);
}
