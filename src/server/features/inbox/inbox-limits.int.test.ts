import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { inboxConversations } from '../../../db/schema';
import { CALLBACK_FAILED_TEXT, DEFAULT_CALLBACK_TEXT } from '../../../shared/inbox';
import { dialTestUrl } from '../../../../tests/support/dial';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';

/**
 * INBOX_OPEN_PER_APP (docs/inbox.md, "Limits"): whoever holds an app's gateway URL, or a flood of numbers, cannot open
 * conversations without end. Past the limit a new callback request is refused as when the inbox cannot take it and
 * nothing is stored; a caller's own open request still takes more; once one is closed a new one opens.
 */
describeDb('open conversations per app', () => {
  const t = useTestApp({ INBOX_OPEN_PER_APP: 2 });
  const owner = useUser(t);
  let appId = '';
  beforeAll(async () => {
    appId = await seedApp(t, owner.auth, { appName: 'Loans' });
    await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'home',
      displayText: 'Loans\n1. Call me back',
      isFirst: true,
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: '', handoff: { reason: 'wants a call' } }],
    });
  });
  const ask = async (session: string, number: string) => {
    await dialTestUrl(t, appId, session, number);
    return (await dialTestUrl(t, appId, session, number, '1')).body;
  };
  const openOf = () =>
    t.db
      .select()
      .from(inboxConversations)
      .where(and(eq(inboxConversations.appId, appId), eq(inboxConversations.status, 'open')));

  it('refuses a new request past the limit, storing nothing; a caller already waiting adds to theirs; a closed one makes room', async () => {
    expect(await ask('l-1', '0241000001')).toBe(`END ${DEFAULT_CALLBACK_TEXT}`);
    expect(await ask('l-2', '0241000002')).toBe(`END ${DEFAULT_CALLBACK_TEXT}`);
    expect(await ask('l-3', '0241000003')).toBe(`END ${CALLBACK_FAILED_TEXT}`);
    expect((await openOf()).map((c) => c.msisdn).sort()).toEqual(['+233241000001', '+233241000002']);
    // The first caller asks again: theirs is open, so it takes it.
    expect(await ask('l-4', '0241000001')).toBe(`END ${DEFAULT_CALLBACK_TEXT}`);
    expect(await openOf()).toHaveLength(2);
    // Marked done: room for the third.
    const [first] = await openOf();
    expect((await createApiClient(t, owner).post(`/api/inbox/conversations/${first!.id}/close`, {})).statusCode).toBe(200);
    expect(await ask('l-5', '0241000003')).toBe(`END ${DEFAULT_CALLBACK_TEXT}`);
    expect(await openOf()).toHaveLength(2);
  });
});
