import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, shortcodeProviders, shortcodePurchases, transactions } from '../../../db/schema';
import { formatExtensionLengthMessage, RESERVATION_MINUTES, SHORTCODE_MESSAGES } from '../../../shared/api/shortcodes.schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, type SeededUser, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp } from '../../../../tests/support/seed-app';
import { DEMO_USER, seedDatabase } from '../../seed';
import { createShortcodeTimer } from './shortcode-reminders';

const DAY = 24 * 60 * 60 * 1000;
/** The tests move the clock months ahead: sign-ins must outlive that. */
const LONG_SIGN_IN = { TOKEN_TTL_DAYS: 365 };
const NIL_UUID = '00000000-0000-4000-8000-000000000000';

/** A catalogue extension through the admin's call; answers its uuid. */
async function createExtension(t: TestApp, admin: SeededUser, fields: Record<string, unknown>): Promise<string> {
  const res = await createApiClient(t, admin).post('/api/subscription/createShortCode', {
    country: 'Ghana',
    provider: 'mtngh',
    method: 'POST',
    price: '150',
    ...fields,
  });
  if (res.json().status !== '00') throw new Error(`createShortCode failed: ${res.body}`);
  return res.json().data.uuid as string;
}

/** The sandbox checkout link's reference and token. */
function readCheckout(redirectUrl: string) {
  const url = new URL(redirectUrl);
  return { reference: url.pathname.split('/').pop()!, token: url.searchParams.get('token')! };
}

async function decide(t: TestApp, redirectUrl: string, decision: 'approve' | 'decline') {
  const { reference, token } = readCheckout(redirectUrl);
  const res = await t.app.inject({ method: 'POST', url: `/payments/sandbox/${reference}/decide`, payload: { decision, token } });
  expect(res.json().status, res.body).toBe('00');
  return res.json().data.status as string;
}

async function countRows(t: TestApp, userId: string) {
  const purchases = await t.db.select().from(shortcodePurchases).where(eq(shortcodePurchases.userId, userId));
  const payments = await t.db.select().from(transactions).where(eq(transactions.userId, userId));
  return { purchases: purchases.length, payments: payments.length };
}

describeDb('shortcode providers and the extension catalogue (admins)', () => {
  const t = useTestApp(LONG_SIGN_IN);
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const user = useUser(t);

  it('registers providers with their forwarding URL, refuses a taken Provider Id, and says when there are none', async () => {
    const api = createApiClient(t, admin);
    const empty = await api.get('/api/getAllProviders');
    expect(empty.json()).toEqual({ status: '00', message: SHORTCODE_MESSAGES.noProviders, data: [] });

    expect((await api.post('/api/registerProvider', { providerName: '', providerId: 'x' })).json().message).toBe(
      SHORTCODE_MESSAGES.providerNameRequired,
    );
    expect((await api.post('/api/registerProvider', { providerName: 'Hubtel', providerId: '' })).json().message).toBe(
      SHORTCODE_MESSAGES.providerIdRequired,
    );
    expect((await api.post('/api/registerProvider', { providerName: 'Hubtel', providerId: 'a b' })).json().message).toBe(
      SHORTCODE_MESSAGES.providerIdFormat,
    );

    const created = await api.post('/api/registerProvider', { providerName: 'Hubtel Ghana', providerId: 'HubtelGH' });
    expect(created.json()).toMatchObject({
      status: '00',
      data: { providerName: 'Hubtel Ghana', providerId: 'hubtelgh', acceptsUnauthenticated: false, allowedSources: [] },
    });
    const { gatewayKey, providerUrl } = created.json().data;
    expect(providerUrl).toBe(`http://localhost:80/ussd/provider/hubtelgh/${gatewayKey}`);
    const again = await api.post('/api/registerProvider', { providerName: 'Other', providerId: 'hubtelgh' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(SHORTCODE_MESSAGES.providerIdTaken);
    const list = (await api.get('/api/getAllProviders')).json().data;
    expect(list).toEqual([expect.objectContaining({ providerId: 'hubtelgh', uuid: created.json().data.uuid })]);

    const forbidden = await createApiClient(t, user).post('/api/registerProvider', { providerName: 'Mine', providerId: 'mine' });
    expect(forbidden.statusCode).toBe(403);
  });

  it("creates extensions with the form's messages, registering the provider named, and lists them", async () => {
    const api = createApiClient(t, admin);
    const base = { country: 'Ghana', shortCode: '*920*', provider: 'mtngh', method: 'POST', extension: '34', price: '150' };
    const messages: Array<[Record<string, unknown>, string]> = [
      [{ country: '' }, SHORTCODE_MESSAGES.countryRequired],
      [{ country: 'France' }, SHORTCODE_MESSAGES.countryRequired],
      [{ provider: '' }, SHORTCODE_MESSAGES.providerRequired],
      [{ extension: '' }, SHORTCODE_MESSAGES.extensionRequired],
      [{ method: 'DELETE' }, SHORTCODE_MESSAGES.methodRequired],
      [{ provider: 'other', otherprovider: '' }, SHORTCODE_MESSAGES.otherProviderRequired],
      [{ shortCode: '920' }, SHORTCODE_MESSAGES.baseShortcodeFormat],
      [{ extension: '3a' }, SHORTCODE_MESSAGES.extensionDigits],
      [{ extension: '', extLength: 9 }, SHORTCODE_MESSAGES.extLengthRange],
      [{ price: '0' }, SHORTCODE_MESSAGES.priceRequired],
      [{ price: '-5' }, SHORTCODE_MESSAGES.priceRequired],
      [{ price: '1.234' }, SHORTCODE_MESSAGES.priceRequired],
    ];
    for (const [change, message] of messages) {
      const res = await api.post('/api/subscription/createShortCode', { ...base, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().message, JSON.stringify(change)).toBe(message);
    }
    expect((await api.get('/api/getAllAvailableShortCodes')).json().data).toEqual([]);

    const fixed = await api.post('/api/subscription/createShortCode', base);
    expect(fixed.json()).toMatchObject({
      status: '00',
      data: {
        shortCode: '*920*',
        extension: '34',
        provider: 'mtngh',
        providerName: 'MTN Ghana',
        requestMethod: 'POST',
        status: 'available',
        price: 150,
        currency: 'GHS',
        extLength: 0,
        country: 'Ghana',
        example: '*920*34#',
      },
    });
    expect((await api.post('/api/subscription/createShortCode', base)).json().message).toBe(SHORTCODE_MESSAGES.extensionExists);

    const open = await api.post('/api/subscription/createShortCode', {
      ...base,
      country: 'kenya',
      provider: 'other',
      otherprovider: 'Safaricom Kenya',
      shortCode: '*800*',
      extension: '',
      extLength: 3,
      method: 'get',
    });
    expect(open.json().data).toMatchObject({ provider: 'safaricom-kenya', currency: 'KES', country: 'Kenya', example: '*800*123#' });
    const providers = (await api.get('/api/getAllProviders')).json().data.map((p: { providerId: string }) => p.providerId);
    expect(providers).toEqual(expect.arrayContaining(['mtngh', 'safaricom-kenya']));

    const all = (await api.get('/api/getAllAvailableShortCodes')).json().data;
    expect(all.map((e: { example: string }) => e.example)).toEqual(['*920*34#', '*800*123#']);
    const kenya = (await createApiClient(t, user).get('/api/getAvailableShortCodes/KENYA')).json().data;
    expect(kenya.map((e: { uuid: string }) => e.uuid)).toEqual([open.json().data.uuid]);
    expect((await createApiClient(t, user).get('/api/getAvailableShortCodes/France')).json().message).toBe(
      SHORTCODE_MESSAGES.countryRequired,
    );
  });

  it('keeps a provider that still has extensions and an extension someone holds; deletes them once free', async () => {
    const api = createApiClient(t, admin);
    const uuid = await createExtension(t, admin, { provider: 'vodagh', shortCode: '*790*', extension: '11' });
    const vodagh = (await api.get('/api/getAllProviders')).json().data.find((p: { providerId: string }) => p.providerId === 'vodagh');
    const refused = await api.get(`/api/deleteProvider/${vodagh.uuid}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SHORTCODE_MESSAGES.providerInUse);

    const provisioned = await api.post('/api/subscription/provisionShortCode', { extensionUuid: uuid, self: true, leaseCount: 1 });
    expect(provisioned.json()).toMatchObject({ status: '00', data: { shortCode: '*790*11#', status: 'active', provisioned: true } });
    const inUse = await api.get(`/api/deleteShortCode/${uuid}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe(SHORTCODE_MESSAGES.extensionInUse);
    expect((await api.get('/api/getAllAvailableShortCodes')).json().data.find((e: { uuid: string }) => e.uuid === uuid).status).toBe(
      'taken',
    );
    // A taken fixed extension is not provisioned again, for anyone: the reply says why.
    const again = await api.post('/api/subscription/provisionShortCode', { extensionUuid: uuid, self: true, leaseCount: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      status: '02',
      message: '*790*11# is taken: an account holds or has reserved it. It can be provisioned once that purchase has ended.',
    });

    for (const url of ['/api/deleteShortCode/not-a-uuid', `/api/deleteShortCode/${NIL_UUID}`, `/api/deleteProvider/${NIL_UUID}`])
      expect((await api.get(url)).statusCode, url).toBe(404);

    t.advanceClock(32 * DAY);
    expect((await api.get(`/api/deleteShortCode/${uuid}`)).json()).toEqual({ status: '00', message: 'Extension deleted' });
    expect((await api.get(`/api/deleteProvider/${vodagh.uuid}`)).json()).toEqual({ status: '00', message: 'Provider deleted' });
    // The purchase stays, expired, without its catalogue entry.
    const [mine] = (await api.get('/api/myPurchasedShortCodes')).json().data;
    expect(mine).toMatchObject({ shortCode: '*790*11#', status: 'expired', extensionUuid: null });
  });

  it('provisions for another account by email, with no payment', async () => {
    const api = createApiClient(t, admin);
    const uuid = await createExtension(t, admin, { shortCode: '*389*', extension: '', extLength: 2 });
    expect((await api.post('/api/subscription/provisionShortCode', { extensionUuid: uuid, shortCode: '12' })).json().message).toBe(
      SHORTCODE_MESSAGES.userEmailRequired,
    );
    const unknown = await api.post('/api/subscription/provisionShortCode', {
      extensionUuid: uuid,
      userEmail: 'nobody@x.test',
      shortCode: '12',
    });
    expect(unknown.json().message).toBe(SHORTCODE_MESSAGES.accountNotFound);
    expect(
      (await api.post('/api/subscription/provisionShortCode', { extensionUuid: uuid, userEmail: user.email, shortCode: '1' })).json()
        .message,
    ).toBe(formatExtensionLengthMessage(2));
    const res = await api.post('/api/subscription/provisionShortCode', {
      extensionUuid: uuid,
      userEmail: user.email,
      shortCode: '12',
      leaseCount: 3,
    });
    expect(res.json()).toMatchObject({
      status: '00',
      message: SHORTCODE_MESSAGES.provisioned,
      data: { shortCode: '*389*12#', status: 'active' },
    });
    const { startDate, expiryDate } = res.json().data;
    expect(new Date(expiryDate).getUTCMonth()).toBe((new Date(startDate).getUTCMonth() + 3) % 12);
    expect((await createApiClient(t, user).get('/api/myPurchasedShortCodes')).json().data).toEqual([res.json().data]);
    const twice = await api.post('/api/subscription/provisionShortCode', { extensionUuid: uuid, self: true, shortCode: '12' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(SHORTCODE_MESSAGES.provisionTaken('*389*12#'));
  });
});

describeDb('buying, paying, renewing and connecting a shortcode extension', () => {
  const t = useTestApp(LONG_SIGN_IN);
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const buyer = useUser(t);
  const rival = useUser(t);
  let open: string;
  let fixed: string;
  beforeAll(async () => {
    open = await createExtension(t, admin, { shortCode: '*920*', extension: '', extLength: 2, price: '150' });
    fixed = await createExtension(t, admin, { shortCode: '*800*', extension: '777', price: '100.50' });
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const api = createApiClient(t, buyer);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ extensionUuid: '', leaseCount: 1 }, 400, SHORTCODE_MESSAGES.selectExtension],
      [{ extensionUuid: open, leaseCount: 0, shortCode: '34' }, 400, SHORTCODE_MESSAGES.leaseCount],
      [{ extensionUuid: open, leaseCount: -1, shortCode: '34' }, 400, SHORTCODE_MESSAGES.leaseCount],
      [{ extensionUuid: open, leaseCount: 13, shortCode: '34' }, 400, SHORTCODE_MESSAGES.leaseCount],
      [{ extensionUuid: open, leaseCount: 1.5, shortCode: '34' }, 400, SHORTCODE_MESSAGES.leaseCount],
      [{ extensionUuid: open, leaseCount: 'x', shortCode: '34' }, 400, SHORTCODE_MESSAGES.leaseCount],
      [{ extensionUuid: open, leaseCount: 1, shortCode: '3a' }, 400, SHORTCODE_MESSAGES.numericExtension],
      [{ extensionUuid: open, leaseCount: 1, shortCode: '' }, 400, SHORTCODE_MESSAGES.numericExtension],
      [{ extensionUuid: open, leaseCount: 1, shortCode: '345' }, 400, formatExtensionLengthMessage(2)],
      [{ extensionUuid: NIL_UUID, leaseCount: 1, shortCode: '34' }, 404, SHORTCODE_MESSAGES.extensionNotFound],
      [{ extensionUuid: 'forged', leaseCount: 1, shortCode: '34' }, 404, SHORTCODE_MESSAGES.extensionNotFound],
    ];
    for (const [payload, statusCode, message] of cases) {
      const res = await api.post('/api/subscription/buyshortcode', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(statusCode);
      expect(res.json().message, JSON.stringify(payload)).toBe(message);
    }
    expect(await countRows(t, buyer.user.id)).toEqual({ purchases: 0, payments: 0 });
  });

  it('reserves at checkout, opens the sandbox checkout, and the approved payment activates the purchase once, with a receipt', async () => {
    const api = createApiClient(t, buyer);
    const res = await api.post('/api/subscription/buyshortcode', { extensionUuid: open, leaseCount: 3, shortCode: '34' });
    expect(res.json()).toMatchObject({
      status: '01',
      message: SHORTCODE_MESSAGES.checkout,
      redirectUrl: expect.stringMatching(/\/payments\/sandbox\/DF-[0-9A-F]{20}\?token=/),
      data: { shortCode: '*920*34#', status: 'reserved', startDate: null, expiryDate: null, price: 150, currency: 'GHS', connected: false },
    });
    const { data: reserved, redirectUrl, reference } = res.json();
    expect(new Date(reserved.reservedUntil).getTime() - Date.parse(reserved.createdAt)).toBe(RESERVATION_MINUTES * 60_000);
    const [payment] = await t.db.select().from(transactions).where(eq(transactions.reference, reference));
    expect(payment).toMatchObject({
      transactionType: 'shortcode',
      amount: '450.00',
      currency: 'GHS',
      status: 'PENDING',
      shortcode: '*920*34#',
    });

    // The fixed extension's list and the buy table do not offer a reserved fixed dial string; an open one stays.
    expect((await api.get('/api/getAvailableShortCodes/ghana')).json().data.map((e: { uuid: string }) => e.uuid)).toEqual(
      expect.arrayContaining([open, fixed]),
    );

    expect(await decide(t, redirectUrl, 'approve')).toBe('SUCCESS');
    // No rate from GHS to USD is set here: the history has no USD figure for it, only what was charged.
    expect((await api.get('/api/subscription/paymentHistory')).json().data[0]).toMatchObject({
      reference,
      type: 'shortcode',
      amountUsd: null,
      amount: 450,
      currency: 'GHS',
    });
    const active = (await api.get(`/api/getShortCodeByUuid/${reserved.uuid}`)).json().data;
    expect(active).toMatchObject({ status: 'active', reservedUntil: null });
    const start = new Date(active.startDate);
    const expiry = new Date(active.expiryDate);
    expect(Math.abs(start.getTime() - Date.now())).toBeLessThan(60_000);
    expect(expiry.getUTCMonth()).toBe((start.getUTCMonth() + 3) % 12);

    // The provider sends the same callback again, then another event for the same payment: nothing moves.
    const sandbox = t.app.ctx.paymentProviders.sandbox;
    const callback = sandbox.buildCallback(reference, 'approve', { amount: 450, currency: 'GHS' });
    const post = (body: { rawBody: string; headers: Record<string, string | string[] | undefined> }) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/callback/sandbox',
        payload: body.rawBody,
        headers: body.headers as Record<string, string>,
      });
    expect((await post(callback)).json().message).toBe('Already settled');
    expect((await post(callback)).json().message).toBe('Already processed');
    expect((await post(sandbox.buildCallback(reference, 'approve', { amount: 450, currency: 'GHS' }))).json().message).toBe(
      'Already settled',
    );
    expect((await api.get(`/api/getShortCodeByUuid/${reserved.uuid}`)).json().data.expiryDate).toBe(active.expiryDate);

    await t.app.ctx.background.settle();
    const receipts = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, buyer.email));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.subject).toBe(`Receipt: *920*34# until ${active.expiryDate.slice(0, 10)}`);
    expect(receipts[0]!.body).toContain(`GHS 450.00 for 3 months of the shortcode *920*34#`);
    expect(receipts[0]!.body).toContain(reference);

    // Held now: nobody else can check it out.
    const taken = await createApiClient(t, rival).post('/api/subscription/buyshortcode', {
      extensionUuid: open,
      leaseCount: 1,
      shortCode: '34',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(SHORTCODE_MESSAGES.taken);
    const mine = await api.post('/api/subscription/buyshortcode', { extensionUuid: open, leaseCount: 1, shortCode: '34' });
    expect(mine.json().message).toBe(SHORTCODE_MESSAGES.alreadyYours);
  });

  it('lets one of two buyers racing for a dial string reserve it; the other gets a clear message', async () => {
    const buy = (user: SeededUser) =>
      createApiClient(t, user).post('/api/subscription/buyshortcode', { extensionUuid: fixed, leaseCount: 1 });
    const replies = await Promise.all([buy(buyer), buy(rival), buy(buyer), buy(rival)]);
    const winners = replies.filter((r) => r.json().status === '01');
    const losers = replies.filter((r) => r.json().status !== '01');
    // The winner's second checkout pays for its own reservation; the other buyer is refused both times.
    expect(winners).toHaveLength(2);
    expect(new Set(winners.map((r) => r.json().data.uuid)).size).toBe(1);
    expect(losers.map((r) => [r.statusCode, r.json().message])).toEqual([
      [409, SHORTCODE_MESSAGES.taken],
      [409, SHORTCODE_MESSAGES.taken],
    ]);
    const holders = await t.db
      .select()
      .from(shortcodePurchases)
      .where(and(eq(shortcodePurchases.dialString, '*800*777#'), eq(shortcodePurchases.status, 'reserved')));
    expect(holders).toHaveLength(1);
    // A fixed extension on hold is not offered.
    expect(
      (await createApiClient(t, rival).get('/api/getAvailableShortCodes/Ghana')).json().data.map((e: { uuid: string }) => e.uuid),
    ).toEqual([open]);
  });

  it('frees a declined or lapsed reservation; a payment that comes after another buyer took the string is due a refund', async () => {
    const first = await createApiClient(t, buyer).post('/api/subscription/buyshortcode', {
      extensionUuid: open,
      leaseCount: 1,
      shortCode: '56',
    });
    expect(await decide(t, first.json().redirectUrl, 'decline')).toBe('FAILED');
    expect((await createApiClient(t, buyer).get(`/api/getShortCodeByUuid/${first.json().data.uuid}`)).json().data.status).toBe('lapsed');

    const second = await createApiClient(t, rival).post('/api/subscription/buyshortcode', {
      extensionUuid: open,
      leaseCount: 1,
      shortCode: '56',
    });
    expect(second.json().status).toBe('01');
    t.advanceClock((RESERVATION_MINUTES + 1) * 60_000);
    const third = await createApiClient(t, buyer).post('/api/subscription/buyshortcode', {
      extensionUuid: open,
      leaseCount: 2,
      shortCode: '56',
    });
    expect(third.json().status).toBe('01');
    // The rival pays late: the string is the buyer's now.
    expect(await decide(t, second.json().redirectUrl, 'approve')).toBe('SUCCESS');
    expect((await createApiClient(t, rival).get(`/api/getShortCodeByUuid/${second.json().data.uuid}`)).json().data.status).toBe(
      'refund_due',
    );
    expect(await decide(t, third.json().redirectUrl, 'approve')).toBe('SUCCESS');
    const held = await t.db
      .select()
      .from(shortcodePurchases)
      .where(and(eq(shortcodePurchases.dialString, '*920*56#'), eq(shortcodePurchases.status, 'active')));
    expect(held.map((p) => p.userId)).toEqual([buyer.user.id]);
  });

  it('renews from the later of today and the current expiry, and an expired one from today', async () => {
    const api = createApiClient(t, buyer);
    const bought = await api.post('/api/subscription/buyshortcode', { extensionUuid: open, leaseCount: 1, shortCode: '78' });
    await decide(t, bought.json().redirectUrl, 'approve');
    const uuid = bought.json().data.uuid as string;
    const before = (await api.get(`/api/getShortCodeByUuid/${uuid}`)).json().data;

    for (const [leaseCount, message] of [
      [0, SHORTCODE_MESSAGES.leaseCount],
      [13, SHORTCODE_MESSAGES.leaseCount],
    ] as const) {
      const res = await api.post('/api/subscription/renewShortcode', { id: uuid, leaseCount });
      expect(res.json().message).toBe(message);
    }
    const foreign = await createApiClient(t, rival).post('/api/subscription/renewShortcode', { id: uuid, leaseCount: 1 });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(SHORTCODE_MESSAGES.purchaseNotFound);

    const renewal = await api.post('/api/subscription/renewShortcode', { id: uuid, leaseCount: 2, extensionUuid: open, shortCode: '78' });
    expect(renewal.json()).toMatchObject({ status: '01', data: { uuid, status: 'active' } });
    await decide(t, renewal.json().redirectUrl, 'approve');
    const renewed = (await api.get(`/api/getShortCodeByUuid/${uuid}`)).json().data;
    expect(renewed.startDate).toBe(before.startDate);
    expect(new Date(renewed.expiryDate).getUTCMonth()).toBe((new Date(before.expiryDate).getUTCMonth() + 2) % 12);

    // Past its expiry: routed as expired, renewable while nobody took it, from today.
    t.advanceClock(4 * 31 * DAY);
    expect((await api.get(`/api/getShortCodeByUuid/${uuid}`)).json().data.status).toBe('expired');
    const late = await api.post('/api/subscription/renewShortcode', { id: uuid, leaseCount: 1 });
    expect(late.json().data.status).toBe('reserved');
    await decide(t, late.json().redirectUrl, 'approve');
    const revived = (await api.get(`/api/getShortCodeByUuid/${uuid}`)).json().data;
    expect(revived.status).toBe('active');
    const today = t.app.ctx.now();
    expect(new Date(revived.expiryDate).getUTCMonth()).toBe((today.getUTCMonth() + 1) % 12);
  });

  it("connects one of the caller's apps, refusing another account's app or purchase and an undeployed production", async () => {
    const api = createApiClient(t, buyer);
    const provisioned = await createApiClient(t, admin).post('/api/subscription/provisionShortCode', {
      extensionUuid: open,
      userEmail: buyer.email,
      shortCode: '90',
    });
    const uuid = provisioned.json().data.uuid as string;
    const appId = await seedApp(t, buyer.auth, { appName: 'Shop' });
    const rivalApp = await seedApp(t, rival.auth);

    expect((await api.post('/api/connectAppToShortCode/', { uuid, appId: '' })).json().message).toBe(SHORTCODE_MESSAGES.selectApp);
    expect((await api.post('/api/connectAppToShortCode/', { uuid, appId: rivalApp })).statusCode).toBe(404);
    expect((await createApiClient(t, rival).post('/api/connectAppToShortCode/', { uuid, appId: rivalApp })).statusCode).toBe(404);
    const live = await api.post('/api/connectAppToShortCode/', { uuid, appId, linkedAppEnv: 'production' });
    expect(live.json().message).toBe(SHORTCODE_MESSAGES.notDeployed);
    expect((await api.get(`/api/getShortCodeByUuid/${uuid}`)).json().data.connected).toBe(false);

    const res = await api.post('/api/connectAppToShortCode/', { uuid, appId });
    expect(res.json()).toMatchObject({
      status: '00',
      message: SHORTCODE_MESSAGES.connected,
      data: { connected: true, existingConnection: { appId, appName: 'Shop' }, linkedAppEnv: 'test' },
    });
    const listed = (await api.get('/api/myPurchasedShortCodes')).json().data.find((p: { uuid: string }) => p.uuid === uuid);
    expect(listed.existingConnection).toEqual({ appId, appName: 'Shop' });
    expect((await createApiClient(t, rival).get(`/api/getShortCodeByUuid/${uuid}`)).statusCode).toBe(404);
  });
});

describe('expiry reminders', () => {
  describeDb('by mail, 7 days and 1 day before, once each', () => {
    const t = useTestApp({ ...LONG_SIGN_IN, SHORTCODE_TIMER_INTERVAL_MS: 0 });
    const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
    const owner = useUser(t);

    const reminders = async () =>
      (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, owner.email))).filter((m) => m.subject.startsWith('Your shortcode'));

    it('mails each reminder once per expiry, marks the expired purchase, and a renewal gets reminders of its own', async () => {
      const uuid = await createExtension(t, admin, { shortCode: '*920*', extension: '41' });
      const provisioned = await createApiClient(t, admin).post('/api/subscription/provisionShortCode', {
        extensionUuid: uuid,
        userEmail: owner.email,
        leaseCount: 1,
      });
      const purchase = provisioned.json().data;
      const timer = createShortcodeTimer(t.app.ctx, { intervalMs: 0 });
      const untilExpiry = () => Date.parse(purchase.expiryDate) - t.app.ctx.now().getTime();

      expect(await timer.runOnce()).toEqual({ ended: false, reminded: 0 });
      t.advanceClock(untilExpiry() - 7 * DAY + 60_000);
      expect((await timer.runOnce()).reminded).toBe(1);
      expect((await timer.runOnce()).reminded).toBe(0);
      const [week] = await reminders();
      expect(week!.subject).toBe(`Your shortcode *920*41# expires on ${purchase.expiryDate.slice(0, 10)}`);
      expect(week!.body).toContain('(in 7 days)');

      t.advanceClock(untilExpiry() - DAY + 60_000);
      expect((await timer.runOnce()).reminded).toBe(1);
      expect((await timer.runOnce()).reminded).toBe(0);
      expect((await reminders()).map((m) => m.body.match(/\(in \d+ days?\)/)![0])).toEqual(['(in 7 days)', '(in 1 day)']);

      t.advanceClock(untilExpiry() + 1000);
      expect(await timer.runOnce()).toEqual({ ended: true, reminded: 0 });
      const [row] = await t.db.select().from(shortcodePurchases).where(eq(shortcodePurchases.id, purchase.uuid));
      expect(row!.status).toBe('expired');
      expect((await createApiClient(t, owner).get(`/api/getShortCodeByUuid/${purchase.uuid}`)).json().data.status).toBe('expired');

      // Renewed for a month from today: its new expiry is reminded again.
      const renewal = await createApiClient(t, owner).post('/api/subscription/renewShortcode', { id: purchase.uuid, leaseCount: 1 });
      await decide(t, renewal.json().redirectUrl, 'approve');
      const renewed = (await createApiClient(t, owner).get(`/api/getShortCodeByUuid/${purchase.uuid}`)).json().data;
      t.advanceClock(Date.parse(renewed.expiryDate) - t.app.ctx.now().getTime() - 2 * DAY);
      expect((await timer.runOnce()).reminded).toBe(1);
      expect(await reminders()).toHaveLength(3);
    });
  });
});

describeDb('a shortcode paid in the local currency, in the USD payment history', () => {
  const t = useTestApp({ ...LONG_SIGN_IN, USD_RATES: { GHS: 15 } });
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const buyer = useUser(t);

  it('keeps the USD amount and the rate when it is asked, and the history shows that USD amount', async () => {
    const open = await createExtension(t, admin, { shortCode: '*920*', extension: '', extLength: 2, price: '150' });
    const api = createApiClient(t, buyer);
    const bought = await api.post('/api/subscription/buyshortcode', { extensionUuid: open, leaseCount: 3, shortCode: '56' });
    const { reference, redirectUrl } = bought.json();
    const [payment] = await t.db.select().from(transactions).where(eq(transactions.reference, reference));
    expect(payment).toMatchObject({ amount: '450.00', currency: 'GHS', metadata: expect.objectContaining({ amountUsd: 30, usdRate: 15 }) });
    expect(await decide(t, redirectUrl, 'approve')).toBe('SUCCESS');
    // A later rate does not rewrite what was paid.
    t.app.ctx.config.USD_RATES.GHS = 12;
    const history = (await api.get('/api/subscription/paymentHistory')).json().data;
    expect(history).toEqual([
      {
        description: 'Shortcode purchase *920*56# (3 months)',
        date: expect.any(String),
        amountUsd: 30,
        amount: 450,
        currency: 'GHS',
        status: 'SUCCESS',
        reference,
        type: 'shortcode',
      },
    ]);
  });
});

describeDb('a newcomer on a freshly seeded server', () => {
  const t = useTestApp();

  it("buys a seeded extension, pays in the sandbox, connects the demo app and dials it through the provider's URL", async () => {
    await seedDatabase(t.db, { adminEmail: 'admin@seed.test', demo: true, sandboxOrigin: 'http://127.0.0.1:3000' });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: DEMO_USER });
    const api = createApiClient(t, { auth: { authorization: `Bearer ${login.json().token}` } });

    for (const country of ['Ghana', 'Nigeria', 'Eswatini', 'Kenya']) {
      const offered = (await api.get(`/api/getAvailableShortCodes/${country}`)).json().data as Array<{ example: string; price: number }>;
      expect(
        offered.map((e) => e.example),
        country,
      ).toEqual(expect.arrayContaining(['*920*12#', '*800*123#']));
      expect(
        offered.every((e) => e.price === 150),
        country,
      ).toBe(true);
    }
    const ghana = (await api.get('/api/getAvailableShortCodes/Ghana')).json().data;
    const mtn = ghana.find((e: { provider: string; extLength: number }) => e.provider === 'mtngh' && e.extLength === 2);
    const bought = await api.post('/api/subscription/buyshortcode', { extensionUuid: mtn.uuid, leaseCount: 1, shortCode: '34' });
    expect(bought.json().status).toBe('01');
    expect(await decide(t, bought.json().redirectUrl, 'approve')).toBe('SUCCESS');

    const [demoApp] = (await api.get('/api/getAllApps')).json().data;
    const connected = await api.post('/api/connectAppToShortCode/', {
      uuid: bought.json().data.uuid,
      appId: demoApp.appId,
      linkedAppEnv: 'production',
    });
    expect(connected.json().status).toBe('00');
    // The aggregator was given the provider's URL with its key (docs/shortcodes.md, "Provider keys").
    const [mtngh] = await t.db.select().from(shortcodeProviders).where(eq(shortcodeProviders.providerKey, 'mtngh'));
    const dial = await t.app.inject({
      method: 'POST',
      url: `/ussd/provider/mtngh/${mtngh!.gatewayKey}`,
      payload: { sessionId: 'NEW-1', serviceCode: '*920*34#', phoneNumber: '233241234567', networkCode: '62001', text: '' },
    });
    expect(dial.body).toBe('CON Airtime Top-Up\n1. My number\n2. Another number');
  });
});
