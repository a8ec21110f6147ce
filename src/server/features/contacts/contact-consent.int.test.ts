import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contacts, sessionRecords } from '../../../db/schema';
import { seedMenu } from '../../../../tests/support/seed-app';
import { createApiClient, createTestApp, seedUser, type SeededUser, type TestApp } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { CONTACT_WRITE_SECONDS } from '../runtime/contact-steps';

const CUSTOMER = '233241234567';
const CUSTOMER_E164 = '+233241234567';

/**
 * Consent on WhatsApp (docs/contacts.md, "Consent"), driven through the simulator connector as a phone does:
 * STOP and START, a bot's own words per language, and a rule's consent choice.
 */
describeDb('contact consent on WhatsApp', () => {
  let t: TestApp;
  let builder: SeededUser;
  let other: SeededUser;
  let appId: string;
  let linkId: string;
  let secret: string;

  /** A bot whose home asks for offers: 1 opts in to WhatsApp, 2 opts out of SMS; both end. */
  async function seedOffersBot(user: SeededUser, name: string): Promise<string> {
    const { get, post } = createApiClient(t, user);
    const id = (await post('/api/chatbot/app/create', { appName: name, description: 'consent' })).json().data.appId;
    const done = await seedMenu(t, user.auth, id, { userDefinedName: 'done', displayText: 'Noted.', terminate: true });
    await seedMenu(t, user.auth, id, {
      userDefinedName: 'offers',
      displayText: 'Offers by WhatsApp?\n1. Yes\n2. No SMS please',
      isFirst: true,
      switchOperations: [
        { operator: 'valueIn', compareVal: '1', action: 'goto', actionParam: done, consent: { channel: 'whatsapp', status: 'in' } },
        { operator: 'valueIn', compareVal: '2', action: 'goto', actionParam: done, consent: { channel: 'sms', status: 'out' } },
      ],
    });
    expect((await get(`/api/deployChanges/${id}`)).json().status).toBe('00');
    return id;
  }

  /** Links a simulator phone to the bot: its link id and the page's secret. */
  async function linkPhone(user: SeededUser, bot: string, number: string): Promise<{ linkId: string; secret: string }> {
    const { get, post } = createApiClient(t, user);
    const link = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: bot })).json().linkId as string;
    const status = (await get(`/api/chatbot/whatsapp/link-status/${link}`)).json();
    const pageSecret = new URL(status.qrCode).searchParams.get('secret')!;
    await post(`/api/whatsapp-simulator/${link}/scan`, { secret: pageSecret, mobileNumber: number }, {});
    return { linkId: link, secret: pageSecret };
  }

  const send = async (text: string, link = { linkId, secret }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/whatsapp-simulator/${link.linkId}/messages`,
      payload: { secret: link.secret, from: CUSTOMER, text, kind: 'text' },
    });
    expect(res.statusCode).toBe(200);
    return (res.json().data.messages as Array<{ type: string; text?: string; body?: string }>).map((m) => m.text ?? m.body);
  };
  const findConsent = async (ownerId: string) => {
    await t.app.runtime.flushEvents();
    const [row] = await t.db
      .select({ consent: contacts.consent })
      .from(contacts)
      .where(and(eq(contacts.ownerId, ownerId), eq(contacts.msisdn, CUSTOMER_E164)));
    return row?.consent;
  };

  beforeAll(async () => {
    t = await createTestApp();
    builder = await seedUser(t, { roles: ['CHATBOT'] });
    other = await seedUser(t, { roles: ['CHATBOT'] });
    appId = await seedOffersBot(builder, 'Ama Shop');
    ({ linkId, secret } = await linkPhone(builder, appId, '+233200000001'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('STOP opts the sender out of WhatsApp, is answered once without running the bot; a second STOP gets no answer', async () => {
    // The other account's contact with the same number, opted in by its own bot's menu.
    const otherBot = await seedOffersBot(other, 'Kofi Store');
    const otherLink = await linkPhone(other, otherBot, '+233200000002');
    await send('hi', otherLink);
    await send('1', otherLink);
    const othersBefore = await findConsent(other.user.id);
    expect(othersBefore?.whatsapp).toMatchObject({ status: 'in', source: 'menu', detail: 'offers' });

    expect(await send(' Stop ')).toEqual(['You will get no more messages from Ama Shop. Send START to get them again.']);
    const consent = await findConsent(builder.user.id);
    expect(consent?.whatsapp).toMatchObject({ status: 'out', source: 'keyword', detail: 'stop' });
    expect(Date.parse(consent!.whatsapp!.at)).not.toBeNaN();
    const sessions = await t.db.select().from(sessionRecords).where(eq(sessionRecords.appId, appId));
    expect(sessions).toHaveLength(0);

    expect(await send('STOP')).toEqual([]);
    expect(await send('unsubscribe')).toEqual([]);
    expect((await findConsent(builder.user.id))?.whatsapp).toEqual(consent!.whatsapp);
    expect(await findConsent(other.user.id)).toEqual(othersBefore);
  });

  it('START opts back in, answered once; other messages still reach the bot', async () => {
    expect(await send('start')).toEqual(['You will get messages from Ama Shop again. Send STOP to stop them.']);
    expect((await findConsent(builder.user.id))?.whatsapp).toMatchObject({ status: 'in', source: 'keyword', detail: 'start' });
    expect(await send('START')).toEqual([]);
    expect(await send('hello')).toEqual(['Offers by WhatsApp?']);
  });

  it("a rule's consent is recorded on the caller's contact with the menu's name", async () => {
    expect(await send('2')).toEqual(['Noted.']);
    const consent = await findConsent(builder.user.id);
    expect(consent?.sms).toMatchObject({ status: 'out', source: 'menu', detail: 'offers' });
    expect(consent?.whatsapp).toMatchObject({ status: 'in', source: 'keyword' });
  });

  it("honours the bot's own words per language and answers in the word's language", async () => {
    const { post } = createApiClient(t, builder);
    const refused = await post('/chatbot/app/update', {
      appId,
      appName: 'Ama Shop',
      description: 'consent',
      consentKeywords: { optOutWords: { xx: ['halt'] } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: 'Unknown language code "xx": pick one from the list of languages.',
      field: 'consentKeywords.optOutWords.xx',
    });

    const saved = await post('/chatbot/app/update', {
      appId,
      appName: 'Ama Shop',
      description: 'consent',
      consentKeywords: {
        optOutWords: { fr: ['Arrêt'], en: ['no more'] },
        optInWords: { fr: ['reprendre'] },
        optOutReply: { fr: 'Vous ne recevrez plus de messages de {app}.' },
      },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.consentKeywords.optOutWords).toEqual({ fr: ['Arrêt'], en: ['no more'] });

    expect(await send('ARRÊT')).toEqual(['Vous ne recevrez plus de messages de Ama Shop.']);
    expect((await findConsent(builder.user.id))?.whatsapp).toMatchObject({ status: 'out', source: 'keyword', detail: 'arrêt' });
    expect(await send('Reprendre')).toEqual(['You will get messages from Ama Shop again. Send STOP to stop them.']);
    expect(await send('no  more')).toEqual(['Vous ne recevrez plus de messages de Ama Shop.']);
    expect((await findConsent(builder.user.id))?.whatsapp).toMatchObject({ status: 'out', detail: 'no more' });
  });

  it("writes a conversation's new contact a minute into it, while it goes on", async () => {
    const from = '233241230001';
    const say = async (text: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/whatsapp-simulator/${linkId}/messages`,
        payload: { secret, from, text, kind: 'text' },
      });
      expect(res.statusCode).toBe(200);
    };
    const findSeen = async () => {
      await t.app.runtime.flushEvents();
      const [row] = await t.db
        .select({ firstSeenWhatsapp: contacts.firstSeenWhatsapp })
        .from(contacts)
        .where(and(eq(contacts.ownerId, builder.user.id), eq(contacts.msisdn, `+${from}`)));
      return row;
    };
    await say('hi');
    await say('hello');
    expect(await findSeen()).toBeUndefined();
    t.advanceClock(CONTACT_WRITE_SECONDS * 1000);
    await say('hello again');
    expect(await findSeen()).toMatchObject({ firstSeenWhatsapp: expect.any(Date) });
    // The conversation goes on.
    expect((await t.app.runtime.findActiveSessions(appId)).filter((s) => s.msisdn.endsWith(from))).toHaveLength(1);
  });
});
