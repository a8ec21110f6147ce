import { defineConfig } from 'vitest/config';

// Tiers: unit (pure code: no service, no database, nothing to start), int-pglite and int-postgres (the same
// server and database tests on both databases), int-services (code against PostgreSQL, MariaDB and Redis
// that does not depend on the app's database, so once), e2e (a real server and Chromium). Tiers that need a
// service skip loudly when it is down, and fail instead when REQUIRE_SERVICES=1 (CI).
//
// How the tiers share the machine (the README's Tests section): vitest runs one file at a time on two cores unless
// told otherwise. unit, int-postgres and int-services run first, two files at a time: their files mostly wait on
// PostgreSQL, MariaDB, Redis or a server. int-pglite follows, also two files at a time, in workers that keep their
// modules from one file to the next (isolate: false: the server's modules load once per worker, not once per file;
// loading them once per file took a quarter of the tier's time). Its files that need more than that run last in
// int-pglite-alone, one at a time in fresh workers: the ones about what one process does when it has the machine (a
// runner's flood, a server's start, hops timed against a wall clock: PGlite runs in the test's own process and is
// busy on the CPU), and the ones that need fresh modules (a mocked module, the server's main module, sessions resumed
// across processes). The browser tests come last, one file at a time against one shared server and one shared
// Chromium (fileParallelism: false puts them in vitest's own serial group).
const TWO_AT_A_TIME = { maxWorkers: 2, sequence: { groupOrder: 0 } };
const intFiles = ['src/**/*.int.test.ts', 'tests/**/*.int.test.ts'];
const servicesFiles = ['src/**/*.services.test.ts', 'tests/**/*.services.test.ts'];
// About the embedded database (PGlite on its thread, started as a process): int-pglite only.
const embeddedDatabaseFiles = ['src/server/main.int.test.ts', 'src/db/pglite-thread-client.int.test.ts'];
// int-pglite-alone's files (above): timed against the wall clock or about one process, or needing fresh modules.
const pgliteAloneFiles = [
  'src/server/main.int.test.ts',
  'src/db/pglite-thread-client.int.test.ts',
  'src/server/features/runtime/runners.int.test.ts',
  'src/server/features/runtime/render-isolation.int.test.ts',
  'src/server/features/runtime/regexp-isolation.int.test.ts',
  'src/server/features/runtime/platform-services.int.test.ts',
  'src/server/features/runtime/resume.int.test.ts',
  'src/server/features/contacts/contacts-runtime.int.test.ts',
];
// About a PostgreSQL server's connections going away (pg_terminate_backend): nothing to terminate on PGlite.
const postgresServerFiles = [
  'src/server/features/runtime/db-blink.int.test.ts',
  'src/server/features/contacts/contact-import-blink.int.test.ts',
  'src/server/features/bots/bot-conversations-outage.int.test.ts',
  'src/server/features/media/media-upload-blink.int.test.ts',
  'src/server/features/inbox/inbox-blink.int.test.ts',
  // Two processes on one database, one of them killed: PGlite lives inside its one process.
  'src/server/features/campaigns/campaign-kill.int.test.ts',
  'src/server/features/campaigns/campaign-blink.int.test.ts',
  // The event tables' day partitions: PostgreSQL's alone (PGlite keeps plain tables).
  'src/server/features/retention/day-partitions.int.test.ts',
  // A fleet's processes starting at once on one database: PGlite is one process's.
  'src/server/fleet-start.int.test.ts',
];

const PGLITE = {
  env: { TEST_DB: 'pglite' },
  globalSetup: ['tests/support/db-template.global.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: [...intFiles, ...servicesFiles],
          ...TWO_AT_A_TIME,
        },
      },
      {
        test: {
          name: 'int-pglite',
          include: intFiles,
          exclude: [...postgresServerFiles, ...pgliteAloneFiles],
          isolate: false,
          ...PGLITE,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: { name: 'int-pglite-alone', include: pgliteAloneFiles, ...PGLITE, maxWorkers: 1, sequence: { groupOrder: 2 } },
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
          ...TWO_AT_A_TIME,
        },
      },
      {
        test: { name: 'int-services', include: servicesFiles, testTimeout: 30_000, hookTimeout: 60_000, ...TWO_AT_A_TIME },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page under a loaded machine can take longer than vitest's 1 s to show what a poll waits for.
          expect: { poll: { timeout: 5_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
