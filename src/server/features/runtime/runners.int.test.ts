import { beforeAll, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeDb } from '../../../../tests/support/test-db';
import { seedUser, useTestApp, useUser } from '../../../../tests/support/test-app';
import { subscriptions } from '../../../db/schema';
import { GRACE_DAYS } from '../../../shared/api/billing.schema';
import { isPayingAccount } from '../billing/plan-limits';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { SCRIPT_TEST_RATE_LIMIT } from '../custom-actions/custom-actions.routes';
import { TEST_HOP_LIMIT_TEXT } from './test-hop-limit';

/** Burns CPU until the sandbox stops it at its 250 ms limit. */
const BURN = 'for (;;) {}';
const FLOOD = 32;

describeDb('the javascript pool between accounts', () => {
  const t = useTestApp();
  const victim = useUser(t);
  const attacker = useUser(t);
  let victimApp: string;
  let attackerApp: string;
  beforeAll(async () => {
    // Every hop of the victim's app runs a javascript action.
    victimApp = await seedApp(t, victim.auth, { customShortCode: '*920*61#' });
    const fee = await seedMenu(t, victim.auth, victimApp, {
      userDefinedName: 'fee',
      displayText: 'Fee for {{ session.inputs.start }}: {{ session.vars.fee }}',
      terminate: true,
      actions: [
        {
          actionName: 'fee',
          actionType: 'pre',
          inheritsPlugin: 'javascript',
          code: 'return { vars: { fee: Number(session.inputs.start) * 2 } }',
        },
      ],
    });
    await seedMenu(t, victim.auth, victimApp, {
      userDefinedName: 'start',
      displayText: 'Code {{ session.vars.code }}',
      isFirst: true,
      actions: [
        {
          actionName: 'code',
          actionType: 'pre',
          inheritsPlugin: 'javascript',
          code: 'return { vars: { code: session.mobile.slice(-4) } }',
        },
      ],
      switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: fee }],
    });
    attackerApp = await seedApp(t, attacker.auth, { customShortCode: '*920*62#' });
    await seedMenu(t, attacker.auth, attackerApp, {
      userDefinedName: 'burn',
      displayText: 'Burnt',
      isFirst: true,
      terminate: true,
      actions: [{ actionName: 'burn', actionType: 'pre', inheritsPlugin: 'javascript', code: BURN }],
    });
  });

  const hop = (appId: string, sessionId: string, phoneNumber: string, text: string) =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { sessionId, serviceCode: '*920*61#', phoneNumber, networkCode: '62001', text },
    });

  /**
   * Sends the flood, waits until the pool has run one of its scripts (the rest are then waiting in the pool),
   * then runs ten sessions of the victim's app, two javascript hops each, checking every screen. Returns how
   * many flood requests were still unanswered when the victim's first hop was, and the flood's replies.
   */
  async function runVictimDuring(send: () => Promise<LightMyRequestResponse>, hasRun: (res: LightMyRequestResponse) => boolean) {
    let answered = 0;
    let onFirstRun!: () => void;
    const firstRun = new Promise<void>((resolve) => (onFirstRun = resolve));
    const flood = Array.from({ length: FLOOD }, () =>
      send().then((res) => {
        answered += 1;
        if (hasRun(res)) onFirstRun();
        return res;
      }),
    );
    await firstRun;
    let pendingAtFirstHop = -1;
    for (let i = 0; i < 10; i++) {
      const mobile = `23324${1_000_000 + i}`;
      const sessionId = `victim-${i}-${Date.now()}`;
      expect((await hop(victimApp, sessionId, mobile, '')).body).toBe(`CON Code ${mobile.slice(-4)}`);
      if (pendingAtFirstHop === -1) pendingAtFirstHop = FLOOD - answered;
      expect((await hop(victimApp, sessionId, mobile, String(i))).body).toBe(`END Fee for ${i}: ${i * 2}`);
    }
    return { pendingAtFirstHop, replies: await Promise.all(flood) };
  }

  it("answers another account's javascript hops while one account floods the script test endpoint", async () => {
    const { pendingAtFirstHop, replies } = await runVictimDuring(
      () =>
        t.app.inject({
          method: 'POST',
          url: '/api/custom-action/test',
          headers: attacker.auth,
          payload: { code: BURN, sessionValues: {}, actionResults: {} },
        }),
      (res) => res.statusCode === 200,
    );
    // The victim's hops were answered while the attacker's scripts still waited: they never queued behind them.
    expect(pendingAtFirstHop).toBeGreaterThan(0);
    const limited = replies.filter((res) => res.statusCode === 429);
    expect(limited.length).toBe(FLOOD - SCRIPT_TEST_RATE_LIMIT);
    expect(limited[0]!.json()).toEqual({ status: '05', message: 'Too many attempts. Please wait a minute and try again.' });
    for (const res of replies.filter((r) => r.statusCode !== 429)) {
      expect(res.json().data.consoleMessages.at(-1)).toEqual({
        type: 'error',
        message: expect.stringMatching(/^Script used more than 250 ms of CPU|^Script timed out/),
      });
    }
  });

  it("answers another account's javascript hops while one account floods its own app's hops", async () => {
    let n = 0;
    const { pendingAtFirstHop, replies } = await runVictimDuring(
      // A number per session: one number is held to a few new sessions a minute (gateway-limits.ts).
      () => hop(attackerApp, `flood-${n}`, `23324${2_000_000 + n++}`, ''),
      (res) => res.body === 'END Burnt',
    );
    expect(pendingAtFirstHop).toBeGreaterThan(0);
    for (const res of replies) expect(res.body).toMatch(/^END (Burnt|Service temporarily unavailable\. Please try again\.)$/);
  });
});

describeDb('test URL runs per account', () => {
  const t = useTestApp({ TEST_HOP_RATE_LIMIT: 3 });
  const owner = useUser(t, { plan: 'TRIAL' });
  const other = useUser(t, { plan: 'TRIAL' });

  const hop = (appId: string, sessionId: string, text: string) =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { sessionId, serviceCode: '*920*63#', phoneNumber: '233241000001', networkCode: '62001', text },
    });

  async function seedEcho(auth: Record<string, string>, shortCode: string): Promise<string> {
    const appId = await seedApp(t, auth, { customShortCode: shortCode });
    await seedMenu(t, auth, appId, { userDefinedName: 'start', displayText: 'Say something', isFirst: true });
    return appId;
  }

  it("answers the gateway's end screen once an account's test hops pass the limit, and other accounts' go on", async () => {
    const first = await seedEcho(owner.auth, '*920*63#');
    const second = await seedEcho(owner.auth, '*920*64#');
    const others = await seedEcho(other.auth, '*920*65#');
    // Counted per account, over all its apps and sessions, starts and continues alike.
    expect((await hop(first, 'limit-1', '')).body).toBe('CON Say something');
    expect((await hop(first, 'limit-1', '1')).body).toMatch(/^CON /);
    expect((await hop(second, 'limit-2', '')).body).toBe('CON Say something');
    const refused = await hop(second, 'limit-3', '');
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toBe(`END ${TEST_HOP_LIMIT_TEXT}`);
    expect((await hop(first, 'limit-1', '1*2')).body).toBe(`END ${TEST_HOP_LIMIT_TEXT}`);
    expect((await hop(others, 'limit-4', '')).body).toBe('CON Say something');
  });
});

describeDb("the javascript pool's unpaid group", () => {
  const t = useTestApp();
  const off = useTestApp({ BILLING: 'off' });
  const trial = useUser(t, { plan: 'TRIAL' });
  const paying = useUser(t, { plan: 'STANDARD' });

  async function subscribeEndingDaysAgo(days: number): Promise<string> {
    const { user } = await seedUser(t, { plan: 'TRIAL' });
    const periodEnd = new Date(Date.now() - days * 86_400_000);
    await t.db
      .insert(subscriptions)
      .values({ userId: user.id, plan: 'STANDARD', periodStart: new Date(periodEnd.getTime() - 30 * 86_400_000), periodEnd });
    return user.id;
  }

  it('holds TRIAL and inactive accounts to it; paying ones, those in their grace days, and every account with BILLING=off are not', async () => {
    const ctx = t.app.ctx;
    expect(await isPayingAccount(ctx, trial.user.id)).toBe(false);
    expect(await isPayingAccount(ctx, paying.user.id)).toBe(true);
    expect(await isPayingAccount(ctx, await subscribeEndingDaysAgo(1))).toBe(true);
    expect(await isPayingAccount(ctx, await subscribeEndingDaysAgo(GRACE_DAYS + 1))).toBe(false);
    expect(await isPayingAccount(off.app.ctx, trial.user.id)).toBe(true);
  });
});
