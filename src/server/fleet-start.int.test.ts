import { expect, it } from 'vitest';
import { count, sql } from 'drizzle-orm';
import { openDatabase } from '../db/client';
import { users } from '../db/schema';
import { createPostgresDatabase } from '../../tests/support/services';
import { describeDb } from '../../tests/support/test-db';
import { seedDatabase } from './seed';
import journalFile from '../db/migrations/meta/_journal.json';

const MIGRATIONS = journalFile.entries.length;

/**
 * The processes of a fleet (a console and runtimes, an orchestrator's replicas) start at once on one database: a new
 * one, or one a release's new migration is waiting for. Each migrates and seeds; one does it, none fails.
 */
describeDb('processes starting at once on one empty database', () => {
  it('apply the migrations once and seed once, every start succeeding', async () => {
    const scratch = await createPostgresDatabase('dialflow_fleet');
    const processes = await Promise.all([1, 2, 3].map(() => openDatabase({ url: scratch.url, poolSize: 3 })));
    try {
      const migrated = await Promise.allSettled(processes.map((p) => p.migrate()));
      expect(migrated.map((m) => (m.status === 'rejected' ? String(m.reason) : m.status))).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      const seeds = await Promise.allSettled(
        processes.map((p) =>
          seedDatabase(p.db, {
            adminEmail: 'admin@fleet.example',
            adminPassword: 'fleet-pass-1',
            demo: true,
            sandboxOrigin: 'http://127.0.0.1:1',
          }),
        ),
      );
      expect(seeds.map((s) => (s.status === 'rejected' ? String(s.reason) : s.status))).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      const seeded = seeds.filter((s) => s.status === 'fulfilled' && s.value.seeded);
      expect(seeded).toHaveLength(1);

      const db = processes[0]!.db;
      // The super admin and the three demo users, once each; every migration recorded once.
      const [people] = await db.select({ n: count() }).from(users);
      expect(people!.n).toBe(4);
      const journal = (await db.execute(
        sql`select count(*)::int as n, count(distinct hash)::int as d from drizzle.__drizzle_migrations`,
      )) as unknown as {
        rows: Array<{ n: number; d: number }>;
      };
      expect(journal.rows[0]).toEqual({ n: MIGRATIONS, d: MIGRATIONS });
    } finally {
      for (const p of processes) await p.close();
      await scratch.drop();
    }
  });
});
