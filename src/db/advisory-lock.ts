/**
 * PostgreSQL advisory locks for work that processes starting at once must do one at a time (the migrations, the
 * partitions' conversion). Each key is its own number, the same in every process.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Db } from './client';

/** The migrations: drizzle's migrator takes no lock of its own, so two processes would both apply a new one. */
export const MIGRATIONS_LOCK_KEY = 7_305_215_000;
/** Every change of the event tables' partitions (partitions.ts). */
export const PARTITIONS_LOCK_KEY = 7_305_215_001;
/** The seed of an empty database (server/seed.ts): one process seeds it, the others find it seeded. */
export const SEED_LOCK_KEY = 7_305_215_002;

const TRY_EVERY_MS = 500;

/**
 * Runs `work` holding a session-level advisory lock; `db` must be one connection (a pool would take and release the
 * lock on different ones). The lock is tried every half second rather than waited for: a waiting statement is an
 * open transaction, and a CREATE INDEX CONCURRENTLY in the lock's holder (the partitions' conversion) waits for every
 * open transaction, a waiting one too, which would deadlock.
 */
export async function withSessionLock<T>(db: Db, key: number, work: () => Promise<T>): Promise<T> {
  for (;;) {
    const result = (await db.execute(sql`select pg_try_advisory_lock(${key}) as got`)) as unknown as { rows: Array<{ got: boolean }> };
    if (result.rows[0]?.got) break;
    await sleep(TRY_EVERY_MS);
  }
  try {
    return await work();
  } finally {
    await db.execute(sql`select pg_advisory_unlock(${key})`);
  }
}
