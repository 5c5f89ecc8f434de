// Runs before every test file (vitest's setupFiles). Files that share a worker share one module graph (isolate:
// false in vitest.config.ts: importing the service anew for each file cost a fifth of the suite's time), so what a
// support module keeps for one file is reset here, and what a file started is stopped after it.
import { afterAll } from 'vitest';
import { forgetFileDatabase } from './app.js';
import { stopFileResources } from './file-end.js';
import { killLeftoverServices } from './service-process.js';
import './contract-parse-cache.js';

forgetFileDatabase();
afterAll(async () => {
  killLeftoverServices();
  await stopFileResources();
});
