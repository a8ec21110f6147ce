import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { apps, inboxConversations, menus } from '../../../db/schema';
import { MENU_MESSAGES, type SwitchOperation } from '../../../shared/app';
import { DEFAULT_CALLBACK_TEXT } from '../../../shared/inbox';
import { dialTestUrl } from '../../../../tests/support/dial';
import { customerWrites, seedHandoffBot, type LinkedBot } from '../../../../tests/support/inbox-bot';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';

/**
 * "Continue on WhatsApp" (docs/inbox.md): a USSD app's rule hands the caller to a person on one of the account's
 * bots. The caller's end screen gives the bot's number; the conversation opens on the bot with the caller's number
 * and answers, its WhatsApp window closed until the caller writes; the caller's first message there reaches the
 * agents, not the bot. A bot with no number connected makes it a callback request; a rule naming a bot that is not
 * the account's, or on a bot, is refused when saved.
 */
describeDb('continue on WhatsApp from USSD', () => {
  const t = useTestApp();
  const owner = useUser(t, { roles: ['CHATBOT'] });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  let bot: LinkedBot;
  let unlinkedBotId = '';
  let appId = '';
  beforeAll(async () => {
    bot = await seedHandoffBot(t, owner);
    unlinkedBotId = (
      await createApiClient(t, owner).post('/api/chatbot/app/create', { appName: 'Quiet Bot', description: 'no number' })
    ).json().data.appId;
    appId = await seedApp(t, owner.auth, { appName: 'Loans' });
    await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'home',
      displayText: 'Loans\n1. Chat on WhatsApp\n2. Chat (no number)\n3. Write to us',
      isFirst: true,
      switchOperations: [
        {
          operator: 'eq',
          compareVal: '1',
          action: 'Terminate',
          actionParam: '',
          handoff: { reason: 'wants to chat', whatsappBotId: bot.appId },
        },
        {
          operator: 'eq',
          compareVal: '2',
          action: 'Terminate',
          actionParam: '',
          handoff: { reason: 'wants to chat', whatsappBotId: unlinkedBotId },
        },
        {
          operator: 'eq',
          compareVal: '3',
          action: 'Terminate',
          actionParam: 'Write to {whatsappNumber} on WhatsApp.',
          handoff: { reason: '', whatsappBotId: bot.appId },
        },
      ],
    });
  });
  const agent = () => createApiClient(t, owner);
  const conversationsOf = (msisdn: string) => t.db.select().from(inboxConversations).where(eq(inboxConversations.msisdn, msisdn));

  it("gives the bot's number, opens the conversation on the bot with the answers, and the caller's WhatsApp message reaches the agents", async () => {
    await dialTestUrl(t, appId, 'wa-1', '0241112222');
    const ended = await dialTestUrl(t, appId, 'wa-1', '0241112222', '1');
    expect(ended.body).toBe('END Thank you. Message us on WhatsApp at +233200000000 and a person will answer you there.');
    const [opened] = await conversationsOf('+233241112222');
    expect(opened).toMatchObject({
      appId: bot.appId,
      channel: 'whatsapp',
      linkId: bot.linkId,
      status: 'open',
      reason: 'wants to chat (from the USSD app Loans)',
      inputs: { home: '1' },
      lastInboundAt: null,
    });
    // The caller has not written on WhatsApp: the window is closed, and free text is refused.
    const detail = (await agent().get(`/api/inbox/conversations/${opened!.id}`)).json().data;
    expect(detail.window.state).toBe('closed');
    expect(detail.messages.map((m: { author: string; text: string }) => [m.author, m.text])).toEqual([
      ['bot', 'Thank you. Message us on WhatsApp at +233200000000 and a person will answer you there.'],
    ]);
    expect((await agent().post(`/api/inbox/conversations/${opened!.id}/replies`, { text: 'Hello' })).statusCode).toBe(409);

    // The caller writes to the bot's number: held for the agents (the bot does not answer), and the window opens.
    expect(await customerWrites(t, bot, '233241112222', 'Hi, about my loan')).toEqual([]);
    const after = (await agent().get(`/api/inbox/conversations/${opened!.id}`)).json().data;
    expect(after.window.state).toBe('open');
    expect(after.messages.at(-1)).toMatchObject({ author: 'customer', text: 'Hi, about my loan' });
    const reply = await agent().post(`/api/inbox/conversations/${opened!.id}/replies`, { text: 'Hello, I am Ama.' });
    expect(reply.statusCode, reply.body).toBe(200);
  });

  it("a closing text's {whatsappNumber} becomes the number", async () => {
    await dialTestUrl(t, appId, 'wa-2', '0241113333');
    expect((await dialTestUrl(t, appId, 'wa-2', '0241113333', '3')).body).toBe('END Write to +233200000000 on WhatsApp.');
    const [opened] = await conversationsOf('+233241113333');
    expect(opened).toMatchObject({ appId: bot.appId, channel: 'whatsapp', reason: 'asked for a person (from the USSD app Loans)' });
  });

  it('a bot without a connected number makes it a callback request on the USSD app', async () => {
    await dialTestUrl(t, appId, 'wa-3', '0241114444');
    expect((await dialTestUrl(t, appId, 'wa-3', '0241114444', '2')).body).toBe(`END ${DEFAULT_CALLBACK_TEXT}`);
    const [opened] = await conversationsOf('+233241114444');
    expect(opened).toMatchObject({ appId, channel: 'ussd', linkId: null, reason: 'wants to chat' });
  });

  it("a rule naming another account's connected bot (an imported app) is a callback request: nothing opens on their bot", async () => {
    const theirs = await seedHandoffBot(t, stranger);
    // Written past the save checks, as an import or a clone written before them could be.
    const [home] = await t.db
      .select()
      .from(menus)
      .where(and(eq(menus.appId, appId), eq(menus.userDefinedName, 'home')));
    const rules = (home!.switchOperations as SwitchOperation[]).map((rule, i) =>
      i === 1 ? { ...rule, handoff: { reason: 'wants to chat', whatsappBotId: theirs.appId } } : rule,
    );
    await t.db.update(menus).set({ switchOperations: rules }).where(eq(menus.id, home!.id));
    await t.db.update(apps).set({ updatedAt: new Date() }).where(eq(apps.id, appId));
    await dialTestUrl(t, appId, 'wa-5', '0241115555');
    expect((await dialTestUrl(t, appId, 'wa-5', '0241115555', '2')).body).toBe(`END ${DEFAULT_CALLBACK_TEXT}`);
    const opened = await conversationsOf('+233241115555');
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ appId, channel: 'ussd', ownerId: owner.user.id });
    // The rule back as it was saved.
    await t.db.update(menus).set({ switchOperations: home!.switchOperations }).where(eq(menus.id, home!.id));
    await t.db.update(apps).set({ updatedAt: new Date() }).where(eq(apps.id, appId));
  });

  it("refuses, when saved, another account's bot, an app that is not a bot, and the choice on a bot's own menu", async () => {
    const strangerBot = (await createApiClient(t, stranger).post('/api/chatbot/app/create', { appName: 'Theirs', description: 'x' })).json()
      .data.appId;
    for (const [i, whatsappBotId] of [strangerBot, appId, 'no-such-bot'].entries()) {
      const res = await agent().post('/api/createMenu', {
        appId,
        userDefinedName: `other${i}`,
        displayText: 'x',
        switchOperations: [
          { operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: '', handoff: { reason: '', whatsappBotId } },
        ],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(MENU_MESSAGES.handoffBotNotFound);
    }
    const onBot = await agent().post('/api/createMenu', {
      appId: bot.appId,
      userDefinedName: 'chat',
      displayText: 'x',
      switchOperations: [
        { operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: '', handoff: { reason: '', whatsappBotId: bot.appId } },
      ],
    });
    expect(onBot.statusCode, onBot.body).toBe(400);
    expect(onBot.json().message).toBe(MENU_MESSAGES.handoffWhatsAppOnBot);
  });
});
