import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parse } from 'yaml';

const contractPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'openapi.yaml');

/** The contract as written, and parsed. Read once per process. */
export const contractYaml = readFileSync(contractPath, 'utf8');
export const contract = parse(contractYaml) as Record<string, unknown>;
