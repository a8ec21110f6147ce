import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { contacts, whatsappFirstMessages, whatsappLinks, whatsappMessages, whatsappWindows } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, seedUser, useTestApp, useUser, type SeededUser, type TestApp } from '../../../../tests/support/test-app';
import { seedMenu } from '../../../../tests/support/seed-app';
import { WINDOW_MS } from '../../core/whatsapp-windows';

/**
 * A business writing first (docs/bots.md, "Writing first"), through the simulator connector: inside the 24-hour
 * window the entry menu goes as it is and the reply continues it; outside it a template goes and the reply enters
 * the flow at the entry menu; every refusal changes nothing.
 */

const CUSTOMER = '233241234567';
const E164 = `+${CUSTOMER}`;

interface LinkedBot {
  appId: string;
  linkId: string;
  secret: string;
  menus: { home: string; order: string; done: string };
}

/** A deployed bot with three menus (home first; order asks a quantity; done ends) on a CONNECTED simulator number. */
async function seedLinkedBot(t: TestApp, builder: SeededUser): Promise<LinkedBot> {
  const { get, post } = createApiClient(t, builder);
  const appId = (await post('/api/chatbot/app/create', { appName: 'First Bot', description: 'writes first' })).json().data.appId;
  const done = await seedMenu(t, builder.auth, appId, {
    userDefinedName: 'done',
    displayText: 'Thanks, {{ session.inputs.order }} coming',
    terminate: true,
  });
  const order = await seedMenu(t, builder.auth, appId, {
    userDefinedName: 'order',
    displayText: 'How many bags?',
    switchOperations: [{ operator: 'always', action: 'goto', actionParam: done }],
  });
  const home = await seedMenu(t, builder.auth, appId, {
    userDefinedName: 'home',
    displayText: 'Welcome to the shop',
    isFirst: true,
    terminate: true,
  });
  expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
  const linkId = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId })).json().linkId as string;
  const status = (await get(`/api/chatbot/whatsapp/link-status/${linkId}`)).json();
  const secret = new URL(status.qrCode).searchParams.get('secret')!;
  await post(`/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '+233200000000' }, {});
  await seedTemplates(t, builder, linkId);
  return { appId, linkId, secret, menus: { home, order, done } };
}

/**
 * The number's templates, made as the Templates tab makes them (a simulator number's are APPROVED when made): one
 * with a quick reply, one with two variables, and one paused. A simulator number has no others.
 */
async function seedTemplates(t: TestApp, builder: SeededUser, linkId: string) {
  const { post } = createApiClient(t, builder);
  const make = async (name: string, body: string, examples: Record<string, string>, buttons: string[] = []) => {
    const res = (
      await post(`/api/chatbot/whatsapp/templates/${linkId}`, {
        name,
        language: 'en',
        category: 'MARKETING',
        body,
        buttons,
        examples: { body: examples },
      })
    ).json();
    expect(res, JSON.stringify(res)).toMatchObject({ status: '00' });
    return res.data.templateId as string;
  };
  await make('welcome_back', 'Hello {{1}}, we have news for you. Tap Start to see our menu.', { '1': 'Ama' }, ['Start']);
  await make('order_update', 'Hi {{1}}, your order {{2}} is ready. Reply to continue.', { '1': 'Ama', '2': '#42' });
  const paused = await make('spring_promo', 'Spring offers are here, {{1}}!', { '1': 'Ama' });
  await post(`/api/chatbot/whatsapp/template/${paused}/status`, { status: 'PAUSED', reason: 'Low quality' });
}

/** Ama's name where the templates' first body variable is. */
const WELCOME = { name: 'welcome_back', language: 'en', variables: { body: { '1': '{{contact.name}}' } } };

/** The contact, opted in (or out) on WhatsApp, as the consent slice records it. */
async function seedContact(t: TestApp, ownerId: string, status: 'in' | 'out' | null, fields: { name?: string } = {}) {
  const consent = status ? { whatsapp: { status, at: '2026-01-02T10:00:00.000Z', source: 'console' as const, detail: null } } : {};
  await t.db
    .insert(contacts)
    .values({ ownerId, msisdn: E164, name: fields.name ?? null, consent })
    .onConflictDoUpdate({ target: [contacts.ownerId, contacts.msisdn], set: { consent, name: fields.name ?? null } });
}

/** The customer writes on the simulated phone; what the bot sent back. */
async function customerWrites(t: TestApp, bot: LinkedBot, text: string, kind = 'text') {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/whatsapp-simulator/${bot.linkId}/messages`,
    payload: { secret: bot.secret, from: CUSTOMER, text, kind },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.messages as Array<Record<string, unknown>>;
}

async function transcript(t: TestApp, bot: LinkedBot) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/whatsapp-simulator/${bot.linkId}/messages?secret=${encodeURIComponent(bot.secret)}&from=${CUSTOMER}`,
  });
  return (res.json().data.transcript as Array<{ direction: string; message: unknown }>).map(({ direction, message }) => ({
    direction,
    message,
  }));
}

const firstMessages = (t: TestApp, appId: string) =>
  t.db.select().from(whatsappFirstMessages).where(eq(whatsappFirstMessages.appId, appId));

describeDb('writing first', () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  let bot: LinkedBot;
  beforeAll(async () => {
    bot = await seedLinkedBot(t, builder);
    await seedContact(t, builder.user.id, 'in', { name: 'Ama' });
  });
  const start = (body: object, headers = builder.auth) =>
    t.app.inject({ method: 'POST', url: `/api/bots/${bot.appId}/conversations`, headers, payload: body });
  const window = (msisdn: string, headers = builder.auth) =>
    t.app.inject({ method: 'GET', url: `/api/bots/${bot.appId}/conversations/window?msisdn=${encodeURIComponent(msisdn)}`, headers });

  it('outside the window: a template is required, sent with the contact filled in, and the reply enters the entry menu', async () => {
    const before = (await window('0241234567')).json();
    // The bot's country is unset: a national number is no phone number here.
    expect(before).toMatchObject({ status: '02', field: 'msisdn' });
    const closed = (await window(E164)).json().data;
    expect(closed).toMatchObject({
      msisdn: E164,
      linkId: bot.linkId,
      window: { state: 'closed', closedAt: null },
      needsTemplate: true,
      message: `${E164} has never written to this number: choose an approved template.`,
    });
    // The number's own templates, as the Templates tab lists them, and no others.
    expect(closed.templates.map((tpl: { name: string; status: string }) => [tpl.name, tpl.status]).sort()).toEqual([
      ['order_update', 'APPROVED'],
      ['spring_promo', 'PAUSED'],
      ['welcome_back', 'APPROVED'],
    ]);

    const refused = await start({ msisdn: E164, entryMenu: bot.menus.order });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`${E164} has never written to this number: choose an approved template.`);
    expect(await firstMessages(t, bot.appId)).toEqual([]);

    const sent = await start({
      msisdn: '+233 24 123 4567',
      entryMenu: bot.menus.order,
      template: WELCOME,
    });
    expect(sent.json()).toMatchObject({
      status: '00',
      message: 'Template sent: the reply starts the flow at the entry menu',
      data: { msisdn: E164, linkId: bot.linkId, entryMenu: bot.menus.order, kind: 'template', status: 'sent' },
    });
    expect(await transcript(t, bot)).toEqual([
      {
        direction: 'out',
        message: {
          type: 'buttons',
          body: 'Hello Ama, we have news for you. Tap Start to see our menu.',
          buttons: [{ id: '1', title: 'Start' }],
        },
      },
    ]);
    // Recorded as the bot's template message, under the simulator's id: its ticks move with the phone's receipts.
    await t.app.runtime.flushEvents();
    const [sentRow] = await t.db.select().from(whatsappMessages).where(eq(whatsappMessages.appId, bot.appId));
    expect(sentRow).toMatchObject({ kind: 'template', status: 'sent', linkId: bot.linkId, toNumber: CUSTOMER, environment: 'live' });
    const [shown] = (
      await t.app.inject({
        method: 'GET',
        url: `/api/whatsapp-simulator/${bot.linkId}/messages?secret=${encodeURIComponent(bot.secret)}&from=${CUSTOMER}`,
      })
    ).json().data.transcript as Array<{ id: string }>;
    expect(shown!.id).toBe(sentRow!.providerMessageId);
    for (const status of ['delivered', 'read'])
      await t.app.inject({
        method: 'POST',
        url: `/api/whatsapp-simulator/${bot.linkId}/receipts`,
        payload: { secret: bot.secret, messageId: sentRow!.providerMessageId, status },
      });
    await t.app.runtime.flushEvents();
    const [read] = await t.db.select().from(whatsappMessages).where(eq(whatsappMessages.id, sentRow!.id));
    expect([read!.status, read!.deliveredAt !== null, read!.readAt !== null]).toEqual(['read', true, true]);
    // The quick-reply button's tap enters the flow at the entry menu (not the first), and the next reply continues it.
    expect(await customerWrites(t, bot, '1', 'choice')).toEqual([{ type: 'text', text: 'How many bags?' }]);
    expect(await customerWrites(t, bot, '3')).toEqual([{ type: 'text', text: 'Thanks, 3 coming' }]);
    await t.app.runtime.flushEvents();
    const [row] = await t.db
      .select()
      .from(whatsappWindows)
      .where(and(eq(whatsappWindows.linkId, bot.linkId), eq(whatsappWindows.msisdn, E164)));
    // The reply opened the window and used up the pending entry: the next message starts at the first menu.
    expect(row).toMatchObject({ entryMenuId: null, entrySetAt: null });
    expect(await customerWrites(t, bot, 'hello')).toEqual([{ type: 'text', text: 'Welcome to the shop' }]);
    expect((await firstMessages(t, bot.appId)).map((m) => [m.kind, m.status, m.templateName])).toEqual([
      ['template', 'sent', 'welcome_back'],
    ]);
  });

  it('inside the window: the entry menu goes as it is, and the reply continues the flow there', async () => {
    const open = (await window(E164)).json().data;
    expect(open).toMatchObject({ window: { state: 'open' }, needsTemplate: false });
    expect(open.message).toMatch(
      /^The window with \+233241234567 is open until \d{4}-\d\d-\d\d \d\d:\d\d UTC: the entry menu is sent as it is\.$/,
    );
    const sent = await start({ msisdn: CUSTOMER, entryMenu: bot.menus.order });
    expect(sent.json()).toMatchObject({ status: '00', data: { kind: 'menu', status: 'sent', window: { state: 'open' } } });
    expect((await transcript(t, bot)).at(-1)).toEqual({ direction: 'out', message: { type: 'text', text: 'How many bags?' } });
    expect(await customerWrites(t, bot, '7')).toEqual([{ type: 'text', text: 'Thanks, 7 coming' }]);
    // No entry menu: the bot's first.
    expect((await start({ msisdn: E164 })).json().data.entryMenu).toBe(bot.menus.home);
    expect((await transcript(t, bot)).at(-1)).toEqual({ direction: 'out', message: { type: 'text', text: 'Welcome to the shop' } });
  });

  it("the contact's page lists what was sent first, a template with its ticks; another account's sends never", async () => {
    const contactOf = async (ownerId: string) =>
      (
        await t.db
          .select()
          .from(contacts)
          .where(and(eq(contacts.ownerId, ownerId), eq(contacts.msisdn, E164)))
      )[0]!.id;
    const detail = async (who: SeededUser, contactId: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/contacts/${contactId}`, headers: who.auth })).json().data;
    // Another account writes first to its own contact of the same number, from its own bot.
    const theirs = await seedLinkedBot(t, stranger);
    await seedContact(t, stranger.user.id, 'in', { name: 'Kofi' });
    const theirStart = await t.app.inject({
      method: 'POST',
      url: `/api/bots/${theirs.appId}/conversations`,
      headers: stranger.auth,
      payload: { msisdn: E164, template: WELCOME },
    });
    expect(theirStart.json()).toMatchObject({ status: '00', data: { kind: 'template' } });
    await t.app.runtime.flushEvents();

    const ours = await detail(builder, await contactOf(builder.user.id));
    const menu = { appId: bot.appId, appName: 'First Bot', linkId: bot.linkId, mobileNumber: '+233200000000', kind: 'menu' };
    expect(ours.firstMessages).toMatchObject([
      { ...menu, entryMenuId: bot.menus.home, status: 'sent', error: '', delivery: null, templateName: null },
      { ...menu, entryMenuId: bot.menus.order, status: 'sent', delivery: null },
      {
        ...menu,
        kind: 'template',
        entryMenuId: bot.menus.order,
        templateName: 'welcome_back',
        templateLanguage: 'en',
        status: 'sent',
        // The phone's receipts moved it to read.
        delivery: { status: 'read', failureReason: '' },
      },
    ]);
    expect(ours.firstMessages[0].createdAt >= ours.firstMessages[2].createdAt).toBe(true);
    const theirContact = await contactOf(stranger.user.id);
    expect((await detail(stranger, theirContact)).firstMessages).toMatchObject([
      { appId: theirs.appId, kind: 'template', status: 'sent', delivery: { status: 'sent' } },
    ]);
    expect((await t.app.inject({ method: 'GET', url: `/api/contacts/${theirContact}`, headers: builder.auth })).statusCode).toBe(404);
  });

  it('a window 24 hours old is closed again and says when it closed', async () => {
    // The messages before wrote their window through the event sink: written now, so none lands after the change.
    await t.app.runtime.flushEvents();
    await t.db
      .update(whatsappWindows)
      .set({ lastInboundAt: new Date(Date.now() - WINDOW_MS - 60_000) })
      .where(eq(whatsappWindows.linkId, bot.linkId));
    const closed = (await window(E164)).json().data;
    expect(closed.window.state).toBe('closed');
    expect(closed.message).toMatch(
      /^The window with \+233241234567 closed on \d{4}-\d\d-\d\d \d\d:\d\d UTC: choose an approved template\.$/,
    );
    expect((await start({ msisdn: E164 })).statusCode).toBe(409);
  });

  describe('refusals change nothing', () => {
    const REFUSALS: Array<[string, () => object, number, string | RegExp]> = [
      [
        'a number that is no phone number',
        () => ({ msisdn: 'call me' }),
        400,
        '"call me" is not a phone number: write it with its country code (+233241234567).',
      ],
      [
        'an entry menu the bot does not have',
        () => ({ msisdn: E164, entryMenu: 'nope' }),
        400,
        '"nope" is not a menu of this bot\'s deployed version.',
      ],
      [
        'an unknown template',
        () => ({ msisdn: E164, template: { name: 'nope', language: 'en', variables: {} } }),
        400,
        'This number has no template "nope" in en: it was never made here',
      ],
      [
        'a template not approved',
        () => ({ msisdn: E164, template: { name: 'spring_promo', language: 'en', variables: { body: { '1': 'Ama' } } } }),
        400,
        'The template "spring_promo" is PAUSED, not APPROVED: WhatsApp sends approved templates only',
      ],
      [
        'a template variable missing',
        () => ({ msisdn: E164, template: { name: 'order_update', language: 'en', variables: { body: { '1': 'Ama' } } } }),
        400,
        'Cannot fill the template "order_update": no value for {{2}} in the body',
      ],
      [
        'a variable the template does not have',
        () => ({ msisdn: E164, template: { ...WELCOME, variables: { body: { '1': 'Ama', '2': 'x' }, header: { '1': 'y' } } } }),
        400,
        'Cannot fill the template "welcome_back": the template "welcome_back" has no {{1}} in the header, {{2}} in the body',
      ],
      [
        'a contact field the contact does not have',
        () => ({ msisdn: E164, template: { ...WELCOME, variables: { body: { '1': '{{contact.city}}' } } } }),
        400,
        'Cannot fill the template "welcome_back": no value for {{1}} in the body',
      ],
      [
        'variables in no place',
        () => ({ msisdn: E164, template: { ...WELCOME, variables: { name: 'Ama' } } }),
        400,
        'Variables go under header or body',
      ],
      ['an empty body', () => ({}), 400, /phone number/],
    ];
    it.each(REFUSALS)('%s', async (_, body, status, message) => {
      const before = (await firstMessages(t, bot.appId)).length;
      const res = await start(body());
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toMatch(message);
      expect(await firstMessages(t, bot.appId)).toHaveLength(before);
    });

    it('a contact who never opted in, or opted out', async () => {
      await seedContact(t, builder.user.id, null);
      expect((await start({ msisdn: E164 })).json()).toMatchObject({
        status: '02',
        message: `${E164} never opted in to WhatsApp`,
      });
      await seedContact(t, builder.user.id, 'out');
      expect((await start({ msisdn: E164 })).json().message).toMatch(`${E164} opted out of WhatsApp on 2026-01-02`);
      expect((await start({ msisdn: '+233209999999' })).json().message).toBe(
        'This number is not one of your contacts, so it has not opted in to WhatsApp messages.',
      );
      await seedContact(t, builder.user.id, 'in', { name: 'Ama' });
    });

    it('an inactive bot, and a number that is not CONNECTED', async () => {
      const { post } = createApiClient(t, builder);
      await post(`/api/chatbot/app/${bot.appId}/status`, { status: 'inactive' });
      expect((await start({ msisdn: E164 })).json()).toMatchObject({
        status: '02',
        message: 'This bot is inactive: switch it on in Bot Settings before starting conversations.',
      });
      await post(`/api/chatbot/app/${bot.appId}/status`, { status: 'active' });
      await t.db.update(whatsappLinks).set({ status: 'DISCONNECTED' }).where(eq(whatsappLinks.id, bot.linkId));
      const res = await start({ msisdn: E164 });
      expect([res.statusCode, res.json().message]).toEqual([
        409,
        'No number of this bot is connected: link a number and wait until it is CONNECTED.',
      ]);
      await t.db.update(whatsappLinks).set({ status: 'CONNECTED' }).where(eq(whatsappLinks.id, bot.linkId));
    });

    it("another account's bot answers 404, its contacts are never read", async () => {
      for (const res of [await start({ msisdn: E164 }, stranger.auth), await window(E164, stranger.auth)]) {
        expect([res.statusCode, res.json().message]).toEqual([404, 'Bot not found']);
      }
    });
  });

  it('API keys: a read key reads the window, only a write key starts a conversation', async () => {
    const { post } = createApiClient(t, builder);
    const readKey = (await post('/api/apiKey/create', { name: 'read', scope: 'read' })).json().key as string;
    const writeKey = (await post('/api/apiKey/create', { name: 'write', scope: 'write' })).json().key as string;
    const read = await window(E164, { authorization: `Bearer ${readKey}` });
    expect(read.json(), read.body).toMatchObject({ status: '00' });
    const refused = await start({ msisdn: E164 }, { authorization: `Bearer ${readKey}` });
    expect(refused.statusCode).toBe(403);
    expect((await start({ msisdn: E164, template: WELCOME }, { authorization: `Bearer ${writeKey}` })).json()).toMatchObject({
      status: '00',
      data: { kind: 'template' },
    });
  });
});

describeDb('writing first: the rate limit per account', () => {
  const t = useTestApp({ CONVERSATION_START_RATE_LIMIT: 2 });
  const builder = useUser(t, { roles: ['CHATBOT'] });

  it('refuses past the limit a minute, with 429 and nothing sent', async () => {
    const bot = await seedLinkedBot(t, builder);
    await seedContact(t, builder.user.id, 'in', { name: 'Kofi' });
    const body = { msisdn: E164, template: WELCOME };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await t.app.inject({ method: 'POST', url: `/api/bots/${bot.appId}/conversations`, headers: builder.auth, payload: body }))
          .statusCode,
      );
    expect(statuses).toEqual([200, 200, 429]);
    expect(await firstMessages(t, bot.appId)).toHaveLength(2);
    // Another account has a count of its own.
    const other = await seedUser(t, { roles: ['CHATBOT'] });
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/bots/${bot.appId}/conversations`, headers: other.auth, payload: body })).statusCode,
    ).toBe(404);
  });
});
