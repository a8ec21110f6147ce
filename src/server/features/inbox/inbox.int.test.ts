import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { contacts, inboxConversations, inboxMessages, whatsappMessages } from '../../../db/schema';
import { DEFAULT_HANDOFF_TEXT } from '../../../shared/inbox';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { closeWindow, customerWrites, received, seedHandoffBot, type LinkedBot } from '../../../../tests/support/inbox-bot';

/**
 * The inbox (docs/inbox.md), through the simulator connector: a rule or a handoff word hands the customer to the
 * agents; their messages then reach the conversation and not the bot; an agent reads, replies inside WhatsApp's
 * window, notes, assigns and closes, after which the bot answers again. Another account sees none of it.
 */

describeDb('the inbox', () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  let bot: LinkedBot;
  beforeAll(async () => {
    bot = await seedHandoffBot(t, builder);
  });
  const agent = () => createApiClient(t, builder);
  const list = async (filter: string, extra = '') => (await agent().get(`/api/inbox/conversations?filter=${filter}${extra}`)).json().data;
  const conversationOf = async (msisdn: string) =>
    (await list('open')).conversations.find((c: { msisdn: string }) => c.msisdn === msisdn) as Record<string, unknown> & {
      conversationId: string;
    };

  it("a rule's handoff: the default text, a conversation with the reason and inputs, the customer's messages held from the bot", async () => {
    const from = '233241000001';
    expect(await customerWrites(t, bot, from, 'hi')).toEqual([expect.stringContaining('Welcome')]);
    expect(await customerWrites(t, bot, from, '2')).toEqual([DEFAULT_HANDOFF_TEXT]);
    const opened = await conversationOf(`+${from}`);
    expect(opened).toMatchObject({
      appId: bot.appId,
      appName: 'Shop Bot',
      linkId: bot.linkId,
      status: 'open',
      assigneeId: null,
      reason: 'asked for a person',
      inputs: { home: '2' },
      unreadCount: 1,
      closedAt: null,
    });
    // Held: no answer from the bot, stored for the agents, one more unread.
    expect(await customerWrites(t, bot, from, 'Where is my parcel?')).toEqual([]);
    expect(await customerWrites(t, bot, from, '1')).toEqual([]);
    const detail = (await agent().get(`/api/inbox/conversations/${opened.conversationId}`)).json().data;
    expect(detail.conversation.unreadCount).toBe(3);
    expect(detail.messages.map((m: { author: string; direction: string; text: string }) => [m.author, m.direction, m.text])).toEqual([
      ['customer', 'in', '2'],
      ['bot', 'out', DEFAULT_HANDOFF_TEXT],
      ['customer', 'in', 'Where is my parcel?'],
      ['customer', 'in', '1'],
    ]);
    expect(detail.window.state).toBe('open');
    const read = (await agent().post(`/api/inbox/conversations/${opened.conversationId}/read`, {})).json();
    expect(read.data.unreadCount).toBe(0);

    // The agent replies: the customer's phone gets it, and it is recorded with the provider's id for its ticks.
    const reply = (
      await agent().post(`/api/inbox/conversations/${opened.conversationId}/replies`, { text: 'Hello, I am Kofi. Let me look.' })
    ).json();
    expect(reply).toMatchObject({
      status: '00',
      data: { author: 'agent', authorId: builder.user.id, sendStatus: 'sent', direction: 'out' },
    });
    expect((await received(t, bot, from)).at(-1)).toBe('Hello, I am Kofi. Let me look.');
    await t.app.runtime.flushEvents();
    const [tick] = await t.db.select().from(inboxMessages).where(eq(inboxMessages.id, reply.data.messageId));
    const sent = await t.db
      .select()
      .from(whatsappMessages)
      .where(and(eq(whatsappMessages.linkId, bot.linkId), eq(whatsappMessages.providerMessageId, tick!.providerMessageId!)));
    expect(sent).toHaveLength(1);

    // A note the customer never sees; assign to self; close hands the customer back to the bot.
    const note = (await agent().post(`/api/inbox/conversations/${opened.conversationId}/notes`, { text: 'VIP customer' })).json();
    expect(note.data).toMatchObject({ author: 'note', text: 'VIP customer', sendStatus: '' });
    // The list gives each row its latest message and the contact's saved name (none saved yet: null).
    expect(await conversationOf(`+${from}`)).toMatchObject({
      contactName: null,
      lastMessage: { author: 'note', text: 'VIP customer', hasMedia: false },
    });
    await t.db
      .insert(contacts)
      .values({ ownerId: builder.user.id, msisdn: `+${from}`, name: 'Kwesi Appiah' })
      .onConflictDoUpdate({
        target: [contacts.ownerId, contacts.msisdn],
        set: { name: 'Kwesi Appiah' },
      });
    expect((await conversationOf(`+${from}`)).contactName).toBe('Kwesi Appiah');
    expect((await received(t, bot, from)).includes('VIP customer')).toBe(false);
    const assigned = (
      await agent().post(`/api/inbox/conversations/${opened.conversationId}/assign`, { assigneeId: builder.user.id })
    ).json();
    expect(assigned.data.assigneeId).toBe(builder.user.id);
    expect((await list('mine')).conversations.map((c: { conversationId: string }) => c.conversationId)).toContain(opened.conversationId);
    expect((await list('unassigned')).conversations.map((c: { conversationId: string }) => c.conversationId)).not.toContain(
      opened.conversationId,
    );
    const unassigned = (await agent().post(`/api/inbox/conversations/${opened.conversationId}/assign`, { assigneeId: null })).json();
    expect(unassigned.data.assigneeId).toBeNull();
    expect((await list('unassigned')).conversations.map((c: { conversationId: string }) => c.conversationId)).toContain(
      opened.conversationId,
    );
    const closed = (await agent().post(`/api/inbox/conversations/${opened.conversationId}/close`, {})).json();
    expect(closed.data).toMatchObject({ status: 'closed', unreadCount: 0 });
    expect(closed.data.closedAt).not.toBeNull();
    expect((await list('closed')).conversations.map((c: { conversationId: string }) => c.conversationId)).toContain(opened.conversationId);
    // Back to the bot: the next message starts the flow again.
    expect(await customerWrites(t, bot, from, 'hello again')).toEqual([expect.stringContaining('Welcome')]);
    const refused = await agent().post(`/api/inbox/conversations/${opened.conversationId}/replies`, { text: 'Still there?' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This conversation is closed: the customer is talking to the bot again.');
    // A second handoff opens a new conversation (the closed one stays closed).
    expect(await customerWrites(t, bot, from, '2')).toEqual([DEFAULT_HANDOFF_TEXT]);
    const again = await conversationOf(`+${from}`);
    expect(again.conversationId).not.toBe(opened.conversationId);
  });

  it("the bot's handoff words: from any screen, with the bot's answer and the open session's inputs", async () => {
    const from = '233241000002';
    const update = await agent().post('/chatbot/app/update', {
      appId: bot.appId,
      appName: 'Shop Bot',
      description: 'hands over',
      handoffKeywords: { words: { en: ['agent', 'talk to a human'] }, reply: { en: 'Hold on, a person is coming.' } },
    });
    expect(update.json(), update.body).toMatchObject({
      status: '00',
      data: { handoffKeywords: { words: { en: ['agent', 'talk to a human'] } } },
    });
    await customerWrites(t, bot, from, 'hi');
    expect(await customerWrites(t, bot, from, '1')).toEqual(['Your order number?']);
    expect(await customerWrites(t, bot, from, '  Talk  to a HUMAN ')).toEqual(['Hold on, a person is coming.']);
    expect(await conversationOf(`+${from}`)).toMatchObject({ reason: 'keyword: talk to a human', inputs: { home: '1' }, unreadCount: 1 });
    // The abandoned session is gone: once closed, the next message starts at the first menu, not at "order number".
    const { conversationId } = await conversationOf(`+${from}`);
    await agent().post(`/api/inbox/conversations/${conversationId}/close`, {});
    expect(await customerWrites(t, bot, from, '42')).toEqual([expect.stringContaining('Welcome')]);
  });

  it("outside WhatsApp's 24-hour window a reply is refused with the reason, and nothing is sent", async () => {
    const from = '233241000003';
    await customerWrites(t, bot, from, 'hi');
    await customerWrites(t, bot, from, '2');
    const { conversationId } = await conversationOf(`+${from}`);
    await closeWindow(t, bot, conversationId, from);
    const before = await received(t, bot, from);
    const refused = await agent().post(`/api/inbox/conversations/${conversationId}/replies`, { text: 'Sorry for the wait' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(
      /^The 24-hour window with \+233241000003 closed on .+ UTC: WhatsApp lets a business write freely/,
    );
    expect(await received(t, bot, from)).toEqual(before);
    const detail = (await agent().get(`/api/inbox/conversations/${conversationId}`)).json().data;
    expect(detail.window.state).toBe('closed');
    expect(detail.messages.filter((m: { author: string }) => m.author === 'agent')).toEqual([]);
  });

  it('two agents replying at once: both sent, once each, in the order written; a retried reply is sent once', async () => {
    const from = '233241000004';
    await customerWrites(t, bot, from, 'hi');
    await customerWrites(t, bot, from, '2');
    const { conversationId } = await conversationOf(`+${from}`);
    const url = `/api/inbox/conversations/${conversationId}/replies`;
    const [a, b] = await Promise.all([agent().post(url, { text: 'First agent' }), agent().post(url, { text: 'Second agent' })]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const [c, d] = await Promise.all([
      agent().post(url, { text: 'Retried', clientMessageId: 'c-1' }),
      agent().post(url, { text: 'Retried', clientMessageId: 'c-1' }),
    ]);
    expect(c.json().data.messageId).toBe(d.json().data.messageId);
    const phone = await received(t, bot, from);
    expect(phone.filter((m) => m === 'First agent')).toHaveLength(1);
    expect(phone.filter((m) => m === 'Second agent')).toHaveLength(1);
    expect(phone.filter((m) => m === 'Retried')).toHaveLength(1);
    const stored = (await agent().get(`/api/inbox/conversations/${conversationId}`)).json().data.messages as Array<{
      author: string;
      text: string;
    }>;
    const agentTexts = stored.filter((m) => m.author === 'agent').map((m) => m.text);
    // The phone got them in the order they were stored.
    expect(phone.filter((m) => agentTexts.includes(m))).toEqual(agentTexts);
  });

  it("another account's conversation answers 404 to every call, and never appears in its lists", async () => {
    const from = '233241000005';
    await customerWrites(t, bot, from, 'hi');
    await customerWrites(t, bot, from, '2');
    const { conversationId } = await conversationOf(`+${from}`);
    const other = createApiClient(t, stranger);
    const base = `/api/inbox/conversations/${conversationId}`;
    for (const res of [
      await other.get(base),
      await other.post(`${base}/read`, {}),
      await other.post(`${base}/replies`, { text: 'hi' }),
      await other.post(`${base}/notes`, { text: 'mine now' }),
      await other.post(`${base}/assign`, { assigneeId: stranger.user.id }),
      await other.post(`${base}/close`, {}),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().message).toBe('Conversation not found');
    }
    for (const filter of ['open', 'unassigned', 'closed', 'mine'])
      expect((await other.get(`/api/inbox/conversations?filter=${filter}`)).json().data.conversations).toEqual([]);
    // Assigning to someone who is not an agent of the account is refused.
    const refused = await agent().post(`${base}/assign`, { assigneeId: stranger.user.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ field: 'assigneeId', message: 'Choose an agent of this account.' });
    // Still open and unchanged.
    expect(await conversationOf(`+${from}`)).toMatchObject({ status: 'open', assigneeId: null });
  });

  it('lists page by the most recent message, with a cursor that refuses what it did not give', async () => {
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { conversations: Array<{ conversationId: string }>; nextCursor: string | null } = await list(
        'open',
        `&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      for (const c of page.conversations) seen.add(c.conversationId);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    const all = (await list('open', '&limit=100')).conversations.map((c: { conversationId: string }) => c.conversationId);
    expect([...seen]).toEqual(all);
    expect(all.length).toBeGreaterThan(1);
    const bad = await agent().get('/api/inbox/conversations?cursor=bm9wZQ');
    expect(bad.statusCode).toBe(400);
  });

  it("a contact's erasure erases its inbox conversations and their messages", async () => {
    const from = '233241000006';
    await customerWrites(t, bot, from, 'hi');
    await customerWrites(t, bot, from, '2');
    const { conversationId } = await conversationOf(`+${from}`);
    const [contact] = await t.db
      .insert(contacts)
      .values({ ownerId: builder.user.id, msisdn: `+${from}` })
      .onConflictDoUpdate({ target: [contacts.ownerId, contacts.msisdn], set: { name: 'Esi' } })
      .returning();
    const erased = await t.app.inject({ method: 'DELETE', url: `/api/contacts/${contact!.id}`, headers: builder.auth });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await t.db.select().from(inboxConversations).where(eq(inboxConversations.id, conversationId))).toEqual([]);
    expect(await t.db.select().from(inboxMessages).where(eq(inboxMessages.conversationId, conversationId))).toEqual([]);
  });
});
