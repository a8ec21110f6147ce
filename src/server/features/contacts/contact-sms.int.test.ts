import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { actionResults, contacts, smsMessages } from '../../../db/schema';
import { dialTestUrl } from '../../../../tests/support/dial';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';

/**
 * SMS as a channel of contacts (docs/contacts.md): an app's SMS to a number is its contact's `sms` seen, and an SMS to
 * a contact opted out of SMS is refused with the reason.
 */
describeDb('contacts and the SMS an app sends', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;

  beforeAll(async () => {
    appId = await seedApp(t, owner.auth, { country: 'ghana', customShortCode: '*920*55#' });
    await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'hello',
      displayText: 'Hello',
      isFirst: true,
      terminate: true,
      actions: [
        {
          actionName: 'welcome',
          actionType: 'pre',
          inheritsPlugin: 'sendsms',
          code: { smsSender: '', mobile: '{{ session.mobile }}', smsMessage: 'Welcome' },
        },
      ],
    });
  });

  const dial = (sessionId: string, phoneNumber: string) => dialTestUrl(t, appId, sessionId, phoneNumber);
  const findContact = async (msisdn: string) => {
    await t.app.runtime.flushEvents();
    return (
      await t.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.ownerId, owner.user.id), eq(contacts.msisdn, msisdn)))
    )[0];
  };

  it("an app's SMS to a number sets the contact's sms first and last seen", async () => {
    await dial('S-1', '0241000021');
    const contact = await findContact('+233241000021');
    expect(contact?.firstSeenSms).toBeInstanceOf(Date);
    expect(contact?.lastSeenSms).toEqual(contact?.firstSeenSms);
    const sent = await t.db.select().from(smsMessages).where(eq(smsMessages.appId, appId));
    expect(sent.map((m) => m.recipient)).toEqual(['0241000021']);
  });

  it('refuses an SMS to a contact opted out of SMS, with the reason, and queues nothing', async () => {
    const at = '2026-11-20T10:00:00.000Z';
    await t.db.insert(contacts).values({
      ownerId: owner.user.id,
      msisdn: '+233241000022',
      consent: { sms: { status: 'out', at, source: 'keyword', detail: 'stop' } },
    });
    expect((await dial('S-2', '233241000022')).body).toBe('END Hello');
    await t.app.runtime.flushEvents();
    const [result] = await t.db
      .select()
      .from(actionResults)
      .where(and(eq(actionResults.appId, appId), eq(actionResults.sessionId, 'S-2')));
    expect(JSON.stringify(result?.result)).toContain('+233241000022 opted out of SMS on 2026-11-20 (STOP)');
    const queued = await t.db
      .select()
      .from(smsMessages)
      .where(and(eq(smsMessages.appId, appId), eq(smsMessages.sessionId, 'S-2')));
    expect(queued).toEqual([]);
    expect((await findContact('+233241000022'))?.firstSeenSms).toBeNull();
  });
});
