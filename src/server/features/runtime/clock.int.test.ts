import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sessionRecords } from '../../../db/schema';
import { createTestApp, seedUser, type TestApp } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';

/** The runtime's parts read one clock, the injected one: a test that moves it moves them all. */
describeDb('the injected clock', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  beforeEach(async () => {
    t = await createTestApp();
    auth = (await seedUser(t)).auth;
  });
  afterEach(() => t.close());

  const dial = (appId: string, sessionId: string, text: string) =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { sessionId, serviceCode: '*920*71#', phoneNumber: '233241112222', networkCode: '62001', text },
    });

  it('expires a stored session when the clock passes its timeout: no longer active, swept as abandoned', async () => {
    const appId = await seedApp(t, auth, { customShortCode: '*920*71#' });
    await seedMenu(t, auth, appId, { userDefinedName: 'home', displayText: 'Pick\n1. One', isFirst: true });
    expect((await dial(appId, 'idle-1', '')).body).toBe('CON Pick\n1. One');
    expect((await t.app.runtime.findActiveSessions(appId)).map((s) => s.sessionId)).toEqual(['idle-1']);

    t.advanceClock(181_000);
    expect(await t.app.runtime.findActiveSessions(appId)).toEqual([]);
    await t.app.runtime.sweepExpired();
    await t.app.runtime.flushEvents();
    const records = await t.db
      .select({ status: sessionRecords.status, endCause: sessionRecords.endCause })
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.sessionId, 'idle-1')));
    // The caller stopped answering: timed out.
    expect(records).toEqual([{ status: 'abandoned', endCause: 'timed_out' }]);
  });

  it("gives an action its whole budget in real time whichever way the clock was moved (a runner's timers are real)", async () => {
    const appId = await seedApp(t, auth, { customShortCode: '*920*71#' });
    await seedMenu(t, auth, appId, {
      userDefinedName: 'home',
      displayText: 'Code {{ session.vars.code }}',
      isFirst: true,
      terminate: true,
      actions: [{ actionName: 'code', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return { vars: { code: 42 } }' }],
    });
    t.advanceClock(-600_000);
    expect((await dial(appId, 'behind-1', '')).body).toBe('END Code 42');
  });
});
