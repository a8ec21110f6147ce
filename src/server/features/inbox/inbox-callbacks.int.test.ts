import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { inboxConversations } from '../../../db/schema';
import { INBOX_MESSAGES } from '../../../shared/api/inbox.schema';
import { DEFAULT_CALLBACK_TEXT } from '../../../shared/inbox';
import { dialTestUrl } from '../../../../tests/support/dial';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';

/**
 * Callback requests (docs/inbox.md): on USSD a rule's handoff opens an inbox conversation with the caller's number
 * and answers, which an agent calls back and marks done (closes). No reply can go over USSD. The emulator (a console
 * user's own session) shows the screen and opens nothing; another account sees nothing.
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
});
