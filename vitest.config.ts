import { defineConfig } from 'vitest/config';

// Every suite runs on the embedded database and, when TEST_DATABASE_URL is set, on PostgreSQL too.
const databases = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export default defineConfig({
  test: {
    projects: databases.map((database) => ({
      test: {
        name: database,
        // tests/postgres/ holds what only PostgreSQL has: several replicas on one database, dropped connections.
        include: database === 'postgres' ? ['tests/*.test.ts', 'tests/postgres/*.test.ts'] : ['tests/*.test.ts'],
        env: { TEST_DB: database },
        globalSetup: [`tests/support/global-setup-${database}.ts`],
        testTimeout: 30_000,
        hookTimeout: 60_000,
      },
    })),
  },
});
