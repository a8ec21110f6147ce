import { defineConfig } from 'vitest/config';

// Tiers: unit (pure code: no service, no database, nothing to start), int-pglite and int-postgres (the same
// server and database tests on both databases), int-services (code against PostgreSQL, MariaDB and Redis
// that does not depend on the app's database, so once), e2e (a real server and Chromium). Tiers that need a
// service skip loudly when it is down, and fail instead when REQUIRE_SERVICES=1 (CI).
const intFiles = ['src/**/*.int.test.ts', 'tests/**/*.int.test.ts'];
const servicesFiles = ['src/**/*.services.test.ts', 'tests/**/*.services.test.ts'];
// About the embedded database (PGlite on its thread, started as a process): int-pglite only.
const embeddedDatabaseFiles = ['src/server/main.int.test.ts', 'src/db/pglite-thread-client.int.test.ts'];
// About a PostgreSQL server's connections going away (pg_terminate_backend): nothing to terminate on PGlite.
const postgresServerFiles = [
  'src/server/features/runtime/db-blink.int.test.ts',
  'src/server/features/contacts/contact-import-blink.int.test.ts',
  'src/server/features/bots/bot-conversations-outage.int.test.ts',
  'src/server/features/inbox/inbox-blink.int.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        test: { name: 'unit', include: ['src/**/*.test.ts', 'tests/**/*.test.ts'], exclude: [...intFiles, ...servicesFiles] },
      },
      {
        test: {
          name: 'int-pglite',
          include: intFiles,
          exclude: postgresServerFiles,
          env: { TEST_DB: 'pglite' },
          globalSetup: ['tests/support/db-template.global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'int-postgres',
          include: intFiles,
          exclude: embeddedDatabaseFiles,
          env: { TEST_DB: 'postgres' },
          globalSetup: ['tests/support/db-template.global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: { name: 'int-services', include: servicesFiles, testTimeout: 30_000, hookTimeout: 60_000 },
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
