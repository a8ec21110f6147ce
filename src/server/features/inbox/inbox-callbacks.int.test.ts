import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { inboxConversations } from '../../../db/schema';
import { INBOX_MESSAGES } from '../../../shared/api/inbox.schema';
import { DEFAULT_CALLBACK_TEXT } from '../../../shared/inbox';
import { DEFAULT_CLOSED_CALLBACK_TEXT, OFFICE_HOURS_MESSAGES } from '../../../shared/office-hours';
import { dialTestUrl } from '../../../../tests/support/dial';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';

/**
 * Callback requests (docs/inbox.md): on USSD a rule's handoff opens an inbox conversation with the caller's number
 * and answers, which an agent calls back and marks done (closes). No reply can go over USSD. The emulator (a console
 * user's own session) shows the screen and opens nothing; another account sees nothing. Outside the app's office
 * hours the caller is told when the team is back.
 */
describeDb('callback requests from USSD callers', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const stranger = useUser(t);
  let appId = '';
  beforeAll(async () => {
    appId = await seedApp(t, owner.auth, { appName: 'Loans' });
    const done = await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'done',
      displayText: 'Thanks, we will text you.',
      terminate: true,
    });
    const amount = await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'amount',
      displayText: 'How much do you need?',
      switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: done }],
    });
    await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'home',
      displayText: 'Loans\n1. Apply\n2. Call me back',
      isFirst: true,
      switchOperations: [
        { operator: 'eq', compareVal: '1', action: 'goto', actionParam: amount },
        { operator: 'eq', compareVal: '2', action: 'Terminate', actionParam: '', handoff: { reason: 'wants a call' } },
      ],
    });
  });
  const agent = () => createApiClient(t, owner);
  const openRequests = async () =>
    ((await agent().get('/api/inbox/conversations?filter=open')).json().data.conversations as Array<Record<string, unknown>>).filter(
      (c) => c.appId === appId,
    );

  it("a caller's choice opens a callback request with their number and answers; no reply goes; marking it done closes it", async () => {
    expect((await dialTestUrl(t, appId, 'cb-1', '0241112222')).body).toContain('2. Call me back');
    const ended = await dialTestUrl(t, appId, 'cb-1', '0241112222', '2');
    expect(ended.body).toBe(`END ${DEFAULT_CALLBACK_TEXT}`);

    const [request] = await openRequests();
    expect(request).toMatchObject({
      appName: 'Loans',
      channel: 'ussd',
      linkId: null,
      msisdn: '+233241112222',
      status: 'open',
      reason: 'wants a call',
      inputs: { home: '2' },
    });
    const conversationId = request!.conversationId as string;
    const detail = (await agent().get(`/api/inbox/conversations/${conversationId}`)).json().data;
    expect(detail.messages.map((m: { author: string; text: string }) => [m.author, m.text])).toEqual([['bot', DEFAULT_CALLBACK_TEXT]]);

    // A second request from the same caller adds to the open one.
    await dialTestUrl(t, appId, 'cb-2', '+233241112222');
    await dialTestUrl(t, appId, 'cb-2', '+233241112222', '2');
    expect(await openRequests()).toHaveLength(1);

    const reply = await agent().post(`/api/inbox/conversations/${conversationId}/replies`, { text: 'Hello' });
    expect(reply.statusCode).toBe(409);
    expect(reply.json().message).toBe(INBOX_MESSAGES.callbackNoReply);
    // A note of the call, then done.
    expect((await agent().post(`/api/inbox/conversations/${conversationId}/notes`, { text: 'Called, no answer' })).json().status).toBe(
      '00',
    );
    expect((await agent().post(`/api/inbox/conversations/${conversationId}/close`, {})).json().data).toMatchObject({ status: 'closed' });
    expect(await openRequests()).toEqual([]);
    // Another account: not found, and not listed.
    const other = createApiClient(t, stranger);
    expect((await other.get(`/api/inbox/conversations/${conversationId}`)).statusCode).toBe(404);
    expect((await other.get('/api/inbox/conversations?filter=closed')).json().data.conversations).toEqual([]);
  });

  it('a session that ends without the handoff rule, and the emulator, open nothing', async () => {
    await dialTestUrl(t, appId, 'cb-3', '0241113333');
    await dialTestUrl(t, appId, 'cb-3', '0241113333', '1');
    expect((await dialTestUrl(t, appId, 'cb-3', '0241113333', '1*500')).body).toBe('END Thanks, we will text you.');

    const emulate = (session_mode: 'start' | 'continue', userdata: string) =>
      t.app.inject({
        method: 'POST',
        url: `/ussd-emulator/${appId}`,
        headers: owner.auth,
        payload: { session_id: 'cb-emulator', userdata, msisdn: '233241114444', session_mode, network_id: 'MTN', appId },
      });
    await emulate('start', '*920*55#');
    expect((await emulate('continue', '2')).json().text).toBe(DEFAULT_CALLBACK_TEXT);

    const rows = await t.db.select().from(inboxConversations).where(eq(inboxConversations.appId, appId));
    expect(rows.map((row) => row.msisdn)).toEqual(['+233241112222']);
  });

  it("outside the app's office hours the caller is told when the team is back; the request still opens", async () => {
    const app = (await agent().get(`/api/getAppByAppId/${appId}`)).json().data;
    const weekdays = { from: '08:00', to: '17:00' };
    const officeHours = { timeZone: 'Africa/Accra', days: { mon: weekdays, tue: weekdays, wed: weekdays, thu: weekdays, fri: weekdays } };
    const saved = await agent().post('/api/updateApp', {
      ...app,
      officeHours: { ...officeHours, days: { mon: { from: '17:00', to: '08:00' } } },
    });
    expect(saved.json()).toMatchObject({ status: '02', message: OFFICE_HOURS_MESSAGES.order });
    expect((await agent().post('/api/updateApp', { ...app, officeHours })).json().status).toBe('00');
    expect((await agent().get(`/api/getAppByAppId/${appId}`)).json().data.officeHours).toEqual({ ...officeHours, closedReply: {} });

    // The next Monday, 10:00 in Accra (UTC): open. Then 18:00: closed.
    const now = new Date();
    const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + ((8 - now.getUTCDay()) % 7 || 7), 10));
    t.advanceClock(monday.getTime() - Date.now());
    await dialTestUrl(t, appId, 'cb-open', '0241115555');
    expect((await dialTestUrl(t, appId, 'cb-open', '0241115555', '2')).body).toBe(`END ${DEFAULT_CALLBACK_TEXT}`);
    t.advanceClock(8 * 3_600_000);
    await dialTestUrl(t, appId, 'cb-closed', '0241116666');
    const closedText = DEFAULT_CLOSED_CALLBACK_TEXT.replace('{hours}', 'Mon-Fri 08:00-17:00');
    expect((await dialTestUrl(t, appId, 'cb-closed', '0241116666', '2')).body).toBe(`END ${closedText}`);
    const request = (await openRequests()).find((c) => c.msisdn === '+233241116666')!;
    const detail = (await agent().get(`/api/inbox/conversations/${request.conversationId}`)).json().data;
    expect(detail.messages.map((m: { text: string }) => m.text)).toEqual([closedText]);
  });
});
