import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../db/project-root.js';

const contractPath = path.join(projectRoot, 'openapi.yaml');
/** openapi.yaml as JSON, written by each build (scripts/build-if-stale.mjs) with the hash of the YAML it came from. */
const contractJsonPath = path.join(projectRoot, 'dist', 'openapi.json');

/**
 * The parsed contract. Parsing the YAML costs ~0.4 s of CPU at every start, so the JSON a build wrote is used
 * instead when it was made from this very text; otherwise (no build, or the YAML edited since) the YAML is parsed.
 */
async function parseContract(yaml: string): Promise<Record<string, unknown>> {
  const sha256 = createHash('sha256').update(yaml).digest('hex');
  try {
    const built = JSON.parse(readFileSync(contractJsonPath, 'utf8')) as { yamlSha256?: string; contract?: Record<string, unknown> };
    if (built.yamlSha256 === sha256 && built.contract) return built.contract;
  } catch {
    // No JSON yet: parse the YAML.
  }
  const { parse } = await import('yaml');
  return parse(yaml) as Record<string, unknown>;
}

/** The contract as written, and parsed. Read once per process. */
export const contractYaml = readFileSync(contractPath, 'utf8');
export const contract = await parseContract(contractYaml);

/** Schema keys whose children are names (of properties, definitions), not keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords that only annotate a schema: validation and serialization never read them. */
const isAnnotation = (key: string, value: unknown) => key === 'examples' || key === 'example' || ((key === 'description' || key === 'title') && typeof value === 'string');

function withoutAnnotations(schema: unknown, names = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutAnnotations(item));
  if (schema === null || typeof schema !== 'object') return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!names && isAnnotation(key, value)) continue;
    kept[key] = withoutAnnotations(value, !names && NAME_MAPS.has(key));
  }
  return kept;
}

/**
 * A copy of the contract for the routes: its schemas without their annotations. The routes' schemas are expanded
 * per operation, and the prose and examples repeated in each (the error schema's alone in ~900 copies) were megabytes
 * of heap that validation never reads; the documentation is served from the contract itself.
 */
export function routeContract(): Record<string, unknown> {
  const copy = (node: unknown, key: string | undefined, parentKey: string | undefined): unknown => {
    if (key === 'schema' || parentKey === 'schemas') return withoutAnnotations(node);
    if (Array.isArray(node)) return node.map((item) => copy(item, undefined, key));
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).map(([childKey, value]) => [childKey, copy(value, childKey, key)]));
  };
  return copy(contract, undefined, undefined) as Record<string, unknown>;
}
