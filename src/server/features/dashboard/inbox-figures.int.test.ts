import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { inboxConversations, inboxMessages } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { handOver, seedHandoffBot, type LinkedBot } from '../../../../tests/support/inbox-bot';

/**
 * The dashboard's inbox figures (docs/inbox.md, "Figures"): conversations opened, answered and waiting, first
 * response and resolution times (middle and 90th percentile), and what each agent did, over the period. The times
 * are set on the rows after the real calls made them, so each figure has one right answer.
 */

describeDb('inbox figures on the dashboard', () => {
  const t = useTestApp();
  const owner = useUser(t, { roles: ['CHATBOT'], fullName: 'Ama Owusu' });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  let bot: LinkedBot;
  let agentAuth: Record<string, string>;
  let agentId: string;
  beforeAll(async () => {
    bot = await seedHandoffBot(t, owner);
    const email = `kofi.${Date.now()}@figures.test`;
    const created = await createApiClient(t, owner).post('/api/inbox/agents', { fullName: 'Kofi Mensah', email, password: 'first-pass' });
    expect(created.statusCode, created.body).toBe(200);
    agentId = created.json().data.userId as string;
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'first-pass' } });
    agentAuth = { authorization: `Bearer ${login.json().token as string}` };
  });

  const figures = async (period = 'day') => {
    const res = await createApiClient(t, owner).get(`/api/dashboard/inbox/${bot.appId}?period=${period}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

  async function reply(conversationId: string, auth: Record<string, string>, text: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/inbox/conversations/${conversationId}/replies`,
      headers: auth,
      payload: { text },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.messageId as string;
  }

  it('starts empty: nothing opened, no times, no agents', async () => {
    expect(await figures()).toMatchObject({
      period: 'day',
      opened: 0,
      answered: 0,
      waiting: 0,
      firstResponse: null,
      closed: 0,
      resolution: null,
      buckets: [],
      agents: [],
    });
  });

  it('measures first responses, resolutions and each agent, over the period only', async () => {
    // A: the owner answers after 2 minutes and closes after 5. B: the agent answers after 1 minute, twice.
    // C: nobody answers yet. D: opened two days ago, answered and closed then: in the week, not the day.
    const a = await handOver(t, bot, '233241100001');
    const aReply = await reply(a, owner.auth, 'Looking now');
    expect((await createApiClient(t, owner).post(`/api/inbox/conversations/${a}/close`, {})).statusCode).toBe(200);
    const b = await handOver(t, bot, '233241100002');
    const bReply = await reply(b, agentAuth, 'Hello, Kofi here');
    await reply(b, agentAuth, 'Your parcel left today');
    await handOver(t, bot, '233241100003');
    const d = await handOver(t, bot, '233241100004');
    await reply(d, agentAuth, 'Sorry for the wait');
    expect((await createApiClient(t, owner).post(`/api/inbox/conversations/${d}/close`, {})).statusCode).toBe(200);

    await t.db
      .update(inboxConversations)
      .set({ createdAt: minutesAgo(10), closedAt: minutesAgo(5) })
      .where(eq(inboxConversations.id, a));
    await t.db
      .update(inboxMessages)
      .set({ createdAt: minutesAgo(8) })
      .where(eq(inboxMessages.id, aReply));
    await t.db
      .update(inboxConversations)
      .set({ createdAt: minutesAgo(20) })
      .where(eq(inboxConversations.id, b));
    await t.db
      .update(inboxMessages)
      .set({ createdAt: minutesAgo(19) })
      .where(eq(inboxMessages.id, bReply));
    const twoDays = 2 * 24 * 60;
    await t.db
      .update(inboxConversations)
      .set({ createdAt: minutesAgo(twoDays + 60), closedAt: minutesAgo(twoDays) })
      .where(eq(inboxConversations.id, d));
    await t.db
      .update(inboxMessages)
      .set({ createdAt: minutesAgo(twoDays + 30) })
      .where(eq(inboxMessages.conversationId, d));

    const day = await figures();
    // First answers: 120 s (A) and 60 s (B): the middle 90, the 90th percentile 114 (interpolated).
    expect(day).toMatchObject({
      opened: 3,
      answered: 2,
      waiting: 1,
      firstResponse: { medianSeconds: 90, p90Seconds: 114 },
      closed: 1,
      resolution: { medianSeconds: 300, p90Seconds: 300 },
    });
    expect(day.buckets.reduce((n: number, b: { opened: number }) => n + b.opened, 0)).toBe(3);
    expect(day.buckets.reduce((n: number, b: { closed: number }) => n + b.closed, 0)).toBe(1);
    expect(day.agents).toEqual([
      { userId: owner.user.id, name: 'Ama Owusu', conversations: 1, replies: 1, closed: 1, firstResponseMedianSeconds: 120 },
      { userId: agentId, name: 'Kofi Mensah', conversations: 1, replies: 2, closed: 0, firstResponseMedianSeconds: 60 },
    ]);

    // The week has D too: answered after 30 minutes, closed after an hour.
    const week = await figures('week');
    expect(week).toMatchObject({ opened: 4, answered: 3, waiting: 1, closed: 2, resolution: { medianSeconds: 1950 } });
    expect(week.firstResponse.medianSeconds).toBe(120);
    expect(week.agents.find((x: { userId: string }) => x.userId === agentId)).toMatchObject({
      conversations: 2,
      replies: 3,
      firstResponseMedianSeconds: 930,
    });
  });

  it('a callback request is answered when a person marks it done; a failed reply is no answer', async () => {
    const [callback] = await t.db
      .insert(inboxConversations)
      .values({
        ownerId: owner.user.id,
        appId: bot.appId,
        msisdn: '+233241100009',
        channel: 'ussd',
        status: 'closed',
        createdAt: minutesAgo(30),
        closedAt: minutesAgo(26),
        closedBy: owner.user.id,
      })
      .returning();
    const failed = await handOver(t, bot, '233241100010');
    await t.db.insert(inboxMessages).values({
      conversationId: failed,
      direction: 'out',
      author: 'agent',
      authorId: agentId,
      authorName: 'Kofi Mensah',
      text: 'never left',
      sendStatus: 'failed',
      error: 'refused',
    });
    const day = await figures();
    // A (120 s), B (60 s) and the callback (240 s); the failed reply's conversation waits.
    expect(day).toMatchObject({ opened: 5, answered: 3, waiting: 2, closed: 2, firstResponse: { medianSeconds: 120 } });
    expect(day.agents.find((x: { userId: string }) => x.userId === owner.user.id)).toMatchObject({
      closed: 2,
      firstResponseMedianSeconds: 180,
    });
    await t.db.delete(inboxConversations).where(eq(inboxConversations.id, callback!.id));
  });

  it("another account's app answers 404; a bad period is refused", async () => {
    const foreign = await createApiClient(t, stranger).get(`/api/dashboard/inbox/${bot.appId}?period=day`);
    expect(foreign.statusCode).toBe(404);
    const bad = await createApiClient(t, owner).get(`/api/dashboard/inbox/${bot.appId}?period=year`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('The period must be day, week or month');
  });
});
