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
