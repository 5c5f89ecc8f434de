import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../db/project-root.js';

const contractPath = path.join(projectRoot, 'openapi.yaml');

/** The contract as written, and parsed. Read once per process. */
export const contractYaml = readFileSync(contractPath, 'utf8');
export const contract = parse(contractYaml) as Record<string, unknown>;
