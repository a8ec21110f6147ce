/**
 * Blinks of PostgreSQL at a chosen statement (int-postgres only: PGlite has no connections to end). A test holds a
 * lock the statement must wait for, finds the connection that waits ({@link waitForBlockedOn}) and ends it with
 * pg_terminate_backend, as a failover, a restart or a network blip would.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { testDatabaseUrl } from './services';
import type { TestApp } from './test-app';

/** A connection of the test's own to its database (each file gets a clone): a lock holder, the terminator. */
export async function connectToTestDatabase(t: Pick<TestApp, 'db'>): Promise<pg.Client> {
  const result = (await t.db.execute(sql`select current_database() as name`)) as unknown as { rows: Array<{ name: string }> };
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${result.rows[0]!.name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

/** Waits until a connection waits for a lock in a statement like `pattern` (ILIKE); its pid. */
export async function waitForBlockedOn(admin: pg.Client, pattern: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    const found = await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike $1`,
      [pattern],
    );
    if (found.rows[0]) return found.rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no statement like ${pattern} waited for a lock`);
}

/** Ends the connection waiting in a statement like `pattern`. */
export async function terminateBlockedOn(admin: pg.Client, pattern: string): Promise<void> {
  await admin.query('select pg_terminate_backend($1)', [await waitForBlockedOn(admin, pattern)]);
}
