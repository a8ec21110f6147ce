/**
 * The inbox while PostgreSQL goes away (docs/inbox.md, "While the agents have it"): a message for a conversation the
 * agents hold, or a handoff, whose write loses its connection, gets a sentence saying so; nothing is half written,
 * the bot does not answer a message a person may have, and the next message goes where it should; a USSD caller's
 * callback request is refused on the end screen. The test holds a
 * lock the write must wait for and ends the connection that waits (pg_terminate_backend), as a failover would. Only
 * on PostgreSQL (int-postgres): PGlite has no connections to end.
 */
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { inboxConversations, inboxMessages } from '../../../db/schema';
import {
  CALLBACK_FAILED_TEXT,
  DEFAULT_CALLBACK_TEXT,
  DEFAULT_HANDOFF_TEXT,
  HANDOFF_FAILED_TEXT,
  INBOX_UNAVAILABLE_TEXT,
} from '../../../shared/inbox';
import { dialTestUrl } from '../../../../tests/support/dial';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { testDatabaseUrl } from '../../../../tests/support/services';
import { describeDb } from '../../../../tests/support/test-db';
import { useTestApp, useUser } from '../../../../tests/support/test-app';
import { customerWrites, seedHandoffBot, type LinkedBot } from '../../../../tests/support/inbox-bot';

describeDb('the inbox while the database goes away', () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });
  let bot: LinkedBot;
  let admin: pg.Client;
  let holder: pg.Client;
  beforeAll(async () => {
    bot = await seedHandoffBot(t, builder);
    const result = (await t.db.execute(sql`select current_database() as name`)) as unknown as { rows: Array<{ name: string }> };
    const url = new URL(testDatabaseUrl);
    url.pathname = `/${result.rows[0]!.name}`;
    admin = new pg.Client({ connectionString: url.toString() });
    holder = new pg.Client({ connectionString: url.toString() });
    await Promise.all([admin.connect(), holder.connect()]);
  });
  afterAll(async () => {
    await Promise.all([admin?.end(), holder?.end()]);
  });

  /** What the customer gets for `text` when the inbox's message write loses its connection. */
  const writeDuringBlink = (from: string, text: string) => duringBlink(() => customerWrites(t, bot, from, text));

  /** What `write` answers when the inbox's message write it makes loses its connection. */
  async function duringBlink<T>(write: () => Promise<T>): Promise<T> {
    await holder.query('begin');
    await holder.query('lock table inbox_messages in exclusive mode');
    try {
      const writing = write();
      const pid = await vi.waitFor(
        async () => {
          const found = await admin.query<{ pid: number }>(
            `select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%insert into "inbox_messages"%'`,
          );
          expect(found.rows).toHaveLength(1);
          return found.rows[0]!.pid;
        },
        { timeout: 10_000, interval: 25 },
      );
      await admin.query('select pg_terminate_backend($1)', [pid]);
      return await writing;
    } finally {
      await holder.query('rollback');
    }
  }

  it('a held message that cannot be stored is answered "send it again", the bot stays out of it, nothing half written', async () => {
    const from = '233241000301';
    await customerWrites(t, bot, from, 'hi');
    expect(await customerWrites(t, bot, from, '2')).toEqual([DEFAULT_HANDOFF_TEXT]);
    const [conversation] = await t.db
      .select()
      .from(inboxConversations)
      .where(eq(inboxConversations.msisdn, `+${from}`));
    expect(await writeDuringBlink(from, 'my parcel is lost')).toEqual([INBOX_UNAVAILABLE_TEXT]);
    const [after] = await t.db.select().from(inboxConversations).where(eq(inboxConversations.id, conversation!.id));
    expect(after).toMatchObject({ status: 'open', unreadCount: conversation!.unreadCount });
    const texts = (await t.db.select().from(inboxMessages).where(eq(inboxMessages.conversationId, conversation!.id))).map((m) => m.text);
    expect(texts).not.toContain('my parcel is lost');
    // Sent again once the database is back: held for the agents, no answer.
    expect(await customerWrites(t, bot, from, 'my parcel is lost')).toEqual([]);
    const again = (await t.db.select().from(inboxMessages).where(eq(inboxMessages.conversationId, conversation!.id))).map((m) => m.text);
    expect(again.filter((text) => text === 'my parcel is lost')).toHaveLength(1);
  });

  it('a handoff whose conversation cannot be opened tells the customer, opens nothing, and the bot answers the next message', async () => {
    const from = '233241000302';
    await customerWrites(t, bot, from, 'hi');
    expect(await writeDuringBlink(from, '2')).toEqual([HANDOFF_FAILED_TEXT]);
    expect(
      await t.db
        .select()
        .from(inboxConversations)
        .where(eq(inboxConversations.msisdn, `+${from}`)),
    ).toEqual([]);
    expect(await customerWrites(t, bot, from, 'hello')).toEqual([expect.stringContaining('Welcome')]);
  });

  it("a USSD caller's callback request that cannot be stored: the caller is told on the end screen, nothing is opened", async () => {
    const appId = await seedApp(t, builder.auth, { appName: 'Loans' });
    await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'home',
      displayText: 'Loans\n1. Call me back',
      isFirst: true,
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: '', handoff: { reason: 'call' } }],
    });
    await dialTestUrl(t, appId, 'blink-cb', '0241000303');
    expect((await duringBlink(() => dialTestUrl(t, appId, 'blink-cb', '0241000303', '1'))).body).toBe(`END ${CALLBACK_FAILED_TEXT}`);
    const opened = () => t.db.select().from(inboxConversations).where(eq(inboxConversations.appId, appId));
    expect(await opened()).toEqual([]);
    await dialTestUrl(t, appId, 'blink-cb2', '0241000303');
    expect((await dialTestUrl(t, appId, 'blink-cb2', '0241000303', '1')).body).toBe(`END ${DEFAULT_CALLBACK_TEXT}`);
    expect((await opened()).map((row) => [row.channel, row.msisdn])).toEqual([['ussd', '+233241000303']]);
  });
});
