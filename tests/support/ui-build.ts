// The admin UI as the browser tests need it: built by `npm run build` (the `prepare` of every install), built again
// here only when its sources changed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';

/** Builds dist/ui when it is stale; fails the test file with the build's output when the build fails. */
export function buildUiIfStale(): void {
  // NODE_ENV as an install has it (vitest sets `test`, with which Vite would bundle React's development build).
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
  expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
  expect(existsSync('dist/ui/index.html'), 'dist/ui was not built').toBe(true);
}
