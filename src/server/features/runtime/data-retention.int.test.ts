import { expect, it } from 'vitest';
import { count, lt } from 'drizzle-orm';
import { actionResults, appLogs, sessionInputs, sessionRecords } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { useTestApp } from '../../../../tests/support/test-app';
import { sweepExpiredRows } from './data-retention';

const DAY = 86_400_000;

describeDb('data retention', () => {
  const t = useTestApp({ DATA_RETENTION_DAYS: 30, DATA_RETENTION_INTERVAL_MS: 0 });

  /** A session a day for 60 days back from today in each app, their rows written in the order they happened (as the sink does). */
  async function seedDays(appIds: string[]): Promise<void> {
    const now = t.app.ctx.now().getTime();
    for (let day = 59; day >= 0; day--)
      for (const appId of appIds) {
        const at = new Date(now - day * DAY - 60_000);
        const sessionId = `s-${appId}-${day}`;
        await t.db.insert(appLogs).values({ appId, sessionId, level: 'info', type: 'menu_shown', message: 'Welcome', createdAt: at });
        await t.db.insert(sessionInputs).values({ appId, sessionId, fieldName: 'home', fieldValue: '1', createdAt: at });
        await t.db
          .insert(actionResults)
          .values({ appId, sessionId, actionName: 'a', menuName: 'home', plugin: 'javascript', result: {}, createdAt: at });
        await t.db.insert(sessionRecords).values({
          appId,
          sessionId,
          environment: 'live',
          gateway: 'africastalking',
          mobile: '233200000000',
          network: 'MTN',
          serviceCode: '*920#',
          status: 'completed',
          inputs: {},
          hopCount: 1,
          startedAt: at,
          endedAt: at,
        });
      }
  }
  const counts = async () => {
    const cutoff = new Date(t.app.ctx.now().getTime() - 30 * DAY);
    const n = async (table: typeof appLogs | typeof sessionInputs | typeof actionResults, older: boolean) =>
      (
        await t.db
          .select({ n: count() })
          .from(table)
          .where(older ? lt(table.createdAt, cutoff) : undefined)
      )[0]!.n;
    return {
      logs: await n(appLogs, false),
      inputs: await n(sessionInputs, false),
      results: await n(actionResults, false),
      records: (await t.db.select({ n: count() }).from(sessionRecords))[0]!.n,
      oldLogs: await n(appLogs, true),
    };
  };

  it('deletes rows past the retention in bounded batches, sweep after sweep, and keeps the rest', async () => {
    await seedDays(['ret-a', 'ret-b']);
    expect(await counts()).toMatchObject({ logs: 120, inputs: 120, records: 120 });
    // Batches of 7, two a table: a sweep deletes at most 14 rows of each and says it is behind.
    const first = await sweepExpiredRows(t.app.ctx, { batchSize: 7, maxBatches: 2 });
    expect(first.isBehind).toBe(true);
    expect(first.deleted).toEqual({ app_logs: 14, session_inputs: 14, action_results: 14, session_records: 14 });
    let sweeps = 1;
    while ((await sweepExpiredRows(t.app.ctx, { batchSize: 7, maxBatches: 2 })).isBehind) sweeps++;
    expect(sweeps).toBeGreaterThan(1);
    // Days 0 to 29 are kept (30 a day each app), days 30 to 59 are gone.
    expect(await counts()).toEqual({ logs: 60, inputs: 60, results: 60, records: 60, oldLogs: 0 });
    // Nothing more to do: a sweep deletes nothing.
    expect((await sweepExpiredRows(t.app.ctx)).deleted).toEqual({ app_logs: 0, session_inputs: 0, action_results: 0, session_records: 0 });
  });
});

describeDb('data retention off', () => {
  const t = useTestApp({ DATA_RETENTION_DAYS: 0 });

  it('keeps everything when the retention is 0 (for ever)', async () => {
    const old = new Date(t.app.ctx.now().getTime() - 4000 * DAY);
    await t.db.insert(appLogs).values({ appId: 'ret-c', sessionId: 's', level: 'info', type: 'x', message: 'm', createdAt: old });
    expect(await sweepExpiredRows(t.app.ctx)).toEqual({ deleted: {}, isBehind: false });
    expect((await t.db.select({ n: count() }).from(appLogs))[0]!.n).toBe(1);
  });
});
