import { defineConfig } from 'vitest/config';

// Tiers: unit (pure code), int-pglite and int-postgres (the same server and database tests on both
// databases), e2e (a real server and Chromium). Tiers that need a service skip loudly when it is down,
// and fail instead when REQUIRE_SERVICES=1 (CI).
const intFiles = ['src/**/*.int.test.ts', 'tests/**/*.int.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        test: { name: 'unit', include: ['src/**/*.test.ts', 'tests/**/*.test.ts'], exclude: intFiles },
      },
      {
        test: { name: 'int-pglite', include: intFiles, env: { TEST_DB: 'pglite' }, testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        // The start-as-a-process test is about the embedded database; it runs in int-pglite only.
        test: { name: 'int-postgres', include: intFiles, exclude: ['src/server/main.int.test.ts'], env: { TEST_DB: 'postgres' }, testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
