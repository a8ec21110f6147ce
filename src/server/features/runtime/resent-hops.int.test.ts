import { beforeAll, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { sessionRecords, smsMessages, transactions } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import { createTestApp, seedUser, type TestApp, useTestApp } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { buildApp } from '../../app';
import { createConfig } from '../../config';

const welcomeSms = {
  actionName: 'welcome',
  actionType: 'pre',
  inheritsPlugin: 'sendsms',
  code: { smsSender: '', mobile: '{{ session.mobile }}', smsMessage: 'Welcome' },
};

/**
 * Pay GHS 5: the first menu runs no action; the number menu queues an SMS when it is entered and starts a
 * payment prompt on its input; the last screen ends the session. With `firstMenuSms`, the first menu queues
 * an SMS too.
 */
async function seedPayApp(t: TestApp, auth: Record<string, string>, options: { firstMenuSms?: boolean } = {}) {
  const appId = await seedApp(t, auth, { customShortCode: '*920*55#' });
  const done = await seedMenu(t, auth, appId, {
    userDefinedName: 'done',
    displayText: 'Payment {{ actions.pay.status }} for {{ session.inputs.number }}',
    terminate: true,
  });
  const number = await seedMenu(t, auth, appId, {
    userDefinedName: 'number',
    displayText: 'Enter the number to charge',
    actions: [
      welcomeSms,
      {
        actionName: 'pay',
        actionType: 'post',
        inheritsPlugin: 'paymentprompt',
        code: { mobile: '{{ session.inputs.number }}', amount: '5', network: 'mtn' },
      },
    ],
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: done }],
  });
  await seedMenu(t, auth, appId, {
    userDefinedName: 'product',
    displayText: 'Pay\n1. Pay GHS 5',
    isFirst: true,
    actions: options.firstMenuSms ? [welcomeSms] : [],
    switchOperations: [{ operator: 'valueIn', compareVal: '1', action: 'goto', actionParam: number }],
  });
  return appId;
}

/** A hop as Africa's Talking posts it: a form with the cumulative text. */
function sendHop(app: FastifyInstance, appId: string, sessionId: string, text: string, serviceCode = '*920*55#') {
  return app.inject({
    method: 'POST',
    url: `/ussd/${appId}/test`,
    payload: new URLSearchParams({ sessionId, serviceCode, phoneNumber: '+233241112222', networkCode: '62001', text }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** The same database served by a second process whose in-memory sessions start empty (a restart). */
function buildRestartedApp(t: TestApp, overrides: Record<string, string> = {}) {
  return buildApp(createConfig({ NODE_ENV: 'test', ...overrides }), { database: t.app.ctx.database, logger: false });
}

async function countPayments(t: TestApp, appId: string, sessionId: string): Promise<number> {
  const rows = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(transactions)
    .where(and(eq(transactions.appId, appId), sql`${transactions.metadata}->>'sessionId' = ${sessionId}`));
  return rows[0]!.n;
}

async function countSms(t: TestApp, appId: string, sessionId: string): Promise<number> {
  const rows = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(smsMessages)
    .where(and(eq(smsMessages.appId, appId), eq(smsMessages.sessionId, sessionId)));
  return rows[0]!.n;
}

describeDb("Africa's Talking hops sent again", () => {
  const t = useTestApp();
  let appId: string;
  let appWithFirstSms: string;
  beforeAll(async () => {
    // Both apps dial *920*55#, and an account's apps have different dial strings: an owner each.
    appId = await seedPayApp(t, (await seedUser(t)).auth);
    appWithFirstSms = await seedPayApp(t, (await seedUser(t)).auth, { firstMenuSms: true });
  });

  it('answers a resent hop with the same screen and runs its actions once, the last hop included', async () => {
    const hop = (text: string) => sendHop(t.app, appId, 'AT-again', text);
    const first = await hop('');
    expect(first.body).toBe('CON Pay\n1. Pay GHS 5');
    expect((await hop('')).body).toBe(first.body);

    const number = await hop('1');
    expect(number.body).toBe('CON Enter the number to charge');
    const numberAgain = await hop('1');
    expect(numberAgain.statusCode).toBe(200);
    expect(numberAgain.body).toBe(number.body);
    expect(await countSms(t, appId, 'AT-again')).toBe(1);

    const paid = await hop('1*0244000000');
    expect(paid.body).toBe('END Payment PENDING for 0244000000');
    const paidAgain = await hop('1*0244000000');
    expect(paidAgain.statusCode).toBe(200);
    expect(paidAgain.body).toBe(paid.body);
    expect(await countPayments(t, appId, 'AT-again')).toBe(1);

    // The finished session kept for resends is not active, and neither the end notification nor its expiry
    // records it again.
    expect((await t.app.runtime.findActiveSessions(appId)).map((s) => s.sessionId)).not.toContain('AT-again');
    const notification = {
      sessionId: 'AT-again',
      serviceCode: '*920*55#',
      phoneNumber: '+233241112222',
      networkCode: '62001',
      status: 'Success',
      input: '1*0244000000',
    };
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/ussd/${appId}/test`,
          payload: new URLSearchParams(notification).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(200);
    await t.app.runtime.flushEvents();
    const records = await t.db
      .select()
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.sessionId, 'AT-again')));
    expect(records.map((r) => r.status)).toEqual(['completed']);
  });

  it('refuses a late copy of an older hop and changes nothing, before and after the session ended', async () => {
    const hop = (text: string) => sendHop(t.app, appId, 'AT-late', text);
    await hop('');
    await hop('1');
    const lateFirst = await hop('');
    expect(lateFirst.statusCode).toBe(400);
    expect(lateFirst.json().message).toBe('Africa\'s Talking request: text "" does not continue the previous hop\'s text "1"');
    expect((await hop('1*0244000000')).body).toBe('END Payment PENDING for 0244000000');
    expect((await hop('1')).statusCode).toBe(400);
    expect((await hop('1*0244000000')).body).toBe('END Payment PENDING for 0244000000');
    expect(await countPayments(t, appId, 'AT-late')).toBe(1);
    expect(await countSms(t, appId, 'AT-late')).toBe(1);
    // An empty text on the id of a finished session starts a new one (a tool reusing ids; AT never does).
    expect((await hop('')).body).toBe('CON Pay\n1. Pay GHS 5');
  });

  it('never runs an action again for a cumulative text whose session was lost in a restart; a dialled extension still starts deep', async () => {
    expect((await sendHop(t.app, appId, 'AT-lost', '')).body).toBe('CON Pay\n1. Pay GHS 5');
    expect((await sendHop(t.app, appId, 'AT-lost', '1')).body).toBe('CON Enter the number to charge');
    expect((await sendHop(t.app, appId, 'AT-lost', '1*0244000000')).body).toBe('END Payment PENDING for 0244000000');
    expect((await sendHop(t.app, appId, 'AT-open', '')).body).toBe('CON Pay\n1. Pay GHS 5');
    expect((await sendHop(t.app, appId, 'AT-open', '1')).body).toBe('CON Enter the number to charge');

    const restarted = await buildRestartedApp(t);
    try {
      // The last hop sent again after the restart: the session is gone, so it starts over at the first menu
      // (which runs no action) instead of replaying 1, 0244000000 through the payment.
      expect((await sendHop(restarted, appId, 'AT-lost', '1*0244000000')).body).toBe('CON Pay\n1. Pay GHS 5');
      // A session in the middle: its next input is not replayed either.
      expect((await sendHop(restarted, appId, 'AT-open', '1*0244000000')).body).toBe('CON Pay\n1. Pay GHS 5');
      expect((await sendHop(restarted, appId, 'AT-open', '1*0244000000*1')).body).toBe('CON Enter the number to charge');
    } finally {
      await restarted.close();
    }
    expect(await countPayments(t, appId, 'AT-lost')).toBe(1);
    expect(await countSms(t, appId, 'AT-lost')).toBe(1);
    expect(await countPayments(t, appId, 'AT-open')).toBe(0);
    // Entering the number menu again, chosen anew after the restart, queued its SMS: a new input, not a replay.
    expect(await countSms(t, appId, 'AT-open')).toBe(2);

    // A session dialled with an extension still skips ahead: AT sends the dialled code as the serviceCode
    // and an empty text.
    expect((await sendHop(t.app, appId, 'AT-dialled', '', '*920*55*1#')).body).toBe('CON Enter the number to charge');
    expect((await sendHop(t.app, appId, 'AT-dialled', '0244000000', '*920*55*1#')).body).toBe('END Payment PENDING for 0244000000');
    expect(await countPayments(t, appId, 'AT-dialled')).toBe(1);
  });

  it('ends a lost session rather than start over when the first menu runs an action', async () => {
    expect((await sendHop(t.app, appWithFirstSms, 'AT-first', '')).body).toBe('CON Pay\n1. Pay GHS 5');
    expect(await countSms(t, appWithFirstSms, 'AT-first')).toBe(1);
    const restarted = await buildRestartedApp(t);
    try {
      expect((await sendHop(restarted, appWithFirstSms, 'AT-first', '1')).body).toBe('END Your session has ended. Please dial again.');
    } finally {
      await restarted.close();
    }
    expect(await countSms(t, appWithFirstSms, 'AT-first')).toBe(1);
  });

  it('runs the engine once for copies of a hop that arrive while it is still running', async () => {
    await sendHop(t.app, appId, 'AT-race', '');
    await sendHop(t.app, appId, 'AT-race', '1');
    const replies = await Promise.all([1, 2, 3, 4].map(() => sendHop(t.app, appId, 'AT-race', '1*0244000000')));
    expect(replies.map((r) => `${r.statusCode} ${r.body}`)).toEqual(Array(4).fill('200 END Payment PENDING for 0244000000'));
    expect(await countPayments(t, appId, 'AT-race')).toBe(1);
  });
});

describeRedis("Africa's Talking hops sent again, sessions in Redis", () => {
  it('answers a hop resent to another process with the same screen, and runs it once', async () => {
    const t = await createTestApp();
    const first = await buildRestartedApp(t, { REDIS_URL: testRedisUrl });
    const second = await buildRestartedApp(t, { REDIS_URL: testRedisUrl });
    try {
      const owner = await seedUser(t);
      const appId = await seedPayApp(t, owner.auth);
      const sessionId = `AT-R-${Date.now()}`;
      expect((await sendHop(first, appId, sessionId, '')).body).toBe('CON Pay\n1. Pay GHS 5');
      expect((await sendHop(first, appId, sessionId, '1')).body).toBe('CON Enter the number to charge');
      expect((await sendHop(second, appId, sessionId, '1')).body).toBe('CON Enter the number to charge');
      expect(await countSms(t, appId, sessionId)).toBe(1);
      expect((await sendHop(first, appId, sessionId, '1*0244000000')).body).toBe('END Payment PENDING for 0244000000');
      await first.close(); // the process that answered is gone; the resend reaches the other one
      expect((await sendHop(second, appId, sessionId, '1*0244000000')).body).toBe('END Payment PENDING for 0244000000');
      expect(await countPayments(t, appId, sessionId)).toBe(1);
    } finally {
      await first.close();
      await second.close();
      await t.close();
    }
  });
});
