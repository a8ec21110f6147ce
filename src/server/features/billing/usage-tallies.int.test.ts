import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { describeDb } from '../../../../tests/support/test-db';
import { useTestApp, useUser } from '../../../../tests/support/test-app';
import { createUsageTallies } from './usage-tallies';

describeDb('usage tallies', () => {
  const t = useTestApp();
  const owner = useUser(t);

  it('an owner whose count could not be read (the database blinked) is read again on the next session', async () => {
    const tallies = createUsageTallies(t.app.ctx);
    // The table out of reach for a moment, as a lost connection or a failover would leave it.
    await t.db.execute(sql`alter table usage_counters rename to usage_counters_away`);
    try {
      await expect(tallies.count(owner.user.id, 'sessions', null)).rejects.toThrow();
    } finally {
      await t.db.execute(sql`alter table usage_counters_away rename to usage_counters`);
    }
    await expect(tallies.count(owner.user.id, 'sessions', null)).resolves.toMatchObject({ count: 1 });
  });
});
