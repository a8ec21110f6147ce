/**
 * Writing first while PostgreSQL goes away (docs/bots.md, "Writing first"): the start is recorded before anything
 * is sent, so when its record cannot be written the call answers 503 in the envelope and nothing is sent or kept.
 * The test holds a lock the record must wait for and ends the connection that waits (pg_terminate_backend), as a
 * failover or restart would. Only on PostgreSQL (int-postgres): PGlite has no connections to end.
 */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { contacts, whatsappFirstMessages, whatsappWindows } from '../../../db/schema';
import { connectToTestDatabase, terminateBlockedOn } from '../../../../tests/support/db-blink';
import { seedMenu } from '../../../../tests/support/seed-app';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';

const CUSTOMER = '233241234599';

describeDb('writing first while the database goes away', () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });

  it('answers 503 in the envelope, sends nothing and records nothing', async () => {
    const { get, post } = createApiClient(t, builder);
    const appId = (await post('/api/chatbot/app/create', { appName: 'Outage Bot', description: 'writes first' })).json().data.appId;
    await seedMenu(t, builder.auth, appId, { userDefinedName: 'home', displayText: 'Welcome', isFirst: true, terminate: true });
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
    const linkId = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId })).json().linkId as string;
    const secret = new URL((await get(`/api/chatbot/whatsapp/link-status/${linkId}`)).json().qrCode).searchParams.get('secret')!;
    await post(`/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '+233200000099' }, {});
    const made = await post(`/api/chatbot/whatsapp/templates/${linkId}`, {
      name: 'news',
      language: 'en',
      category: 'MARKETING',
      body: 'Hello {{1}}, we have news.',
      examples: { body: { '1': 'Ama' } },
    });
    expect(made.json().status).toBe('00');
    const consent = { whatsapp: { status: 'in' as const, at: '2026-01-02T10:00:00.000Z', source: 'console' as const, detail: null } };
    await t.db.insert(contacts).values({ ownerId: builder.user.id, msisdn: `+${CUSTOMER}`, name: 'Ama', consent });

    const [admin, holder] = await Promise.all([connectToTestDatabase(t), connectToTestDatabase(t)]);
    try {
      // Every check passes (reads go on); the record waits for the table, and its connection is ended there.
      await holder.query('begin');
      await holder.query('lock table whatsapp_first_messages in exclusive mode');
      const starting = post(`/api/bots/${appId}/conversations`, {
        msisdn: `+${CUSTOMER}`,
        template: { name: 'news', language: 'en', variables: { body: { '1': '{{contact.name}}' } } },
      });
      await terminateBlockedOn(admin, '%insert into "whatsapp_first_messages"%');
      const reply = await starting;
      await holder.query('rollback');

      expect(reply.statusCode).toBe(503);
      expect(reply.json()).toMatchObject({
        status: expect.any(String),
        message: 'The database did not answer: nothing was sent. Please try again in a moment.',
      });
      expect(reply.json().status).not.toBe('00');
    } finally {
      await Promise.all([admin.end(), holder.end()]);
    }
    // Nothing recorded: no line, no entry menu waiting for the reply; nothing reached the phone.
    expect(await t.db.select().from(whatsappFirstMessages).where(eq(whatsappFirstMessages.appId, appId))).toEqual([]);
    const windows = await t.db.select().from(whatsappWindows).where(eq(whatsappWindows.linkId, linkId));
    expect(windows.filter((w) => w.entryMenuId !== null)).toEqual([]);
    const transcript = await t.app.inject({
      method: 'GET',
      url: `/api/whatsapp-simulator/${linkId}/messages?secret=${encodeURIComponent(secret)}&from=${CUSTOMER}`,
    });
    expect(transcript.json().data.transcript).toEqual([]);
  });
});
