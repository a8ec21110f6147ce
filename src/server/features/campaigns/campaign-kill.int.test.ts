import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../../db/client';
import { campaignMessages, contacts, smsMessages, users } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { testDatabaseUrl } from '../../../../tests/support/services';
import { startTestServer, type TestServer } from '../../../../tests/support/test-server';
import { buildApp } from '../../app';
import { createConfig } from '../../config';

/**
 * A campaign whose sending process is killed mid-campaign (SIGKILL: no close, no last batch), on PostgreSQL, where two
 * processes share one database: another process finishes it, and every contact gets its SMS exactly once.
 */

const CONTACTS = 200;

describeDb('a campaign whose sending process is killed', () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.kill();
    // The killed process never dropped its database.
    if (server?.databaseName) {
      const admin = new pg.Client({ connectionString: testDatabaseUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${server.databaseName} with (force)`).finally(() => admin.end());
    }
  });

  it('loses no message and sends none twice', async () => {
    server = await startTestServer({
      config: { CAMPAIGN_DISPATCH_INTERVAL_MS: 50, CAMPAIGN_SMS_PER_SECOND: 40, SMS_DISPATCH_INTERVAL_MS: 0 },
    });
    const url = new URL(testDatabaseUrl);
    url.pathname = `/${server.databaseName}`;
    const database = await openDatabase({ url: url.toString(), poolSize: 4 });
    try {
      const [owner] = await database.db.select({ id: users.id }).from(users);
      const at = new Date().toISOString();
      await database.db.insert(contacts).values(
        Array.from({ length: CONTACTS }, (_, i) => ({
          ownerId: owner!.id,
          msisdn: `+23324500${String(i).padStart(4, '0')}`,
          consent: { sms: { status: 'in' as const, at, source: 'import' as const, detail: 'test' } },
        })),
      );
      const auth = server.users[0]!.auth;
      const audience = await server.api<{ data: { audienceId: string } }>(auth, 'POST', '/api/audiences', { name: 'All', filter: {} });
      const campaign = await server.api<{ data: { campaignId: string } }>(auth, 'POST', '/api/campaigns', {
        name: 'Killed',
        audienceId: audience.data.audienceId,
        channels: 'sms',
        smsText: 'Our offers',
      });
      const campaignId = campaign.data.campaignId;
      await server.api(auth, 'POST', `/api/campaigns/${campaignId}/schedule`, {});
      const sentCount = async () =>
        (
          await database.db
            .select({ n: sql<number>`count(*)::int` })
            .from(campaignMessages)
            .where(and(eq(campaignMessages.campaignId, campaignId), eq(campaignMessages.status, 'sent')))
        )[0]!.n;
      // Killed while it sends: some sent, most not.
      await expect.poll(sentCount, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(40);
      await server.kill();
      const sentBefore = await sentCount();
      expect(sentBefore).toBeLessThan(CONTACTS);

      // Another process on the same database, six minutes on (the killed process's leases have ended).
      const other = await buildApp(createConfig({ NODE_ENV: 'test', CAMPAIGN_DISPATCH_INTERVAL_MS: 0, CAMPAIGN_SMS_PER_SECOND: 1000 }), {
        database,
        logger: false,
        now: () => new Date(Date.now() + 6 * 60_000),
      });
      try {
        for (let i = 0; i < 10 && (await sentCount()) < CONTACTS; i++) await other.campaignDispatcher.runOnce();
      } finally {
        await other.close();
      }
      const statuses = await database.db
        .select({ status: campaignMessages.status, n: sql<number>`count(*)::int` })
        .from(campaignMessages)
        .where(eq(campaignMessages.campaignId, campaignId))
        .groupBy(campaignMessages.status);
      expect(statuses).toEqual([{ status: 'sent', n: CONTACTS }]);
      const outbox = await database.db
        .select({ sms: sql<number>`count(*)::int`, numbers: sql<number>`count(distinct ${smsMessages.recipient})::int` })
        .from(smsMessages)
        .where(eq(smsMessages.ownerId, owner!.id));
      expect(outbox).toEqual([{ sms: CONTACTS, numbers: CONTACTS }]);
    } finally {
      await database.close();
    }
  });
});
