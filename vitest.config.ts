import { configDefaults, defineConfig } from 'vitest/config';

// Every suite runs on the embedded database and, when TEST_DATABASE_URL is set, on PostgreSQL too.
const databases = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

// Run once, on the embedded database. The browser tests (the admin UI's, tests/ui-*, and the browser SDKs'): they call
// the same API that other suites already check on both (the frontend API and OFREP answer from memory), and a second
// browser run would only add to CI's time. The slow clients': they check the HTTP server's timeouts, not a query.
// Suites where the database plays no part: packaging (the client package, the Dockerfile's steps), the API explorer, and those that start no app of
// the test's database (the evaluation engine's specification and agreement tests, configuration, the contract's
// examples, the start without recompiling, the layout rule) — on PostgreSQL they would run the very same code a second time.
const runOnce = [
  'tests/ui-*.test.ts',
  'tests/frontend-sdk-browser.test.ts',
  'tests/ofrep-web-provider-browser.test.ts',
  'tests/slow-clients.test.ts',
  'tests/client-package.test.ts',
  'tests/dockerfile-steps.test.ts',
  'tests/docs.test.ts',
  'tests/client-specification.test.ts',
  'tests/evaluation-sdk-agreement.test.ts',
  'tests/evaluation-explain.test.ts',
  'tests/config.test.ts',
  'tests/contract-examples.test.ts',
  'tests/start-without-recompiling.test.ts',
  'tests/layout.test.ts',
];

export default defineConfig({
  test: {
    // Most tests wait on the database and on timers, not on the CPU: three files at a time keep both cores busy
    // (vitest's default on two cores is one) and the whole suite inside CI's time.
    maxWorkers: 3,
    projects: databases.map((database) => ({
      test: {
        name: database,
        // tests/postgres/ holds what only PostgreSQL has: several replicas on one database, dropped connections.
        include: database === 'postgres' ? ['tests/*.test.ts', 'tests/postgres/*.test.ts'] : ['tests/*.test.ts'],
        exclude: database === 'postgres' ? [...configDefaults.exclude, ...runOnce] : configDefaults.exclude,
        env: { TEST_DB: database },
        globalSetup: [`tests/support/global-setup-${database}.ts`],
        // Files that share a worker share one module graph: importing the service anew for every file took about a
        // fifth of the suite's time. What must not outlive a file is reset by tests/support/per-file.ts.
        isolate: false,
        setupFiles: ['tests/support/per-file.ts'],
        testTimeout: 30_000,
        hookTimeout: 60_000,
      },
    })),
  },
});
