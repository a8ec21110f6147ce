/**
 * A campaign while PostgreSQL restarts under it (docs/campaigns.md, "Sending"): while the server's own dispatcher
 * sends, every connection to the test's database is ended (pg_terminate_backend) and new ones are refused for a
 * moment (ALLOW_CONNECTIONS false), several times, as a restart or a failover does. The runs that meet it fail and are
 * logged, the next ones carry on, leases end on their own, and every contact gets the campaign's message exactly
 * once. Only on PostgreSQL (int-postgres): PGlite has no connections to end.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { campaignMessages, campaigns, contacts, smsMessages, whatsappWindows } from '../../../db/schema';
import type { ContactConsentMap } from '../../../shared/contact-consent';
import { NEWS, seedNewsBot } from '../../../../tests/support/campaign-bot';
import { received } from '../../../../tests/support/inbox-bot';
import { seedApp } from '../../../../tests/support/seed-app';
import { testDatabaseUrl } from '../../../../tests/support/services';
import { createApiClient, seedUser, type SeededUser, useTestApp } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { UNKNOWN_REASON } from './campaign-dispatcher';

const CONTACTS = 300;
/** Contacts 280 to 289 opted out of both channels, 290 to 299 were never asked: skipped. */
const REACHED = 280;
const BLINKS = 4;
/** How long new connections are refused in a blink. */
const REFUSED_MS = 300;
const LEASE_MS = 5 * 60_000;
const FALLBACK_WAIT_MS = 10 * 60_000;
/** A test's own limit: above the sum of its waits, so a wait that fails says what it waited for. */
const TEST_TIMEOUT_MS = 120_000;

const AT = '2026-01-02T10:00:00.000Z';
const consentOf = (channels: Array<'whatsapp' | 'sms'>, status: 'in' | 'out'): ContactConsentMap =>
  Object.fromEntries(channels.map((channel) => [channel, { status, at: AT, source: 'console', detail: null }]));
const numberOf = (i: number) => `+233246${String(i).padStart(6, '0')}`;

describeDb('a campaign while the database restarts under it', () => {
  const lines: Array<{ msg: string; err?: { message: string } }> = [];
  const t = useTestApp(
    {
      CAMPAIGN_DISPATCH_INTERVAL_MS: 50,
      CAMPAIGN_SMS_PER_SECOND: 50,
      CAMPAIGN_WHATSAPP_PER_SECOND: 50,
      // The test reads each contact's chat on the simulated phone.
      EMULATOR_RATE_LIMIT: 1000,
      LOG_FORMAT: 'json',
    },
    { logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } } },
  );
  // On the server's own database ("postgres"): a database cannot refuse connections from a session inside it.
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  let databaseName = '';
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  beforeAll(async () => {
    await admin.connect();
    const result = (await t.db.execute(sql`select current_database() as name`)) as unknown as { rows: Array<{ name: string }> };
    databaseName = result.rows[0]!.name;
    process.on('unhandledRejection', onRejection);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    await admin.end();
  });

  /** The database restarts: every connection to it ends, and new ones are refused for REFUSED_MS. How many ended. */
  async function blink(): Promise<number> {
    await admin.query(`alter database "${databaseName}" allow_connections false`);
    try {
      const ended = await admin.query<{ n: number }>(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1',
        [databaseName],
      );
      await new Promise((resolve) => setTimeout(resolve, REFUSED_MS));
      return ended.rows[0]!.n;
    } finally {
      await admin.query(`alter database "${databaseName}" allow_connections true`);
    }
  }

  const countByStatus = async (campaignId: string) => {
    const rows = await t.db
      .select({ status: campaignMessages.status, n: sql<number>`count(*)::int` })
      .from(campaignMessages)
      .where(eq(campaignMessages.campaignId, campaignId))
      .groupBy(campaignMessages.status);
    return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
  };
  const failedRuns = () => lines.filter((line) => line.msg === 'campaign dispatcher run failed');

  /**
   * Blinks up to BLINKS times while the campaign sends: each once the runs after the last have sent 20 more, while
   * something is still queued. Then waits for the rest of the queue to be sent.
   */
  async function blinkWhileSending(campaignId: string) {
    const sentSince = (before: number) =>
      expect
        .poll(
          async () => {
            const counts = await countByStatus(campaignId);
            return (counts.sent ?? 0) >= before + 20 || (before > 0 && !counts.queued);
          },
          { timeout: 30_000, interval: 20 },
        )
        .toBe(true);
    let ended = 0;
    let blinks = 0;
    await sentSince(0);
    while (blinks < BLINKS && (await countByStatus(campaignId)).queued) {
      ended += await blink();
      blinks++;
      await sentSince((await countByStatus(campaignId)).sent ?? 0);
    }
    await expect.poll(async () => (await countByStatus(campaignId)).queued ?? 0, { timeout: 30_000, interval: 50 }).toBe(0);
    return { ended, blinks };
  }

  /**
   * Lets the leases of what the failed runs held end (LEASE_MS on the server's clock): a claimed message goes back to
   * the queue and is sent, one handed to the provider becomes `unknown`. How many were held, by status.
   */
  async function endLeases(campaignId: string) {
    // What the failed runs held, once the runs under way have sent theirs: the same at two reads 300 ms apart.
    const heldNow = async () => {
      const counts = await countByStatus(campaignId);
      return { claimed: counts.claimed ?? 0, sending: counts.sending ?? 0 };
    };
    let held = await heldNow();
    for (let previous = undefined as typeof held | undefined; JSON.stringify(previous) !== JSON.stringify(held); ) {
      previous = held;
      await new Promise((resolve) => setTimeout(resolve, 300));
      held = await heldNow();
    }
    t.advanceClock(LEASE_MS + 60_000);
    await expect
      .poll(
        async () => {
          const counts = await countByStatus(campaignId);
          return (counts.queued ?? 0) + (counts.claimed ?? 0) + (counts.sending ?? 0);
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBe(0);
    return held;
  }

  /**
   * Makes a campaign of the owner's contacts with `body`'s channels and starts it; blinks while it sends, then lets the
   * leases end. What the failed runs held when they did.
   */
  async function sendThroughBlinks(owner: SeededUser, body: Record<string, unknown>) {
    const api = createApiClient(t, owner);
    const audience = (await api.post('/api/audiences', { name: 'All', filter: {} })).json().data;
    const made = await api.post('/api/campaigns', { name: 'Blink', audienceId: audience.audienceId, ...body });
    expect(made.json(), made.body).toMatchObject({ status: '00' });
    const campaignId: string = made.json().data.campaignId;
    expect((await api.post(`/api/campaigns/${campaignId}/schedule`, {})).json().data.status).toBe('scheduled');
    const { ended, blinks } = await blinkWhileSending(campaignId);
    expect(blinks).toBeGreaterThanOrEqual(2);
    expect(ended).toBeGreaterThan(0);
    return { campaignId, held: await endLeases(campaignId) };
  }

  async function readCampaign(owner: SeededUser, campaignId: string) {
    return (await createApiClient(t, owner).get(`/api/campaigns/${campaignId}`)).json().data;
  }

  /** The campaign ends done, and its funnel adds up to its audience once the SMS outbox is sent. */
  async function expectDone(owner: SeededUser, campaignId: string) {
    await expect.poll(async () => (await readCampaign(owner, campaignId)).status, { timeout: 30_000, interval: 100 }).toBe('done');
    // The server's SMS dispatcher sends what the campaign queued.
    await expect.poll(async () => (await readCampaign(owner, campaignId)).results.all.queued, { timeout: 30_000, interval: 200 }).toBe(0);
    const campaign = await readCampaign(owner, campaignId);
    expect(campaign).toMatchObject({ status: 'done', pausedReason: null, audienceSize: CONTACTS });
    const { sent, failed, unknown, skipped, cancelled, queued } = campaign.results.all;
    expect(sent + failed + unknown + skipped + cancelled + queued).toBe(CONTACTS);
    return campaign.results.all;
  }

  /** The SMS outbox of the account: how many SMS each number got. */
  async function smsPerNumber(ownerId: string): Promise<Map<string, number>> {
    const rows = await t.db
      .select({ recipient: smsMessages.recipient, n: sql<number>`count(*)::int` })
      .from(smsMessages)
      .where(eq(smsMessages.ownerId, ownerId))
      .groupBy(smsMessages.recipient);
    return new Map(rows.map((r) => [r.recipient, r.n]));
  }

  /**
   * The process lived through it: nothing unhandled, the failed runs logged with the database's words, and its pool
   * got every connection back (one kept by a failed statement would stay checked out for good: a few blinks more and
   * every statement of the process would wait for one).
   */
  async function expectRunsFailedAndLogged() {
    expect(rejections).toEqual([]);
    const pool = (t.db as unknown as { $client: pg.Pool }).$client;
    await expect.poll(() => pool.totalCount - pool.idleCount, { timeout: 10_000, interval: 2 }).toBe(0);
    expect(failedRuns().length).toBeGreaterThan(0);
    // Each for the database's going: its connection ended or reset, or refused while it was away.
    for (const line of failedRuns())
      expect(line.err?.message).toMatch(/terminat|not currently accepting connections|Connection|ECONNRESET|EPIPE/i);
  }

  async function seedContacts(ownerId: string, whatsapp: number) {
    await t.db.insert(contacts).values(
      Array.from({ length: CONTACTS }, (_, i) => ({
        ownerId,
        msisdn: numberOf(i),
        name: `Guest ${i}`,
        consent:
          i < whatsapp
            ? consentOf(['whatsapp', 'sms'], 'in')
            : i < REACHED
              ? consentOf(['sms'], 'in')
              : i < REACHED + 10
                ? consentOf(['whatsapp', 'sms'], 'out')
                : {},
      })),
    );
  }

  it(
    'an SMS campaign: every contact gets one SMS, none twice, and the campaign ends done',
    async () => {
      lines.length = 0;
      const owner = await seedUser(t);
      await seedContacts(owner.user.id, 0);
      const { campaignId, held } = await sendThroughBlinks(owner, { channels: 'sms', smsText: 'Our offers' });
      // An SMS has no `sending` step: a run that failed left claimed messages at most, and they went after their lease.
      expect(held.sending).toBe(0);

      const funnel = await expectDone(owner, campaignId);
      expect(funnel).toMatchObject({ sent: REACHED, failed: 0, unknown: 0, skipped: CONTACTS - REACHED, cancelled: 0 });
      expect(await countByStatus(campaignId)).toEqual({ sent: REACHED, skipped: CONTACTS - REACHED });
      const outbox = await smsPerNumber(owner.user.id);
      expect([...outbox.keys()].sort()).toEqual(Array.from({ length: REACHED }, (_, i) => numberOf(i)));
      expect([...outbox.values()].filter((n) => n !== 1)).toEqual([]);
      await expectRunsFailedAndLogged();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a WhatsApp-then-SMS campaign over the simulator: each contact gets one message on one channel',
    async () => {
      lines.length = 0;
      const owner = await seedUser(t, { roles: ['CHATBOT'] });
      const bot = await seedNewsBot(t, owner);
      const ussdAppId = await seedApp(t, owner.auth, { customShortCode: '*920*56#' });
      const onWhatsApp = 150;
      await seedContacts(owner.user.id, onWhatsApp);
      const { campaignId, held } = await sendThroughBlinks(owner, {
        channels: 'whatsapp_then_sms',
        botId: bot.appId,
        template: NEWS,
        entryMenuId: bot.entryMenuId,
        ussdAppId,
        smsText: 'Dial {dial} for our offers',
      });
      // WhatsApp has not said what became of its messages: the campaign waits for that, then is done.
      t.advanceClock(FALLBACK_WAIT_MS + 60_000);
      const funnel = await expectDone(owner, campaignId);

      // Each contact reached got exactly one message, on one channel: the simulated phone's chat or the SMS outbox.
      const outbox = await smsPerNumber(owner.user.id);
      const messages = await t.db
        .select()
        .from(campaignMessages)
        .where(and(eq(campaignMessages.campaignId, campaignId), inArray(campaignMessages.status, ['sent', 'unknown'])));
      expect(messages).toHaveLength(REACHED);
      const got = await Promise.all(
        messages.map(async (m) => ({
          msisdn: m.msisdn,
          channel: m.channel,
          status: m.status,
          whatsapp: (await received(t, bot, m.msisdn.slice(1))).length,
          sms: outbox.get(m.msisdn) ?? 0,
        })),
      );
      expect(got.filter((g) => g.whatsapp + g.sms !== 1)).toEqual([]);
      expect(got.filter((g) => g.channel === 'whatsapp' && g.whatsapp !== 1)).toEqual([]);
      expect(got.filter((g) => g.channel === 'whatsapp').length).toBe(onWhatsApp);
      // Each WhatsApp message handed over had its reply's entry menu set with it.
      const entries = await t.db
        .select({ msisdn: whatsappWindows.msisdn })
        .from(whatsappWindows)
        .where(and(eq(whatsappWindows.linkId, bot.linkId), eq(whatsappWindows.entryMenuId, bot.entryMenuId)));
      expect(entries.map((e) => e.msisdn).sort()).toEqual(
        got
          .filter((g) => g.channel === 'whatsapp')
          .map((g) => g.msisdn)
          .sort(),
      );
      // An `unknown` is a message the provider took whose sending process lost the database before it wrote `sent`:
      // exactly those that were `sending` when their leases ended, each on the phone once, said so, not sent again.
      const unknown = messages.filter((m) => m.status === 'unknown');
      expect(unknown.length).toBe(held.sending);
      expect(unknown.filter((m) => m.reason !== UNKNOWN_REASON || m.channel !== 'whatsapp')).toEqual([]);
      expect(funnel).toMatchObject({ sent: REACHED - unknown.length, unknown: unknown.length, failed: 0, fellBack: 0 });
      expect(funnel.skipped).toBe(CONTACTS - REACHED);
      await expectRunsFailedAndLogged();
      const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
      expect(row!.finishedAt).not.toBeNull();
    },
    TEST_TIMEOUT_MS,
  );
});
