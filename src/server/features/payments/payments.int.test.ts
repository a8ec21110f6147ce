import { createHmac } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { paymentEvents, transactions } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { seedUser, useTestApp } from '../../../../tests/support/test-app';
import { seedApp } from '../../../../tests/support/seed-app';
import { createSandboxPaymentProvider } from '../../../integrations/payments/sandbox-payments';
import { createPaymentpromptRunner } from '../../../actions/paymentprompt';
import { testInput, testScope } from '../../../actions/test-input';
import { isSandboxProvider } from '../../core/payment-providers';
import { startPayment } from './payment-start';

const SECRET = 'sandbox-secret-for-tests-0123456789';

describeDb('payments through the sandbox provider', () => {
  const t = useTestApp({ SANDBOX_PAYMENT_SECRET: SECRET, PUBLIC_URL: 'https://console.dialflow.test' });

  const provider = () => t.app.ctx.paymentProviders.configured;
  const readTx = async (reference: string) => (await t.db.select().from(transactions).where(eq(transactions.reference, reference)))[0]!;
  const countEvents = async (reference: string) =>
    (await t.db.select({ n: count() }).from(paymentEvents).where(eq(paymentEvents.reference, reference)))[0]!.n;

  async function start(overrides: Partial<Parameters<typeof startPayment>[2]> = {}) {
    const owner = await seedUser(t);
    const appId = await seedApp(t, owner.auth);
    const result = await startPayment(t.app.ctx, provider(), {
      appId,
      ownerId: owner.user.id,
      sessionId: 'sess-1',
      mobile: '+233244000111',
      amount: '12.50',
      network: 'mtn',
      shortcode: '*920*55#',
      ...overrides,
    });
    return { owner, appId, ...result };
  }

  const callback = (rawBody: string, signature: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/callback/sandbox',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
      payload: rawBody,
    });
  const sign = (raw: string, key = SECRET) => createHmac('sha256', key).update(raw).digest('hex');
  // What start() charges: a success settles only for it.
  const CHARGE = { amount: 12.5, currency: 'GHS' };
  /** The checkout page's path and query (with its token), as the payer opens it from the checkout link. */
  const pathOf = (checkoutUrl: string) => new URL(checkoutUrl).pathname + new URL(checkoutUrl).search;
  const tokenOf = (checkoutUrl: string) => new URL(checkoutUrl).searchParams.get('token') ?? '';

  it('start -> PENDING transaction -> checkout page -> Approve -> SUCCESS', async () => {
    const { reference, status, checkoutUrl, owner, appId } = await start();
    expect(status).toBe('PENDING');
    expect(reference).toMatch(/^DF-[0-9A-F]{20}$/);
    expect(checkoutUrl).toMatch(new RegExp(`^https://console\\.dialflow\\.test/payments/sandbox/${reference}\\?token=[A-Za-z0-9_-]{24}$`));
    const token = tokenOf(checkoutUrl!);
    expect(await readTx(reference)).toMatchObject({
      transactionType: 'paymentprompt',
      amount: '12.50',
      currency: 'GHS',
      status: 'PENDING',
      userId: owner.user.id,
      appId,
      shortcode: '*920*55#',
      metadata: expect.objectContaining({
        provider: 'sandbox',
        mobile: '+233244000111',
        network: 'MTN',
        sessionId: 'sess-1',
        checkoutToken: token,
      }),
    });

    const page = await t.app.inject({ method: 'GET', url: pathOf(checkoutUrl!) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('GHS 12.50');
    expect(page.body).toContain('+233244000111');
    expect(page.body).toContain(reference);
    expect(page.body).toMatch(/<button[^>]*value="approve"[^>]*>Approve<\/button>/);
    expect(page.body).toMatch(/<button[^>]*value="decline"[^>]*>Decline<\/button>/);
    expect(page.body).toContain(`<input type="hidden" name="token" value="${token}">`);
    expect(page.headers['referrer-policy']).toBe('no-referrer');

    // The page's form posts urlencoded, token included, and is sent back to the page (Post/Redirect/Get).
    const decided = await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${reference}/decide`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `decision=approve&token=${token}`,
    });
    expect(decided.statusCode).toBe(303);
    expect(decided.headers.location).toBe(pathOf(checkoutUrl!));
    expect(await readTx(reference)).toMatchObject({
      status: 'SUCCESS',
      metadata: expect.objectContaining({ settledBy: expect.any(String) }),
    });
    expect(await countEvents(reference)).toBe(1);

    const after = await t.app.inject({ method: 'GET', url: pathOf(checkoutUrl!) });
    expect(after.body).toContain('Payment approved');
    expect(after.body).not.toContain('value="approve"');

    // Deciding again changes nothing (and stores no second event).
    const again = await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${reference}/decide`,
      payload: { decision: 'decline', token },
    });
    expect(again.json()).toEqual({ status: '00', message: 'OK', data: { reference, status: 'SUCCESS' } });
    expect(await countEvents(reference)).toBe(1);
  });

  it('Decline -> FAILED', async () => {
    const { reference, checkoutUrl } = await start();
    const res = await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${reference}/decide`,
      payload: { decision: 'decline', token: tokenOf(checkoutUrl!) },
    });
    expect(res.json()).toMatchObject({ status: '00', data: { reference, status: 'FAILED' } });
    expect((await readTx(reference)).status).toBe('FAILED');
  });

  it('a stored transaction type that is not ours settles as the provider says, with no settlement handler', async () => {
    const { reference, checkoutUrl } = await start();
    await t.db.update(transactions).set({ transactionType: 'legacy' }).where(eq(transactions.reference, reference));
    const res = await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${reference}/decide`,
      payload: { decision: 'approve', token: tokenOf(checkoutUrl!) },
    });
    expect(res.json()).toMatchObject({ status: '00', data: { reference, status: 'SUCCESS' } });
    expect(await readTx(reference)).toMatchObject({ status: 'SUCCESS', transactionType: 'legacy' });
  });

  it('a duplicate callback settles once', async () => {
    const { reference } = await start();
    const sandbox = provider();
    if (!isSandboxProvider(sandbox)) throw new Error('expected the sandbox');
    const { rawBody, headers } = sandbox.buildCallback(reference, 'approve', CHARGE);
    const signature = headers['x-sandbox-signature'] as string;

    const first = await callback(rawBody, signature);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: '00', message: 'OK' });
    const settled = await readTx(reference);
    expect(settled.status).toBe('SUCCESS');

    t.advanceClock(1000);
    const [second, third] = await Promise.all([callback(rawBody, signature), callback(rawBody, signature)]);
    expect([second.json(), third.json()]).toEqual([
      { status: '00', message: 'Already processed' },
      { status: '00', message: 'Already processed' },
    ]);
    expect(await countEvents(reference)).toBe(1);
    // Not touched again: the same row, the same update time.
    expect(await readTx(reference)).toEqual(settled);
  });

  it('a second, different event cannot move a settled payment (only PENDING settles)', async () => {
    const { reference } = await start();
    const sandbox = provider();
    if (!isSandboxProvider(sandbox)) throw new Error('expected the sandbox');
    const approve = sandbox.buildCallback(reference, 'approve', CHARGE);
    const decline = sandbox.buildCallback(reference, 'decline', CHARGE);
    await callback(approve.rawBody, approve.headers['x-sandbox-signature'] as string);
    const res = await callback(decline.rawBody, decline.headers['x-sandbox-signature'] as string);
    expect(res.json()).toEqual({ status: '00', message: 'Already settled' });
    expect((await readTx(reference)).status).toBe('SUCCESS');
    expect(await countEvents(reference)).toBe(2);
  });

  it.each([
    ['a body changed after signing', (raw: string) => ({ raw: raw.replace('"FAILED"', '"SUCCESS"'), signature: sign(raw) })],
    ['a signature made with another secret', (raw: string) => ({ raw, signature: sign(raw, 'not-the-secret-at-all') })],
    [
      'a signature from another process (another random secret)',
      (raw: string) => ({
        raw,
        signature: createSandboxPaymentProvider({ secret: 'x'.repeat(32) }).buildCallback('DF-X', 'approve', CHARGE).headers[
          'x-sandbox-signature'
        ] as string,
      }),
    ],
    ['no signature', (raw: string) => ({ raw, signature: '' })],
  ])('a tampered callback (%s) is refused with 401 and settles nothing', async (_name, tamper) => {
    const { reference } = await start();
    const raw = JSON.stringify({ event: 'sandbox.charge', id: `evt-${reference}`, reference, status: 'FAILED' });
    const { raw: body, signature } = tamper(raw);
    const res = await callback(body, signature);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: '05', message: 'Invalid signature' });
    expect((await readTx(reference)).status).toBe('PENDING');
    expect(await countEvents(reference)).toBe(0);
  });

  it('the signature is checked over the exact bytes: re-serialized JSON with the same meaning is refused', async () => {
    const { reference } = await start();
    const raw = JSON.stringify({ event: 'sandbox.charge', id: `evt-${reference}`, reference, status: 'SUCCESS', ...CHARGE });
    const res = await callback(JSON.stringify(JSON.parse(raw), null, 2), sign(raw));
    expect(res.statusCode).toBe(401);
    const ok = await callback(raw, sign(raw));
    expect(ok.json()).toEqual({ status: '00', message: 'OK' });
    expect((await readTx(reference)).status).toBe('SUCCESS');
  });

  it.each([
    ['no amount', {}, 'the success did not state the amount and currency paid'],
    ['an amount but no currency', { amount: 12.5 }, 'the success did not state the amount and currency paid'],
    ['another amount', { amount: 1.25, currency: 'GHS' }, 'paid GHS 1.25 instead of GHS 12.50'],
    ['another currency', { amount: 12.5, currency: 'NGN' }, 'paid NGN 12.5 instead of GHS 12.50'],
  ])('a correctly signed success with %s is not SUCCESS: FAILED with the reason, once', async (_name, paid, reason) => {
    const { reference } = await start();
    const raw = JSON.stringify({ event: 'sandbox.charge', id: `evt-${reference}`, reference, status: 'SUCCESS', ...paid });
    expect((await callback(raw, sign(raw))).json()).toEqual({ status: '00', message: 'OK' });
    const settled = await readTx(reference);
    expect(settled).toMatchObject({
      status: 'FAILED',
      metadata: expect.objectContaining({ failureReason: reason, settledBy: `evt-${reference}` }),
    });
    expect((await callback(raw, sign(raw))).json()).toEqual({ status: '00', message: 'Already processed' });
    expect(await readTx(reference)).toEqual(settled);
  });

  it('a callback for an unknown reference is acknowledged and settles nothing; another provider name is 404', async () => {
    const raw = JSON.stringify({ event: 'sandbox.charge', id: 'evt-unknown', reference: 'DF-00000000000000000000', status: 'SUCCESS' });
    expect((await callback(raw, sign(raw))).json()).toEqual({ status: '00', message: 'Unknown reference' });
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/payments/callback/paystack',
      headers: { 'content-type': 'application/json' },
      payload: raw,
    });
    expect(other.statusCode).toBe(404);
  });

  it("a reference alone neither shows the checkout nor decides it: without the link's token, or with another, 404 and nothing changes", async () => {
    const { reference, checkoutUrl } = await start();
    const other = await start();
    const wrongTokens = [undefined, '', 'x', tokenOf(other.checkoutUrl!), `${tokenOf(checkoutUrl!)}x`, tokenOf(checkoutUrl!).slice(0, -1)];
    for (const token of wrongTokens) {
      const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
      for (const decision of ['approve', 'decline']) {
        const json = await t.app.inject({
          method: 'POST',
          url: `/payments/sandbox/${reference}/decide`,
          payload: { decision, ...(token === undefined ? {} : { token }) },
        });
        expect(json.statusCode).toBe(404);
        expect(json.json()).toEqual({
          status: '04',
          message: 'Payment not found: open the checkout link exactly as it was given (with its token)',
        });
        const form = await t.app.inject({
          method: 'POST',
          url: `/payments/sandbox/${reference}/decide`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `decision=${decision}${query.replace('?', '&')}`,
        });
        expect(form.statusCode).toBe(404);
      }
      const page = await t.app.inject({ method: 'GET', url: `/payments/sandbox/${reference}${query}` });
      expect(page.statusCode).toBe(404);
      expect(page.body).not.toContain('12.50');
    }
    expect(await readTx(reference)).toMatchObject({ status: 'PENDING' });
    expect(await countEvents(reference)).toBe(0);
    const approved = await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${reference}/decide`,
      payload: { decision: 'approve', token: tokenOf(checkoutUrl!) },
    });
    expect(approved.json()).toMatchObject({ status: '00', data: { reference, status: 'SUCCESS' } });
    expect((await readTx(other.reference)).status).toBe('PENDING');
  });

  it('a redirect is not proof of payment: visiting the checkout page settles nothing', async () => {
    const { reference, checkoutUrl } = await start();
    await t.app.inject({ method: 'GET', url: pathOf(checkoutUrl!) });
    expect((await readTx(reference)).status).toBe('PENDING');
  });

  it.each([
    [{ amount: '0' }, /amount/],
    [{ amount: '-5' }, /amount/],
    [{ amount: '1.234' }, /amount/],
    [{ amount: 'abc' }, /amount/],
    [{ mobile: '12' }, /mobile/],
  ])('refuses %j before any transaction exists', async (override, message) => {
    const owner = await seedUser(t);
    await expect(
      startPayment(t.app.ctx, provider(), {
        appId: null,
        ownerId: owner.user.id,
        mobile: '+233244000111',
        amount: '5',
        network: 'MTN',
        ...override,
      }),
    ).rejects.toMatchObject({
      kind: 'invalid',
      message: expect.stringMatching(message),
    });
    const rows = await t.db.select().from(transactions).where(eq(transactions.userId, owner.user.id));
    expect(rows).toHaveLength(0);
  });

  it('the sandbox page is 404 for unknown references and the decide body is validated', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/payments/sandbox/DF-FFFFFFFFFFFFFFFFFFFF?token=x' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/payments/sandbox/<script>' })).statusCode).toBe(400);
    const { reference, checkoutUrl } = await start();
    const bad = await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${reference}/decide`,
      payload: { decision: 'maybe', token: tokenOf(checkoutUrl!) },
    });
    expect(bad.statusCode).toBe(400);
    expect((await readTx(reference)).status).toBe('PENDING');
  });

  it("scopes /api/payments/transactions to the owner (another account: empty list, 404 for the owner's app)", async () => {
    const { reference, owner, appId } = await start();
    const mine = await t.app.inject({ method: 'GET', url: `/api/payments/transactions?appId=${appId}`, headers: owner.auth });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toEqual([
      expect.objectContaining({
        reference,
        status: 'PENDING',
        amount: '12.50',
        mobile: '+233244000111',
        network: 'MTN',
        provider: 'sandbox',
      }),
    ]);
    // The sandbox checkout's secret (and its link, which carries it) stays on the server.
    for (const secret of ['checkoutToken', 'checkoutUrl', 'settledBy']) expect(mine.body).not.toContain(secret);
    const all = await t.app.inject({ method: 'GET', url: '/api/payments/transactions', headers: owner.auth });
    expect(all.json().data.map((x: { reference: string }) => x.reference)).toEqual([reference]);

    const other = await seedUser(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/payments/transactions', headers: other.auth })).json()).toEqual({
      status: '00',
      message: 'OK',
      data: [],
    });
    const theirs = await t.app.inject({ method: 'GET', url: `/api/payments/transactions?appId=${appId}`, headers: other.auth });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().status).toBe('04');
    expect((await t.app.inject({ method: 'GET', url: '/api/payments/transactions' })).statusCode).toBe(401);
  });
  it('the paymentprompt action, wired to startPayment, answers { reference, status, checkoutUrl } and Approve settles it', async () => {
    const owner = await seedUser(t);
    const appId = await seedApp(t, owner.auth);
    const runner = createPaymentpromptRunner({ startPayment: (payment) => startPayment(t.app.ctx, provider(), payment) });
    const outcome = await runner.run(
      testInput(
        'paymentprompt',
        { mobile: '{{ session.mobile }}', amount: '7.25', network: '' },
        {
          appId,
          ownerId: owner.user.id,
          actionName: 'pay',
          menu: 'pay',
          scope: testScope({ sessionId: 's-7', mobile: '+233244000999', network: 'AIRTELTIGO', serviceCode: '*920#' }, '', {
            name: 'Shop',
            shortCode: '*920*55#',
          }),
        },
      ),
    );
    if (!outcome.ok) throw new Error(outcome.error);
    const result = outcome.result as { reference: string; status: string; checkoutUrl: string };
    expect(result).toEqual({
      reference: expect.stringMatching(/^DF-/),
      status: 'PENDING',
      checkoutUrl: expect.stringContaining('/payments/sandbox/'),
      message: expect.any(String),
    });
    expect(await readTx(result.reference)).toMatchObject({
      amount: '7.25',
      appId,
      userId: owner.user.id,
      shortcode: '*920*55#',
      metadata: expect.objectContaining({ network: 'AIRTELTIGO', sessionId: 's-7' }),
    });
    await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${result.reference}/decide`,
      payload: { decision: 'approve', token: tokenOf(result.checkoutUrl) },
    });
    expect((await readTx(result.reference)).status).toBe('SUCCESS');
  });
});
