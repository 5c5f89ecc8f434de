import { defineConfig } from 'vitest/config';

// Mutation testing (`npm run mutate`): the embedded database only, and only the test files that exercise the
// mutated modules, so that one mutant's run stays short. MUTATE_TESTS (comma-separated paths) narrows it further.
const relevant = [
  // permission check, authentication, token cache
  'tests/access.test.ts',
  'tests/authentication-answers.test.ts',
  'tests/access-matrix.test.ts',
  'tests/api-tokens.test.ts',
  'tests/group-root-roles.test.ts',
  'tests/login.test.ts',
  'tests/multi-project-tokens.test.ts',
  'tests/token-expiry.test.ts',
  'tests/project-access.test.ts',
  'tests/personal-access-tokens.test.ts',
  'tests/first-start.test.ts',
  'tests/first-admin-user.test.ts',
  'tests/admin-user-on-restart.test.ts',
  'tests/project-creator-owner.test.ts',
  'tests/permission-denial-messages.test.ts',
  // client API scoping and the snapshot
  'tests/client-api.test.ts',
  'tests/segment-changes.test.ts',
  'tests/client-features-order-and-scope.test.ts',
  // constraint rules, variants
  'tests/feature-strategies.test.ts',
  'tests/segments.test.ts',
  'tests/variant-weights.test.ts',
  'tests/environment-variants.test.ts',
  'tests/regex-constraints.test.ts',
  'tests/constraint-values.test.ts',
  'tests/gradual-rollout-percentage.test.ts',
  // search filters
  'tests/feature-search.test.ts',
  'tests/search-filter-grammar.test.ts',
  'tests/favorites.test.ts',
  // the evaluation engine
  'tests/client-specification.test.ts',
  'tests/evaluation-sdk-agreement.test.ts',
  // SDK deltas and streaming
  'tests/client-stream-wire.test.ts',
  'tests/client-delta-polling.test.ts',
  // integrations: the URL check, the outbox
  'tests/addon-private-addresses.test.ts',
  'tests/addon-delivery-policy.test.ts',
  'tests/addon-deliveries.test.ts',
  'tests/addons.test.ts',
  'tests/url-safety-messages.test.ts',
  // change requests: the guard, applying
  'tests/change-requests.test.ts',
  'tests/change-request-changes.test.ts',
  'tests/change-request-bypasses.test.ts',
  'tests/change-request-guard-coverage.test.ts',
  'tests/change-request-self-exemption.test.ts',
  'tests/change-request-guard-messages.test.ts',
  // state import
  'tests/state-import.test.ts',
  'tests/state-import-invalid.test.ts',
  'tests/state-import-keep-drop.test.ts',
  'tests/state-import-v2.test.ts',
];

const include = process.env.MUTATE_TESTS ? process.env.MUTATE_TESTS.split(',') : relevant;

export default defineConfig({
  test: {
    include,
    env: { TEST_DB: 'pglite' },
    globalSetup: ['tests/support/global-setup-pglite.ts'],
    setupFiles: ['tests/support/per-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
