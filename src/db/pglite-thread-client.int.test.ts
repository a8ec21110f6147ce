import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { dumpPglite, openDatabase, type Database } from './client';
import { PgliteThreadClient } from './pglite-thread-client';
import { users } from './schema';

// A database thread of its own: int-pglite only (vitest.config.ts), as it does not depend on TEST_DB.
describe('PGlite on its own thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ thread: true, lowPriority: true });
    await database.migrate();
  });
  afterAll(() => database.close());

  const newUser = (email: string) => ({ fullName: 'Thread Test', email, mobileNumber: '233200000001', passwordHash: 'x' });

  it('answers drizzle queries: inserts, selects with dates as Date, JSON and counts', async () => {
    const [inserted] = await database.db.insert(users).values(newUser('a@thread.test')).returning();
    expect(inserted!.createdAt).toBeInstanceOf(Date);
    const [found] = await database.db.select().from(users).where(eq(users.email, 'a@thread.test'));
    expect(found).toEqual(inserted);
    const result = await database.db.execute(sql`select ${JSON.stringify({ a: [1, 'two'] })}::jsonb as doc, 41 + 1 as n`);
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([{ doc: { a: [1, 'two'] }, n: 42 }]);
  });

  it('commits a transaction, and rolls one back when it throws', async () => {
    await database.db.transaction(async (tx) => {
      await tx.insert(users).values(newUser('commit@thread.test'));
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(users).values(newUser('rollback@thread.test'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const emails = (await database.db.select({ email: users.email }).from(users)).map((u) => u.email);
    expect(emails).toContain('commit@thread.test');
    expect(emails).not.toContain('rollback@thread.test');
  });

  it('holds other queries back while a transaction is open, as one connection does', async () => {
    const order: string[] = [];
    const findHeld = () => database.db.select().from(users).where(eq(users.email, 'held@thread.test'));
    let outside: Promise<unknown> | undefined;
    await database.db.transaction(async (t) => {
      await t.insert(users).values(newUser('held@thread.test'));
      // Outside the transaction: must not see the uncommitted row, and must wait until it commits.
      outside = findHeld().then((rows) => order.push(`outside saw ${rows.length}`));
      // The transaction's own queries, sent after it, are answered while it waits.
      for (let i = 0; i < 3; i++) expect(await t.select().from(users).where(eq(users.email, 'held@thread.test'))).toHaveLength(1);
      order.push('tx done');
    });
    await outside;
    expect(order).toEqual(['tx done', 'outside saw 1']);
  });

  it('passes Postgres errors with their code, and the thread goes on answering', async () => {
    await database.db.insert(users).values(newUser('dup@thread.test'));
    const err = await database.db
      .insert(users)
      .values(newUser('dup@thread.test'))
      .then(() => undefined)
      .catch((e: unknown) => e as { code?: string; cause?: { code?: string } });
    expect(err?.cause?.code ?? err?.code).toBe('23505');
    await expect(database.db.execute(sql`select * from no_such_table`)).rejects.toThrow(/no_such_table/);
    expect((await database.db.select().from(users).where(eq(users.email, 'dup@thread.test'))).length).toBe(1);
  });

  it('dumps a database that opens again, on a thread or not', async () => {
    const dump = await dumpPglite(database);
    for (const thread of [true, false]) {
      const copy = await openDatabase({ loadDataDir: dump, thread });
      const rows = await copy.db.select().from(users).where(eq(users.email, 'commit@thread.test'));
      expect(rows.length).toBe(1);
      await copy.close();
    }
  });

  it('refuses queries after close', async () => {
    const client = await PgliteThreadClient.start();
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.close();
    await expect(client.query('select 1')).rejects.toThrow('the database is closed');
  });
});

// The memory settings (docs/operations.md, "Memory and start"): PostgreSQL's 128 MB of shared buffers would be
// resident from the start; the server's thread and in-process PGlite both start with ours.
describe('PGlite memory settings', () => {
  const readSettings = async (database: Database) => {
    const result = await database.db.execute(
      sql`select current_setting('shared_buffers') as buffers, current_setting('max_connections') as connections`,
    );
    return (result as unknown as { rows: unknown[] }).rows[0];
  };

  it('starts the thread with the shared buffers asked for, and in-process PGlite with 16 MB', async () => {
    const onThread = await openDatabase({ thread: true, sharedBuffersMb: 24 });
    try {
      expect(await readSettings(onThread)).toEqual({ buffers: '24MB', connections: '8' });
    } finally {
      await onThread.close();
    }
    const inProcess = await openDatabase({});
    try {
      expect(await readSettings(inProcess)).toEqual({ buffers: '16MB', connections: '8' });
    } finally {
      await inProcess.close();
    }
  });
});
