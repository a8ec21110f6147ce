import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailOutbox, subscriptionChanges, subscriptions, transactions, usageCounters } from '../../../db/schema';
import { BILLING_MESSAGES, GRACE_DAYS, PENDING_PAYMENT_MINUTES } from '../../../shared/api/billing.schema';
import { PLANS } from '../../../shared/billing/plans';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, type SeededUser, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { createBillingTimer } from './billing-timer';
import { admitSms } from './plan-limits';
import { toUsageMonth } from './subscription';
import { makePng } from '../../../../tests/support/media-files';
import { storeMedia } from '../media/media.service';

const DAY = 24 * 60 * 60 * 1000;
/** The tests move the clock months ahead: sign-ins must outlive that; the timer runs only when a test says. */
const SETTINGS = { TOKEN_TTL_DAYS: 3650, BILLING_TIMER_INTERVAL_MS: 0 };

/** The sandbox checkout link's reference and token. */
function readCheckout(redirectUrl: string) {
  const url = new URL(redirectUrl);
  return { reference: url.pathname.split('/').pop()!, token: url.searchParams.get('token')! };
}

/** Approves or declines on the sandbox checkout page, as the payer does. */
async function decide(t: TestApp, redirectUrl: string, decision: 'approve' | 'decline' = 'approve') {
  const { reference, token } = readCheckout(redirectUrl);
  const res = await t.app.inject({ method: 'POST', url: `/payments/sandbox/${reference}/decide`, payload: { decision, token } });
  expect(res.json().status, res.body).toBe('00');
  return res.json().data.status as string;
}

/** A signed sandbox callback, posted as the provider would. */
function postCallback(t: TestApp, reference: string, paid: { amount: number; currency: string }) {
  const callback = t.app.ctx.paymentProviders.sandbox.buildCallback(reference, 'approve', paid);
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/callback/sandbox',
    payload: callback.rawBody,
    headers: callback.headers as Record<string, string>,
  });
}

async function current(t: TestApp, user: SeededUser) {
  const res = await createApiClient(t, user).get('/api/subscription/current');
  expect(res.json().status, res.body).toBe('00');
  return res.json().data;
}

async function countPayments(t: TestApp, user: SeededUser) {
  return (await t.db.select().from(transactions).where(eq(transactions.userId, user.user.id))).length;
}

async function mailsTo(t: TestApp, user: SeededUser, subjectStart: string) {
  await t.app.ctx.background.settle();
  return (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))).filter((m) => m.subject.startsWith(subjectStart));
}

/** A deployed one-screen app of `user`'s; answers its id. */
async function seedLiveApp(t: TestApp, user: SeededUser, shortCode: string): Promise<string> {
  const appId = await seedApp(t, user.auth, { customShortCode: shortCode });
  await seedMenu(t, user.auth, appId, { userDefinedName: 'hello', isFirst: true, displayText: 'Hello from the shop', terminate: true });
  const deployed = await createApiClient(t, user).get(`/api/deployChanges/${appId}`);
  expect(deployed.json().status, deployed.body).toBe('00');
  return appId;
}

let sessionCounter = 0;
/** A new Africa's Talking session on the app's live or test URL; answers the reply body. */
async function dial(t: TestApp, appId: string, environment: 'live' | 'test', serviceCode: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/ussd/${appId}/${environment}`,
    payload: `sessionId=bill-${sessionCounter++}&phoneNumber=233241234567&serviceCode=${encodeURIComponent(serviceCode)}&text=`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** Sets the month's count in the table, as other processes' sessions would; reading the usage first writes this process's tallies. */
async function setCounter(t: TestApp, user: SeededUser, kind: 'sessions' | 'sms', count: number) {
  await current(t, user);
  await t.db
    .insert(usageCounters)
    .values({ userId: user.user.id, month: toUsageMonth(t.app.ctx.now()), kind, count })
    .onConflictDoUpdate({ target: [usageCounters.userId, usageCounters.month, usageCounters.kind], set: { count } });
}

describeDb('billing: the plan table, the subscription and bad input', () => {
  const t = useTestApp(SETTINGS);
  const user = useUser(t, { plan: 'TRIAL' });
  const other = useUser(t, { plan: 'TRIAL' });

  it('a new account is on TRIAL, active, with a zero USD balance and its limits; types are the paid plans with prices', async () => {
    expect(await current(t, user)).toEqual({
      plan: 'TRIAL',
      title: 'Trial',
      subscriptionStatus: 'active',
      state: 'trial',
      currency: 'USD',
      accountBalance: 0,
      periodStart: null,
      periodEnd: null,
      graceEndsAt: null,
      billing: 'on',
      usage: {
        month: toUsageMonth(new Date()),
        apps: { used: 0, limit: PLANS.TRIAL.limits.apps },
        menus: { used: 0, limit: PLANS.TRIAL.limits.menus },
        sessions: { used: 0, limit: PLANS.TRIAL.limits.sessions },
        sms: { used: 0, limit: PLANS.TRIAL.limits.sms },
        mediaBytes: { used: 0, limit: PLANS.TRIAL.limits.mediaBytes },
      },
    });
    const types = (await createApiClient(t, user).get('/api/subscription/types')).json().data;
    expect(types).toEqual({
      'BASIC-3': { title: 'Basic 3 months', price: 50, annualPrice: 200, periodMonths: 3 },
      'BASIC-6': { title: 'Basic 6 months', price: 85, annualPrice: 170, periodMonths: 6 },
      STANDARD: { title: 'Standard 1 year', price: 150, annualPrice: 150, periodMonths: 12 },
      PREMIUM: { title: 'Premium 1 year', price: 250, annualPrice: 250, periodMonths: 12 },
    });
  });

  it("counts the account's files kept against the plan's storage, and none of another account's", async () => {
    const png = makePng(4, 4);
    await storeMedia(t.app.ctx, { accountId: other.user.id, bytes: png, claimedMimeType: 'image/png', source: 'upload' });
    expect((await current(t, other)).usage.mediaBytes).toEqual({ used: png.length, limit: PLANS.TRIAL.limits.mediaBytes });
    expect((await current(t, user)).usage.mediaBytes.used).toBe(0);
  });

  it.each([
    ['makePayment', { plan: 'GOLD', isAnnual: true }, BILLING_MESSAGES.unknownPlan],
    ['makePayment', { plan: 'ENTERPRISE', isAnnual: true }, BILLING_MESSAGES.unknownPlan],
    ['makePayment', { plan: 'TRIAL' }, BILLING_MESSAGES.unknownPlan],
    ['makePayment', { plan: 42 }, BILLING_MESSAGES.unknownPlan],
    ['changePlan', { plan: '' }, BILLING_MESSAGES.unknownPlan],
    ['creditAccount', { plan: 'BASIC-3', amount: -5 }, BILLING_MESSAGES.amount],
    ['creditAccount', { plan: 'BASIC-3', amount: 0 }, BILLING_MESSAGES.amount],
    ['creditAccount', { plan: 'BASIC-3', amount: '0.50' }, BILLING_MESSAGES.amount],
    ['creditAccount', { plan: 'BASIC-3', amount: 1e12 }, BILLING_MESSAGES.amount],
    ['creditAccount', { plan: 'BASIC-3', amount: '10001' }, BILLING_MESSAGES.amount],
    ['creditAccount', { plan: 'BASIC-3', amount: 'ten' }, BILLING_MESSAGES.amount],
    ['creditAccount', { plan: 'BASIC-3', amount: '12.345' }, BILLING_MESSAGES.amount],
    ['creditAccount', { plan: 'BASIC-3', amount: 'NaN' }, BILLING_MESSAGES.amount],
    ['creditAccount', { plan: 'BASIC-3' }, BILLING_MESSAGES.amount],
    ['creditAccount', { plan: 'ENTERPRISE', amount: 10 }, BILLING_MESSAGES.enterprise],
  ])('%s %j is refused with a clear message and stores nothing', async (call, body, message) => {
    const res = await createApiClient(t, user).post(`/api/subscription/${call}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', message });
    expect(await countPayments(t, user)).toBe(0);
  });

  it('a plan payment opens the sandbox checkout; the approved payment activates the plan once, with a receipt and a history row', async () => {
    const api = createApiClient(t, user);
    const started = await api.post('/api/subscription/makePayment', { plan: 'basic', isAnnual: false });
    expect(started.json()).toMatchObject({
      status: '01',
      message: BILLING_MESSAGES.checkout,
      redirectUrl: expect.stringMatching(/\/payments\/sandbox\/DF-[0-9A-F]{20}\?token=/),
      reference: expect.stringMatching(/^DF-/),
    });
    const { reference } = readCheckout(started.json().redirectUrl);
    const [pending] = await t.db.select().from(transactions).where(eq(transactions.reference, reference));
    expect(pending).toMatchObject({ transactionType: 'plan', amount: '50.00', currency: 'USD', status: 'PENDING', userId: user.user.id });
    expect(pending!.metadata).toMatchObject({ plan: 'BASIC-3', months: 3, amountUsd: 50, usdRate: 1 });
    expect((await current(t, user)).plan).toBe('TRIAL');

    expect(await decide(t, started.json().redirectUrl)).toBe('SUCCESS');
    const active = await current(t, user);
    expect(active).toMatchObject({ plan: 'BASIC-3', title: 'Basic 3 months', subscriptionStatus: 'active', state: 'active' });
    const end = new Date(active.periodEnd);
    expect(end.getUTCMonth()).toBe((new Date().getUTCMonth() + 3) % 12);
    expect(new Date(active.graceEndsAt).getTime() - end.getTime()).toBe(GRACE_DAYS * DAY);
    expect(active.usage.apps.limit).toBe(2);
    expect(active.usage.sessions.limit).toBe(30_000);

    // Replayed: the same callback again, and another event for the same payment; nothing moves.
    expect((await postCallback(t, reference, { amount: 50, currency: 'USD' })).json().message).toBe('Already settled');
    expect((await postCallback(t, reference, { amount: 50, currency: 'USD' })).json().message).toBe('Already settled');
    expect((await current(t, user)).periodEnd).toBe(active.periodEnd);

    const receipts = await mailsTo(t, user, 'Receipt: Basic 3 months');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.body).toContain(reference);

    const history = (await api.get('/api/subscription/paymentHistory')).json();
    expect(history).toMatchObject({ status: '00', page: 1, pageSize: 20, total: 1 });
    expect(history.data).toEqual([
      {
        description: 'Basic 3 months (3 months)',
        date: expect.any(String),
        amountUsd: 50,
        amount: 50,
        currency: 'USD',
        status: 'SUCCESS',
        reference,
        type: 'plan',
      },
    ]);
    // Another account sees none of it.
    expect((await createApiClient(t, other).get('/api/subscription/paymentHistory')).json()).toMatchObject({ data: [], total: 0 });
    expect((await current(t, other)).plan).toBe('TRIAL');
  });

  it('on a paid plan, makePayment for another plan says to change plan, and changing to the same plan is refused', async () => {
    const api = createApiClient(t, user);
    const before = await countPayments(t, user);
    const other = await api.post('/api/subscription/makePayment', { plan: 'PREMIUM', isAnnual: true });
    expect(other.json()).toMatchObject({ status: '02', message: BILLING_MESSAGES.useChangePlan });
    const same = await api.post('/api/subscription/changePlan', { plan: 'BASIC-3' });
    expect(same.json()).toMatchObject({ status: '02', message: BILLING_MESSAGES.samePlan });
    expect(await countPayments(t, user)).toBe(before);
  });

  it('a forged callback is refused and changes nothing; one whose amount or currency differs settles as FAILED with the reason', async () => {
    const api = createApiClient(t, user);
    const periodEnd = (await current(t, user)).periodEnd;
    const started = await api.post('/api/subscription/makePayment', { plan: 'BASIC-3', isAnnual: true });
    const { reference } = readCheckout(started.json().redirectUrl);
    expect(started.json().status).toBe('01');

    const callback = t.app.ctx.paymentProviders.sandbox.buildCallback(reference, 'approve', { amount: 200, currency: 'USD' });
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/payments/callback/sandbox',
      payload: `${callback.rawBody} `,
      headers: callback.headers as Record<string, string>,
    });
    expect(forged.statusCode).toBe(401);
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/payments/callback/sandbox', payload: callback.rawBody });
    expect(unsigned.statusCode).toBe(401);
    expect((await t.db.select().from(transactions).where(eq(transactions.reference, reference)))[0]!.status).toBe('PENDING');

    expect((await postCallback(t, reference, { amount: 2, currency: 'USD' })).json().status).toBe('00');
    const [row] = await t.db.select().from(transactions).where(eq(transactions.reference, reference));
    expect(row!.status).toBe('FAILED');
    expect((row!.metadata as { failureReason: string }).failureReason).toBe('paid USD 2 instead of USD 200.00');
    expect((await current(t, user)).periodEnd).toBe(periodEnd);

    const second = await api.post('/api/subscription/makePayment', { plan: 'BASIC-3', isAnnual: false });
    const secondRef = readCheckout(second.json().redirectUrl).reference;
    await postCallback(t, secondRef, { amount: 50, currency: 'GHS' });
    expect((await t.db.select().from(transactions).where(eq(transactions.reference, secondRef)))[0]!.status).toBe('FAILED');
    expect((await current(t, user)).periodEnd).toBe(periodEnd);
  });

  it('a paid period continues from the current end; history is newest first and paged', async () => {
    const api = createApiClient(t, user);
    const before = await current(t, user);
    const started = await api.post('/api/subscription/makePayment', { plan: 'BASIC-3', isAnnual: true });
    expect(await decide(t, started.json().redirectUrl)).toBe('SUCCESS');
    const after = await current(t, user);
    const expected = new Date(before.periodEnd);
    expected.setUTCMonth(expected.getUTCMonth() + 12);
    expect(new Date(after.periodEnd).getUTCFullYear()).toBe(expected.getUTCFullYear());
    expect(new Date(after.periodEnd).getUTCMonth()).toBe(expected.getUTCMonth());

    const page1 = (await api.get('/api/subscription/paymentHistory?page=1&pageSize=2')).json();
    expect(page1.total).toBe(4);
    expect(page1.data.map((r: { status: string }) => r.status)).toEqual(['SUCCESS', 'FAILED']);
    expect(page1.data[0].description).toBe('Basic 3 months (12 months)');
    expect(page1.data[0].amountUsd).toBe(200);
    const page2 = (await api.get('/api/subscription/paymentHistory?page=2&pageSize=2')).json();
    expect(page2.data.map((r: { status: string }) => r.status)).toEqual(['FAILED', 'SUCCESS']);
    expect((await api.get('/api/subscription/paymentHistory?pageSize=500')).statusCode).toBe(400);
    expect((await api.get('/api/subscription/paymentHistory?page=0')).statusCode).toBe(400);
  });
});

describeDb('billing: credit, change of plan from the balance, stale payments', () => {
  const t = useTestApp(SETTINGS);
  const user = useUser(t, { plan: 'TRIAL' });

  it('a credit adds USD to the balance once paid; changePlan pays from the balance when it covers the price, else through the provider', async () => {
    const api = createApiClient(t, user);
    const credit = await api.post('/api/subscription/creditAccount', { plan: 'TRIAL', amount: '100.50' });
    expect(credit.json()).toMatchObject({ status: '01', message: BILLING_MESSAGES.creditCheckout });
    expect((await current(t, user)).accountBalance).toBe(0);
    expect(await decide(t, credit.json().redirectUrl)).toBe('SUCCESS');
    expect((await current(t, user)).accountBalance).toBe(100.5);
    expect(await mailsTo(t, user, 'Receipt: USD 100.50 credited')).toHaveLength(1);

    const tooDear = await api.post('/api/subscription/changePlan', { plan: 'STANDARD' });
    expect(tooDear.json()).toMatchObject({ status: '01', redirectUrl: expect.any(String) });
    expect((await current(t, user)).plan).toBe('TRIAL');

    const fromBalance = await api.post('/api/subscription/changePlan', { plan: 'BASIC-6' });
    expect(fromBalance.json()).toMatchObject({
      status: '00',
      message: BILLING_MESSAGES.changedFromBalance,
      data: { plan: 'BASIC-6', state: 'active', accountBalance: 15.5 },
    });
    // The balance no longer covers it: a second change goes to the provider, never below zero.
    const again = await api.post('/api/subscription/changePlan', { plan: 'BASIC-3' });
    expect(again.json().status).toBe('01');
    expect((await current(t, user)).accountBalance).toBe(15.5);

    const history = (await api.get('/api/subscription/paymentHistory')).json().data;
    expect(history.map((r: { type: string; status: string }) => `${r.type} ${r.status}`)).toEqual([
      'plan PENDING',
      'plan SUCCESS',
      'plan PENDING',
      'credit SUCCESS',
    ]);
    expect(history[1].description).toBe('Basic 6 months (6 months), plan change, from balance');
    expect(history[3]).toMatchObject({ description: 'Account credit', amountUsd: 100.5 });
  });

  it('a payment left PENDING past its time is verified, then marked FAILED as expired; paying it later settles nothing', async () => {
    const api = createApiClient(t, user);
    const started = await api.post('/api/subscription/makePayment', { plan: 'BASIC-6', isAnnual: false });
    const { reference } = readCheckout(started.json().redirectUrl);
    const timer = createBillingTimer(t.app.ctx, { intervalMs: 0 });
    const before = await current(t, user);

    expect((await timer.runOnce()).settled).toBe(0);
    t.advanceClock((PENDING_PAYMENT_MINUTES + 1) * 60_000);
    expect((await timer.runOnce()).settled).toBeGreaterThanOrEqual(1);
    const [row] = await t.db.select().from(transactions).where(eq(transactions.reference, reference));
    expect(row!.status).toBe('FAILED');
    expect((row!.metadata as { failureReason: string }).failureReason).toMatch(/expired/);

    expect(await decide(t, started.json().redirectUrl)).toBe('FAILED');
    expect((await current(t, user)).periodEnd).toBe(before.periodEnd);
  });
});

describeDb('billing: limits on apps, menus, live sessions and SMS', () => {
  const t = useTestApp(SETTINGS);
  const user = useUser(t, { plan: 'TRIAL' });
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'], plan: 'TRIAL' });

  it('a TRIAL account creates its 2 apps, then the third is refused with the limit and nothing is stored; admins have no limit', async () => {
    const api = createApiClient(t, user);
    const first = await seedLiveApp(t, user, '*920*61#');
    await seedApp(t, user.auth, { customShortCode: '*920*62#' });
    const third = await api.post('/api/createApp', {
      appName: 'Third',
      description: 'One too many',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*63#',
      useTemplateTag: false,
    });
    expect(third.statusCode).toBe(402);
    expect(third.json()).toEqual({ status: '02', message: BILLING_MESSAGES.appLimit(2, 'Trial') });
    const clone = await api.post('/api/cloneApp', { appId: first, appName: 'Copy', description: 'A copy' });
    expect(clone.statusCode).toBe(402);
    expect((await api.get('/api/getAllApps')).json().data).toHaveLength(2);
    expect((await current(t, user)).usage.apps).toEqual({ used: 2, limit: 2 });

    for (let i = 0; i < 3; i++) await seedApp(t, admin.auth, { customShortCode: `*920*7${i}#` });
  });

  it("menus stop at the plan's menus per app", async () => {
    const apps = (await createApiClient(t, user).get('/api/getAllApps')).json().data as Array<{ appId: string; shortCode: string }>;
    const target = apps.find((a) => a.shortCode === '*920*62#')!.appId;
    const limit = PLANS.TRIAL.limits.menus!;
    for (let i = 0; i < limit; i++)
      await seedMenu(t, user.auth, target, { userDefinedName: `m${i}`, displayText: `Menu ${i}`, terminate: true });
    const over = await createApiClient(t, user).post('/api/createMenu', { appId: target, userDefinedName: 'over', displayText: 'Over' });
    expect(over.statusCode).toBe(402);
    expect(over.json()).toEqual({ status: '02', message: BILLING_MESSAGES.menuLimit(limit, 'Trial') });
    expect((await createApiClient(t, user).get(`/api/getAllMenus/${target}`)).json().data).toHaveLength(limit);
    expect((await current(t, user)).usage.menus).toEqual({ used: limit, limit });
  });

  it('live sessions count once each (continues and test URLs do not), mail the owner at 80% and 100%, then end with the limit sentence', async () => {
    const apps = (await createApiClient(t, user).get('/api/getAllApps')).json().data as Array<{ appId: string; shortCode: string }>;
    const live = apps.find((a) => a.shortCode === '*920*61#')!.appId;
    const limit = PLANS.TRIAL.limits.sessions!;

    expect(await dial(t, live, 'live', '*920*61#')).toBe('END Hello from the shop');
    expect(await dial(t, live, 'test', '*920*61#')).toBe('END Hello from the shop');
    expect((await current(t, user)).usage.sessions).toEqual({ used: 1, limit });

    await setCounter(t, user, 'sessions', limit * 0.8 - 1);
    expect(await dial(t, live, 'live', '*920*61#')).toBe('END Hello from the shop');
    expect(await mailsTo(t, user, 'You have used 80% of your live sessions')).toHaveLength(1);
    expect(await dial(t, live, 'live', '*920*61#')).toBe('END Hello from the shop');
    expect(await mailsTo(t, user, 'You have used 80%')).toHaveLength(1);

    await setCounter(t, user, 'sessions', limit - 1);
    expect(await dial(t, live, 'live', '*920*61#')).toBe('END Hello from the shop');
    expect(await dial(t, live, 'live', '*920*61#')).toBe(`END ${BILLING_MESSAGES.liveSessionLimit}`);
    expect(await dial(t, live, 'live', '*920*61#')).toBe(`END ${BILLING_MESSAGES.liveSessionLimit}`);
    expect(await mailsTo(t, user, 'You have used all your live sessions')).toHaveLength(1);
    expect((await current(t, user)).usage.sessions).toEqual({ used: limit, limit });
    // The draft still answers: the builder can keep testing.
    expect(await dial(t, live, 'test', '*920*61#')).toBe('END Hello from the shop');
  });

  it("SMS beyond the month's allowance are refused with the reason", async () => {
    const limit = PLANS.TRIAL.limits.sms!;
    await setCounter(t, user, 'sms', limit - 1);
    await expect(admitSms(t.app.ctx, user.user.id)).resolves.toBeUndefined();
    await expect(admitSms(t.app.ctx, user.user.id)).rejects.toThrow(BILLING_MESSAGES.smsLimit(limit));
    expect((await current(t, user)).usage.sms).toEqual({ used: limit, limit });
    const [row] = await t.db
      .select()
      .from(usageCounters)
      .where(and(eq(usageCounters.userId, user.user.id), eq(usageCounters.kind, 'sms')));
    expect(row).toMatchObject({ count: limit, warnedPercent: 100 });
    expect(await mailsTo(t, user, 'You have used all your SMS')).toHaveLength(1);
  });
});

describeDb("billing: a subscription's life with an injected clock, and admins", () => {
  const t = useTestApp(SETTINGS);
  const user = useUser(t, { plan: 'TRIAL' });
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });

  it('reminders 7 and 1 days before the end, grace, then inactive: live traffic ends with a sentence, deploys refused, test URL works; paying again restores it', async () => {
    const api = createApiClient(t, user);
    const appId = await seedLiveApp(t, user, '*920*91#');
    const started = await api.post('/api/subscription/makePayment', { plan: 'BASIC-3', isAnnual: false });
    await decide(t, started.json().redirectUrl);
    const { periodEnd } = await current(t, user);
    const timer = createBillingTimer(t.app.ctx, { intervalMs: 0 });
    const endMs = new Date(periodEnd).getTime();
    const moveTo = (ms: number) => t.advanceClock(ms - t.app.ctx.now().getTime());

    expect(await timer.runOnce()).toMatchObject({ reminded: 0, lapsed: 0 });
    moveTo(endMs - 6 * DAY);
    expect(await timer.runOnce()).toMatchObject({ reminded: 1 });
    expect(await timer.runOnce()).toMatchObject({ reminded: 0 });
    moveTo(endMs - DAY / 2);
    expect(await timer.runOnce()).toMatchObject({ reminded: 1 });
    expect(await mailsTo(t, user, 'Your Basic 3 months plan ends on')).toHaveLength(2);

    moveTo(endMs + DAY);
    expect(await current(t, user)).toMatchObject({ state: 'grace', subscriptionStatus: 'active' });
    expect(await dial(t, appId, 'live', '*920*91#')).toBe('END Hello from the shop');

    moveTo(endMs + GRACE_DAYS * DAY + 1000);
    expect(await current(t, user)).toMatchObject({ state: 'inactive', subscriptionStatus: 'inactive' });
    expect(await timer.runOnce()).toMatchObject({ lapsed: 1 });
    expect(await timer.runOnce()).toMatchObject({ lapsed: 0 });
    expect(await mailsTo(t, user, 'Your Basic 3 months plan has been deactivated')).toHaveLength(1);
    expect(await dial(t, appId, 'live', '*920*91#')).toBe(`END ${BILLING_MESSAGES.liveInactive}`);
    expect(await dial(t, appId, 'test', '*920*91#')).toBe('END Hello from the shop');
    await seedMenu(t, user.auth, appId, { userDefinedName: 'later', displayText: 'Later', terminate: true });
    const deploy = await api.get(`/api/deployChanges/${appId}`);
    expect(deploy.statusCode).toBe(400);
    expect(deploy.json().message).toBe(BILLING_MESSAGES.deployInactive);
    const rollback = await api.post('/api/rollbackVersion', { appId, version: 1 });
    expect(rollback.json()).toMatchObject({ status: '02', message: BILLING_MESSAGES.deployInactive });
    await expect(admitSms(t.app.ctx, user.user.id)).rejects.toThrow(BILLING_MESSAGES.smsInactive);

    // Retry on the current plan: active again from now.
    const retry = await api.post('/api/subscription/makePayment', { plan: 'BASIC-3', isAnnual: false });
    await decide(t, retry.json().redirectUrl);
    const renewed = await current(t, user);
    expect(renewed.state).toBe('active');
    expect(t.app.ctx.now().getTime() - new Date(renewed.periodStart).getTime()).toBeLessThan(60_000);
    expect(new Date(renewed.periodEnd).getTime()).toBeGreaterThan(t.app.ctx.now().getTime() + 80 * DAY);
    expect(await dial(t, appId, 'live', '*920*91#')).toBe('END Hello from the shop');
    expect((await api.get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
  });

  it('a credit that covers the lapsed plan renews it from the balance', async () => {
    const api = createApiClient(t, user);
    const { periodEnd } = await current(t, user);
    t.advanceClock(new Date(periodEnd).getTime() + (GRACE_DAYS + 1) * DAY - t.app.ctx.now().getTime());
    expect((await current(t, user)).state).toBe('inactive');
    const credit = await api.post('/api/subscription/creditAccount', { plan: 'BASIC-3', amount: 60 });
    await decide(t, credit.json().redirectUrl);
    expect(await current(t, user)).toMatchObject({ state: 'active', plan: 'BASIC-3', accountBalance: 10 });
  });

  it("admins read any account's subscription and extend or activate it with a recorded reason; others may not", async () => {
    const api = createApiClient(t, admin);
    // Admins' own accounts are held to no plan.
    expect((await current(t, admin)).usage).toMatchObject({ apps: { limit: null }, menus: { limit: null }, sessions: { limit: null } });
    const before = await current(t, user);
    const read = await api.get(`/api/subscription/account?email=${encodeURIComponent(user.email.toUpperCase())}`);
    expect(read.json()).toMatchObject({ status: '00', data: { email: user.email, subscription: { plan: 'BASIC-3' }, changes: [] } });

    const noReason = await api.post('/api/subscription/extend', { email: user.email, days: 10, reason: ' ' });
    expect(noReason.json()).toMatchObject({ status: '02', message: BILLING_MESSAGES.reasonRequired });
    for (const days of [0, -1, 'x', 5000]) {
      const bad = await api.post('/api/subscription/extend', { email: user.email, days, reason: 'x' });
      expect(bad.json().message).toBe(BILLING_MESSAGES.days);
    }
    const nobody = await api.post('/api/subscription/extend', { email: 'nobody@test.dialflow', days: 10, reason: 'x' });
    expect(nobody.statusCode).toBe(404);
    expect(await t.db.select().from(subscriptionChanges)).toHaveLength(0);

    const extended = await api.post('/api/subscription/extend', { email: user.email, days: 10, reason: 'Outage on 3 March' });
    expect(new Date(extended.json().data.periodEnd).getTime() - new Date(before.periodEnd).getTime()).toBe(10 * DAY);

    const activated = await api.post('/api/subscription/activate', { email: user.email, plan: 'ENTERPRISE', reason: 'Signed contract' });
    expect(activated.json().data).toMatchObject({ plan: 'ENTERPRISE', state: 'active', usage: { apps: { limit: null } } });
    const trial = await api.post('/api/subscription/activate', { email: user.email, plan: 'TRIAL', reason: 'x' });
    expect(trial.statusCode).toBe(400);

    const changes = (await api.get(`/api/subscription/account?email=${user.email}`)).json().data.changes;
    expect(changes.map((c: { kind: string; reason: string; adminEmail: string }) => [c.kind, c.reason, c.adminEmail])).toEqual([
      ['activate', 'Signed contract', admin.email],
      ['extend', 'Outage on 3 March', admin.email],
    ]);

    const asUser = createApiClient(t, user);
    expect((await asUser.post('/api/subscription/extend', { email: user.email, days: 10, reason: 'mine' })).statusCode).toBe(403);
    expect((await asUser.get(`/api/subscription/account?email=${user.email}`)).statusCode).toBe(403);
  });
});

describe('billing off', () => {
  describeDb('BILLING=off', () => {
    const t = useTestApp({ ...SETTINGS, BILLING: 'off' });
    const user = useUser(t, { plan: 'TRIAL' });

    it('lifts every limit and refuses plan payments with a message', async () => {
      const api = createApiClient(t, user);
      for (let i = 0; i < 3; i++) await seedApp(t, user.auth, { customShortCode: `*920*4${i}#` });
      const sub = await current(t, user);
      expect(sub).toMatchObject({ billing: 'off', usage: { apps: { used: 3, limit: null }, sessions: { limit: null } } });
      const pay = await api.post('/api/subscription/makePayment', { plan: 'BASIC-3', isAnnual: true });
      expect(pay.json()).toEqual({ status: '02', message: BILLING_MESSAGES.billingOff });
      expect(await t.db.select().from(subscriptions).where(eq(subscriptions.userId, user.user.id))).toHaveLength(0);
    });
  });
});

describeDb('billing charged in another currency', () => {
  const t = useTestApp({ ...SETTINGS, BILLING_CURRENCY: 'GHS', BILLING_USD_RATE: 15.5 });
  const user = useUser(t, { plan: 'TRIAL' });

  it('charges the USD price at the rate, keeps both amounts, and settles only the charged amount', async () => {
    const api = createApiClient(t, user);
    const started = await api.post('/api/subscription/makePayment', { plan: 'BASIC-3', isAnnual: false });
    const { reference } = readCheckout(started.json().redirectUrl);
    const [row] = await t.db.select().from(transactions).where(eq(transactions.reference, reference));
    expect(row).toMatchObject({ amount: '775.00', currency: 'GHS' });
    expect(row!.metadata).toMatchObject({ amountUsd: 50, usdRate: 15.5 });

    // The USD figure is not what was charged: refused.
    await postCallback(t, reference, { amount: 50, currency: 'USD' });
    expect((await t.db.select().from(transactions).where(eq(transactions.reference, reference)))[0]!.status).toBe('FAILED');

    const again = await api.post('/api/subscription/makePayment', { plan: 'BASIC-3', isAnnual: false });
    expect(await decide(t, again.json().redirectUrl)).toBe('SUCCESS');
    expect((await current(t, user)).plan).toBe('BASIC-3');
    const history = (await api.get('/api/subscription/paymentHistory')).json().data;
    expect(history[0]).toMatchObject({ amountUsd: 50, amount: 775, currency: 'GHS', status: 'SUCCESS' });
    const receipt = await mailsTo(t, user, 'Receipt: Basic 3 months');
    expect(receipt[0]!.body).toContain('GHS 775.00 (USD 50.00)');
  });
});
