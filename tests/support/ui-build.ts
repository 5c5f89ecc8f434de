// The admin UI as the browser tests need it: built by `npm run build` (the `prepare` of every install), built again
// here only when its sources changed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { startTestApp, type TestApp } from './app.js';
import { launchBrowser } from './browser.js';

let checked = false;

/** Builds dist/ui when it is stale (checked once per test worker); fails the test file with the build's output when the build fails. */
export function buildUiIfStale(): void {
  if (checked) return;
  // NODE_ENV as an install has it (vitest sets `test`, with which Vite would bundle React's development build).
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
  expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
  expect(existsSync('dist/ui/index.html'), 'dist/ui was not built').toBe(true);
  checked = true;
}

/** What every admin UI browser test starts from: the UI built, Chromium, and the service on the embedded database. */
export async function startUiTest(): Promise<{ app: TestApp; browser: Browser }> {
  buildUiIfStale();
  const browser = await launchBrowser();
  const app = await startTestApp();
  return { app, browser };
}
