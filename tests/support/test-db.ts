import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';
import { dumpPglite, openDatabase, type Database } from '../../src/db/client';
import { reportMissingService } from './services';

/**
 * Each integration test file gets its own database: a PGlite cloned from a migrated template, on its own
 * thread (TEST_DB=pglite), or a new database on the real PostgreSQL (TEST_DB=postgres, TEST_DATABASE_URL).
 */
export const testDbKind = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function isPostgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const isAvailable = testDbKind === 'pglite' || (await isPostgresReachable());
if (!isAvailable) reportMissingService('int-postgres', `PostgreSQL not reachable at ${adminUrl}`);

/** `describe` when this tier's database is there, else a skipped describe (already reported loudly). */
export const describeDb: typeof describe = (isAvailable ? describe : describe.skip) as typeof describe;

let pgliteTemplate: Promise<Blob> | undefined;
function getPgliteTemplate(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
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
  const name = `dialflow_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 4 });
  await database.migrate();
  return {
    database,
    async close() {
      await database.close();
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}
