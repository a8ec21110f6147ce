import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpPglite, openDatabase } from '../../src/db/client';
import { createPostgresDatabase, isPostgresReachable, testDatabaseUrl } from './services';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite's data directory, dumped to a file once per run (int-pglite). */
    pgliteTemplateFile: string;
    /** A migrated PostgreSQL database each test file's database is copied from (int-postgres). */
    postgresTemplateName: string;
  }
}

/**
 * Migrates one database per run and lets every integration test file start from a copy of it: a new PGlite
 * costs seconds (initdb, then the migrations), and each test file runs in its own worker, so a template held
 * in memory would be built again by every file.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env?.TEST_DB === 'postgres') {
    project.provide('postgresTemplateName', '');
    // Reported (or failed, with REQUIRE_SERVICES=1) by the test files themselves.
    if (!(await isPostgresReachable(testDatabaseUrl))) return async () => {};
    const template = await createPostgresDatabase('dialflow_template');
    const database = await openDatabase({ url: template.url, poolSize: 1 });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    project.provide('postgresTemplateName', template.name);
    return () => template.drop();
  }
  const database = await openDatabase({});
  await database.migrate();
  const file = join(tmpdir(), `dialflow-pglite-template-${randomBytes(6).toString('hex')}.tar`);
  await writeFile(file, Buffer.from(await (await dumpPglite(database)).arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplateFile', file);
  return () => rm(file, { force: true });
}
