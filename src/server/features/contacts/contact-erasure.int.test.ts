import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import {
  contacts,
  sessionRecords,
  smsMessages,
  transactions,
  webhookDeliveries,
  whatsappFirstMessages,
  whatsappLinks,
  whatsappMessages,
  whatsappWindows,
} from '../../../db/schema';
import { dialTestUrl } from '../../../../tests/support/dial';
import { seedApp, seedTwoMenus } from '../../../../tests/support/seed-app';
import { useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';

/**
 * Deleting a contact erases the number from the SMS the account's apps sent, the webhook events and the payments
 * (docs/contacts.md, "Deleting a contact"); another number and another account's rows stay as they were.
 */
describeDb('deleting a contact: SMS, webhook deliveries and payments', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const other = useUser(t);
  let appId: string;
  let otherApp: string;

  const dial = (app: string, sessionId: string, phoneNumber: string, text: string) => dialTestUrl(t, app, sessionId, phoneNumber, text);

  beforeAll(async () => {
    appId = await seedApp(t, owner.auth, { country: 'ghana' });
    const always = { operator: 'always', compareVal: '' };
    await seedTwoMenus(
      t,
      owner.auth,
      appId,
      { userDefinedName: 'ask', displayText: 'Name?' },
      { userDefinedName: 'bye', displayText: 'Bye' },
      always,
    );
    otherApp = await seedApp(t, other.auth, { country: 'ghana' });
    await seedTwoMenus(
      t,
      other.auth,
      otherApp,
      { userDefinedName: 'ask', displayText: 'Name?' },
      { userDefinedName: 'bye', displayText: 'Bye' },
    );
    await dial(appId, 'E-1', '233241000009', '');
    await dial(appId, 'E-1', '233241000009', 'Yaw');
    await t.app.runtime.flushEvents();
    // What a bot's session keeps of a place the person shared (session.media), as its record stores it.
    await t.db
      .update(sessionRecords)
      .set({ media: { where: { latitude: 5.6, longitude: -0.2, name: 'Home' } } })
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.sessionId, 'E-1')));

    const sms = (ownerId: string, app: string, recipient: string, status: string) => ({
      appId: app,
      ownerId,
      sessionId: 'E-1',
      recipient,
      message: `Hello Yaw, your code is 1234 (${recipient})`,
      status,
      // Not due yet: the dispatcher leaves the queued one queued until the deletion.
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });
    await t.db
      .insert(smsMessages)
      .values([
        sms(owner.user.id, appId, '0241000009', 'SENT'),
        sms(owner.user.id, appId, '+233241000009', 'QUEUED'),
        sms(owner.user.id, appId, '233241000010', 'SENT'),
        sms(other.user.id, otherApp, '233241000009', 'SENT'),
      ]);
    const at = new Date();
    const delivery = (app: string, eventId: string, data: Record<string, unknown>) => ({
      appId: app,
      eventId,
      eventType: 'session.completed',
      data,
      occurredAt: at,
      lastResponseExcerpt: JSON.stringify(data),
    });
    await t.db
      .insert(webhookDeliveries)
      .values([
        delivery(appId, 'evt-own-session', { sessionId: 'E-1', mobile: '', inputs: { ask: 'Yaw' } }),
        delivery(appId, 'evt-own-payment', { reference: 'R-OWN', mobile: '233241000009', amount: '5.00' }),
        delivery(appId, 'evt-own-another', { sessionId: 'E-2', mobile: '233241000010', inputs: { ask: 'Esi' } }),
        delivery(otherApp, 'evt-other', { sessionId: 'E-1', mobile: '233241000009', inputs: { ask: 'Yaw' } }),
      ]);
    const payment = (app: string, ownerId: string, reference: string, mobile: string) => ({
      reference,
      transactionType: 'payment',
      amount: '5.00',
      status: 'SUCCESS',
      userId: ownerId,
      appId: app,
      metadata: { provider: 'sandbox', mobile, network: 'MTN', sessionId: 'E-1', checkoutToken: 'tok', customerName: 'Yaw Boateng' },
    });
    await t.db
      .insert(transactions)
      .values([
        payment(appId, owner.user.id, 'R-OWN', '233241000009'),
        payment(appId, owner.user.id, 'R-ANOTHER', '233241000010'),
        payment(otherApp, other.user.id, 'R-OTHER', '233241000009'),
      ]);
    // What a bot of each account kept on WhatsApp of the same number: a conversation started, the window, a message.
    for (const [ownerId, app] of [
      [owner.user.id, appId],
      [other.user.id, otherApp],
    ] as const) {
      const [link] = await t.db.insert(whatsappLinks).values({ appId: app, connector: 'simulator', status: 'CONNECTED' }).returning();
      await t.db
        .insert(whatsappFirstMessages)
        .values({ ownerId, appId: app, linkId: link!.id, msisdn: '+233241000009', entryMenuId: 'm', kind: 'menu' });
      await t.db.insert(whatsappWindows).values({ linkId: link!.id, msisdn: '+233241000009', lastInboundAt: at });
      await t.db.insert(whatsappMessages).values({
        userId: ownerId,
        appId: app,
        linkId: link!.id,
        environment: 'live',
        toNumber: '233241000009',
        providerMessageId: `sim-${app}`,
        kind: 'text',
        status: 'read',
        sentAt: at,
      });
    }
  });

  it('anonymises the number everywhere with the token of its sessions, in one deletion, and leaves the rest', async () => {
    const [contact] = await t.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.ownerId, owner.user.id), eq(contacts.msisdn, '+233241000009')));
    const res = await t.app.inject({ method: 'DELETE', url: `/api/contacts/${contact!.id}`, headers: owner.auth });
    expect(res.json()).toMatchObject({ status: '00' });
    const [record] = await t.db
      .select()
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.sessionId, 'E-1')));
    const token = record!.mobile;
    expect(token).toMatch(/^erased:/);
    expect(record!.media).toBeNull();

    const sms = await t.db.select().from(smsMessages).orderBy(smsMessages.createdAt, smsMessages.recipient);
    const byRecipient = Object.fromEntries(sms.map((m) => [`${m.ownerId === owner.user.id ? 'own' : 'other'} ${m.recipient}`, m]));
    expect(sms.filter((m) => m.recipient === token)).toHaveLength(2);
    expect(sms.filter((m) => m.recipient === token).every((m) => m.message === '(erased)')).toBe(true);
    expect(sms.find((m) => m.recipient === token && m.status === 'FAILED')).toMatchObject({
      lastError: 'Not sent: the number was erased',
    });
    expect(sms.find((m) => m.recipient === token && m.status === 'SENT')).toBeDefined();
    expect(byRecipient['own 233241000010']!.message).toContain('Hello Yaw');
    expect(byRecipient['other 233241000009']!.message).toContain('Hello Yaw');

    const deliveries = Object.fromEntries((await t.db.select().from(webhookDeliveries)).map((d) => [d.eventId, d]));
    expect(deliveries['evt-own-session']).toMatchObject({
      data: { sessionId: 'E-1', mobile: token, inputs: {} },
      lastResponseExcerpt: null,
    });
    expect(deliveries['evt-own-payment']).toMatchObject({
      data: { reference: 'R-OWN', mobile: token, amount: '5.00' },
      lastResponseExcerpt: null,
    });
    expect(deliveries['evt-own-another']!.data).toEqual({ sessionId: 'E-2', mobile: '233241000010', inputs: { ask: 'Esi' } });
    expect(deliveries['evt-other']!.data).toEqual({ sessionId: 'E-1', mobile: '233241000009', inputs: { ask: 'Yaw' } });

    const payments = Object.fromEntries((await t.db.select().from(transactions)).map((p) => [p.reference, p]));
    expect(payments['R-OWN']).toMatchObject({ amount: '5.00', status: 'SUCCESS', appId });
    expect(payments['R-OWN']!.metadata).toEqual({ provider: 'sandbox', network: 'MTN', sessionId: 'E-1', mobile: token });
    expect(payments['R-ANOTHER']!.metadata).toMatchObject({ mobile: '233241000010', customerName: 'Yaw Boateng' });
    expect(payments['R-OTHER']!.metadata).toMatchObject({ mobile: '233241000009', customerName: 'Yaw Boateng' });

    // WhatsApp: the conversations started and the windows go; the messages stay for the counts, with the token.
    const ownerOf = (userId: string) => (userId === owner.user.id ? 'own' : 'other');
    expect((await t.db.select().from(whatsappFirstMessages)).map((m) => ownerOf(m.ownerId))).toEqual(['other']);
    expect(await t.db.select().from(whatsappWindows)).toHaveLength(1);
    const messages = Object.fromEntries((await t.db.select().from(whatsappMessages)).map((m) => [ownerOf(m.userId), m]));
    expect(messages.own).toMatchObject({ toNumber: token, status: 'read' });
    expect(messages.other).toMatchObject({ toNumber: '233241000009' });
  });
});
