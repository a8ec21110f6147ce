import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { contacts, inboxMessages, whatsappMessages } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { closeWindow, handOver, received, seedHandoffBot, type LinkedBot } from '../../../../tests/support/inbox-bot';

/**
 * An agent's template reply (docs/inbox.md, "Replies"), through the simulator connector: outside WhatsApp's 24-hour
 * window a text is refused and an APPROVED template of the linked number goes, filled, and is stored with the text
 * the customer saw. A template that is unknown, not approved or half filled is refused with nothing sent or stored.
 */

describeDb('template replies from the inbox', () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });
  let bot: LinkedBot;
  let pausedId: string;
  beforeAll(async () => {
    bot = await seedHandoffBot(t, builder);
    const { post } = createApiClient(t, builder);
    const made = await post(`/api/chatbot/whatsapp/templates/${bot.linkId}`, {
      name: 'order_update',
      language: 'en',
      category: 'UTILITY',
      body: 'Hello {{name}}, your order {{order}} is on its way.',
      buttons: ['Thanks'],
      examples: { body: { name: 'Ama', order: 'A-12' } },
    });
    expect(made.json(), made.body).toMatchObject({ status: '00', data: { status: 'APPROVED' } });
    const paused = await post(`/api/chatbot/whatsapp/templates/${bot.linkId}`, {
      name: 'paused_one',
      language: 'en',
      category: 'UTILITY',
      body: 'We are back',
      buttons: [],
      examples: {},
    });
    pausedId = paused.json().data.templateId;
    await post(`/api/chatbot/whatsapp/template/${pausedId}/status`, { status: 'PAUSED', reason: 'low quality' });
  });
  const agent = () => createApiClient(t, builder);

  /** A customer handed over, whose window then closed (their last message 25 hours ago). */
  async function closedConversation(from: string): Promise<string> {
    const conversationId = await handOver(t, bot, from);
    await closeWindow(t, bot, conversationId, from);
    return conversationId;
  }

  const agentMessages = async (conversationId: string) =>
    t.db
      .select()
      .from(inboxMessages)
      .where(and(eq(inboxMessages.conversationId, conversationId), eq(inboxMessages.author, 'agent')));

  it('outside the window: a text is refused and says to send a template; an approved template goes, filled, stored as the customer saw it', async () => {
    const from = '233241100001';
    const conversationId = await closedConversation(from);
    await t.db
      .update(contacts)
      .set({ name: 'Kwesi Appiah' })
      .where(and(eq(contacts.ownerId, builder.user.id), eq(contacts.msisdn, `+${from}`)));
    const detail = (await agent().get(`/api/inbox/conversations/${conversationId}`)).json().data;
    expect(detail.window.state).toBe('closed');
    // The approved ones only, with their variables.
    expect(detail.templates.map((x: { name: string }) => x.name)).toEqual(['order_update']);
    expect(detail.templates[0].variables).toEqual([
      { place: 'body', name: 'name' },
      { place: 'body', name: 'order' },
    ]);

    const url = `/api/inbox/conversations/${conversationId}/replies`;
    const text = await agent().post(url, { text: 'Sorry for the wait' });
    expect(text.statusCode).toBe(409);
    expect(text.json().message).toMatch(/closed on .+ UTC: .*send an approved template instead\.$/);

    const before = await received(t, bot, from);
    const sent = await agent().post(url, {
      template: { name: 'order_update', language: 'en', variables: { body: { name: '{{contact.name}}', order: 'B-7' } } },
      clientMessageId: 'tpl-1',
    });
    expect(sent.json(), sent.body).toMatchObject({
      status: '00',
      data: {
        author: 'agent',
        sendStatus: 'sent',
        template: { name: 'order_update', language: 'en' },
        text: 'Hello Kwesi Appiah, your order B-7 is on its way.\n\n[Thanks]',
      },
    });
    const phone = await received(t, bot, from);
    expect(phone.slice(before.length)).toEqual(['Hello Kwesi Appiah, your order B-7 is on its way.']);
    // A retry with the same client id answers the stored message and sends nothing again.
    const retried = await agent().post(url, {
      template: { name: 'order_update', language: 'en', variables: { body: { name: 'x', order: 'y' } } },
      clientMessageId: 'tpl-1',
    });
    expect(retried.json().data.messageId).toBe(sent.json().data.messageId);
    expect(await received(t, bot, from)).toEqual(phone);
    // Recorded for its ticks, as a template.
    await t.app.runtime.flushEvents();
    const [stored] = await agentMessages(conversationId);
    const [tick] = await t.db
      .select()
      .from(whatsappMessages)
      .where(and(eq(whatsappMessages.linkId, bot.linkId), eq(whatsappMessages.providerMessageId, stored!.providerMessageId!)));
    expect(tick?.kind).toBe('template');
  });

  it('an unknown, not approved or half-filled template is refused in words: nothing sent, nothing stored', async () => {
    const from = '233241100002';
    const conversationId = await closedConversation(from);
    const url = `/api/inbox/conversations/${conversationId}/replies`;
    const before = await received(t, bot, from);
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'no_such', language: 'en', variables: {} }, /has no template "no_such" in en/],
      [{ name: 'paused_one', language: 'en', variables: {} }, /"paused_one" is PAUSED, not APPROVED/],
      [{ name: 'order_update', language: 'en', variables: { body: { name: 'Ama' } } }, /no value for \{\{order\}\} in the body/],
      // A contact field the customer's contact does not have (no name saved) is no value.
      [
        { name: 'order_update', language: 'en', variables: { body: { name: '{{contact.name}}', order: 'A' } } },
        /no value for \{\{name\}\}/,
      ],
    ];
    for (const [template, message] of cases) {
      const res = await agent().post(url, { template });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const both = await agent().post(url, { text: 'hi', template: { name: 'order_update', language: 'en' } });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe('Write a message or choose a template, not both');
    expect(await received(t, bot, from)).toEqual(before);
    expect(await agentMessages(conversationId)).toEqual([]);
  });

  it('inside the window a template goes too, as Meta allows', async () => {
    const from = '233241100003';
    const conversationId = await handOver(t, bot, from);
    const res = await agent().post(`/api/inbox/conversations/${conversationId}/replies`, {
      template: { name: 'order_update', language: 'en', variables: { body: { name: 'Esi', order: 'C-1' } } },
    });
    expect(res.json(), res.body).toMatchObject({ status: '00', data: { template: { name: 'order_update' } } });
    expect((await received(t, bot, from)).at(-1)).toBe('Hello Esi, your order C-1 is on its way.');
  });
});
