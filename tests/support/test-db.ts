import { readFile } from 'node:fs/promises';
import { describe, inject } from 'vitest';
import { dumpPglite, openDatabase, type Database } from '../../src/db/client';
import { createPostgresDatabase, isPostgresReachable, reportMissingService, testDatabaseUrl } from './services';

/**
 * Each integration test file gets its own database: a PGlite cloned from a migrated template, on its own
 * thread (TEST_DB=pglite), or a new database on the real PostgreSQL (TEST_DB=postgres, TEST_DATABASE_URL),
 * copied from a migrated template database. The run's global setup (db-template.global.ts) migrates the
 * templates once; without it (a file run by other means) each file migrates its own.
 */
export const testDbKind = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';
const isAvailable = testDbKind === 'pglite' || (await isPostgresReachable(testDatabaseUrl));
if (!isAvailable) reportMissingService('int-postgres', `PostgreSQL not reachable at ${testDatabaseUrl}`);

/** `describe` when this tier's database is there, else a skipped describe (already reported loudly). */
export const describeDb: typeof describe = (isAvailable ? describe : describe.skip) as typeof describe;

/**
 * What the global setup provided; a server child process (test-server.ts) is no vitest worker and gets the
 * same values in its environment instead.
 */
export function findProvidedTemplates(): { pgliteTemplateFile?: string; postgresTemplateName?: string } {
  try {
    return { pgliteTemplateFile: inject('pgliteTemplateFile'), postgresTemplateName: inject('postgresTemplateName') };
  } catch {
    return {
      pgliteTemplateFile: process.env.TEST_PGLITE_TEMPLATE_FILE,
      postgresTemplateName: process.env.TEST_POSTGRES_TEMPLATE_NAME,
    };
  }
}

let pgliteTemplate: Promise<Blob> | undefined;
function getPgliteTemplate(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const file = findProvidedTemplates().pgliteTemplateFile;
    if (file) return new Blob([await readFile(file)]);
    const database = await openDatabase({});
    await database.migrate();
    const blob = await dumpPglite(database);
    await database.close();
    return blob;
  })();
  return pgliteTemplate;
}

export interface TestDatabase {
  database: Database;
  close(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDbKind === 'pglite') {
    // On its own thread, as the server opens it (src/server/app.ts).
    const database = await openDatabase({ loadDataDir: await getPgliteTemplate(), thread: true });
    return { database, close: () => database.close() };
  }
  const template = findProvidedTemplates().postgresTemplateName;
  const scratch = await createPostgresDatabase('dialflow_test', template || undefined);
  const database = await openDatabase({ url: scratch.url, poolSize: 4 });
  if (!template) await database.migrate();
  return {
    database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}
