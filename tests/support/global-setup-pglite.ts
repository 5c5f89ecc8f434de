import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createPgliteSnapshot } from '../../db/connect.js';

// Opening an empty PGlite is slow: migrate one once, and let every test file start from its copy.
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(tmpdir(), 'flag-service-snapshot-'));
  const file = path.join(dir, 'snapshot.tar');
  const snapshot = await createPgliteSnapshot();
  await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string;
    postgresRun: string;
  }
}
