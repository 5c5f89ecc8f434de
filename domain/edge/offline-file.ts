// EDGE_OFFLINE_FILE: an edge that never calls an upstream serves a state exported from the admin API
// (GET /api/admin/state/export, version 2) to the tokens it was started with, whose scope their secret names.
import { readFile } from 'node:fs/promises';
import type { components } from '../../generated/api.js';
import type { EdgeSettings } from '../../kernel/edge-config.js';
import { ALL, scopeOfConfiguredSecret } from '../access/tokens.js';
import type { ClientConstraint } from '../client-features/snapshot.js';
import { normalizeConstraints, normalizeParameters } from '../flags/strategy-rules.js';
import type { ClientFeatures } from './scope.js';
import type { EdgeScopes } from './scopes.js';
import type { EdgeTokens } from './tokens.js';

type StateV2 = components['schemas']['StateV2'];
type StateFeature = components['schemas']['StateFeature'];

/** The revision an exported state is served at: it never changes. */
const FILE_REVISION = 1;

const constraintsOf = (constraints: components['schemas']['Constraint'][] | undefined, where: string) => normalizeConstraints(constraints, where) as ClientConstraint[];

/** The client API's answer for one environment and projects, from the document. */
function clientFeaturesOf(document: StateV2, environment: string, projects: string[] | null): ClientFeatures {
  const inScope = (f: StateFeature) => !f.archivedAt && (projects === null || projects.includes(f.project));
  const features = (document.features ?? []).filter(inScope).map((flag) => {
    const state = flag.environments?.find((e) => e.name === environment);
    const strategies = (state?.strategies ?? [])
      .filter((s) => !s.disabled)
      .sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0))
      .map((s, i) => ({
        name: s.name,
        parameters: normalizeParameters(s.name, s.parameters, flag.name, 'default'),
        constraints: constraintsOf(s.constraints, `${flag.name}.${environment}.strategies[${i}].constraints`),
        variants: s.variants ?? [],
        segments: [...(s.segments ?? [])].sort((a, b) => a - b),
      }));
    return {
      name: flag.name,
      type: flag.type ?? 'release',
      enabled: state?.enabled ?? false,
      stale: flag.stale ?? false,
      project: flag.project,
      description: flag.description ?? null,
      impressionData: flag.impressionData ?? false,
      strategies,
      variants: state?.variants ?? [],
      strategy: strategies[0]?.name ?? 'default',
      parameters: strategies[0]?.parameters ?? {},
      ...((flag.dependencies?.length ?? 0) > 0 && {
        dependencies: flag.dependencies!.map((d) => ({ feature: d.feature, enabled: d.enabled ?? true, ...(d.enabled !== false && d.variants?.length && { variants: d.variants }) })),
      }),
    };
  });
  const segments = (document.segments ?? []).map((s) => ({ id: s.id, name: s.name, constraints: constraintsOf(s.constraints, `segment ${s.id}.constraints`) }));
  return { version: 1, features, segments };
}

/** Reads the file and serves it to EDGE_TOKENS (client) and EDGE_FRONTEND_TOKENS; refuses a file or token it cannot serve. */
export async function loadOfflineFile(settings: Pick<EdgeSettings, 'offlineFile' | 'tokens' | 'frontendTokens'>, scopes: EdgeScopes, tokens: EdgeTokens): Promise<void> {
  let document: { version?: unknown };
  try {
    document = JSON.parse(await readFile(settings.offlineFile!, 'utf8')) as { version?: unknown };
  } catch (error) {
    throw new Error(`EDGE_OFFLINE_FILE names ${settings.offlineFile}, which cannot be read as JSON (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (document.version !== 2) throw new Error(`EDGE_OFFLINE_FILE must be a version 2 state export (GET /api/admin/state/export?version=2); this file is version ${String(document.version ?? 'unknown')}`);
  const kinds = [...settings.tokens.map((secret) => ['client', secret] as const), ...settings.frontendTokens.map((secret) => ['frontend', secret] as const)];
  for (const [type, secret] of kinds) {
    const { projects, environment } = scopeOfConfiguredSecret(secret, type);
    const scopeProjects = projects.includes(ALL) ? null : projects;
    const scope = scopes.scope(environment, scopeProjects);
    if (scope.origin === undefined) scope.replaceAll(clientFeaturesOf(document as StateV2, environment, scopeProjects), FILE_REVISION, 'file');
    tokens.add({ secret, tokenName: 'offline', type, projects, environment });
  }
}
