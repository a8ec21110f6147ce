import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaystackPaymentProvider, toPaystackProvider } from './paystack-payments';
import type { ChargeRequest } from './payment-provider';

const SECRET = 'sk_test_0123456789abcdef';

describe('Paystack provider', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }> = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: JSON.parse(body || '{}') });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
  });

  const charge: ChargeRequest = {
    reference: 'DF-0123456789ABCDEF0123',
    amount: 12.5,
    currency: 'GHS',
    mobile: '233551234987',
    network: 'MTN',
    email: 'owner@example.com',
    callbackUrl: 'https://dialflow.example/api/payments/callback/paystack',
    checkoutBaseUrl: 'https://dialflow.example',
  };

  it('charges the wallet: amount in pesewas, mobile_money {phone, provider}, our reference, Bearer secret', async () => {
    answer = {
      status: 200,
      body: {
        status: true,
        message: 'Charge attempted',
        data: {
          reference: charge.reference,
          status: 'pay_offline',
          display_text: 'Please complete authorization process on your mobile phone',
        },
      },
    };
    const provider = createPaystackPaymentProvider({ secretKey: SECRET, baseUrl });
    await expect(provider.startCharge(charge)).resolves.toEqual({
      status: 'PENDING',
      providerReference: charge.reference,
      displayText: 'Please complete authorization process on your mobile phone',
    });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/charge' });
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(seen[0]!.body).toMatchObject({
      email: 'owner@example.com',
      amount: 1250,
      currency: 'GHS',
      reference: charge.reference,
      mobile_money: { phone: '0551234987', provider: 'mtn' },
    });
  });

  it.each([
    ['MTN', 'mtn'],
    ['Vodafone', 'vod'],
    ['TELECEL', 'vod'],
    ['AirtelTigo', 'atl'],
    ['AT', 'atl'],
    ['safaricom', 'mpesa'],
    ['glo', undefined],
  ])('maps the network %s to %s', (network, code) => {
    expect(toPaystackProvider(network)).toBe(code);
  });

  it('a refused charge is FAILED with the reason', async () => {
    answer = {
      status: 400,
      body: { status: false, message: 'Charge attempted', data: { status: 'failed', message: 'Invalid phone number' } },
    };
    const provider = createPaystackPaymentProvider({ secretKey: SECRET, baseUrl });
    await expect(provider.startCharge(charge)).resolves.toEqual({ status: 'FAILED', error: 'Invalid phone number' });
  });

  it('a 5xx throws: whether the charge started is unknown', async () => {
    answer = { status: 502, body: {} };
    const provider = createPaystackPaymentProvider({ secretKey: SECRET, baseUrl });
    await expect(provider.startCharge(charge)).rejects.toThrow(/HTTP 502/);
  });

  it("an unknown network falls back to Paystack's checkout page (mobile money only)", async () => {
    answer = {
      status: 200,
      body: {
        status: true,
        message: 'Authorization URL created',
        data: { authorization_url: 'https://checkout.paystack.com/abc', access_code: 'abc', reference: charge.reference },
      },
    };
    const provider = createPaystackPaymentProvider({ secretKey: SECRET, baseUrl });
    await expect(provider.startCharge({ ...charge, network: '' })).resolves.toMatchObject({
      status: 'PENDING',
      checkoutUrl: 'https://checkout.paystack.com/abc',
    });
    expect(seen[0]).toMatchObject({
      url: '/transaction/initialize',
      body: { amount: 1250, channels: ['mobile_money'], reference: charge.reference },
    });
  });

  describe('webhook', () => {
    const provider = createPaystackPaymentProvider({ secretKey: SECRET, baseUrl: 'http://unused' });
    const body = JSON.stringify({
      event: 'charge.success',
      data: { id: 302961, reference: charge.reference, status: 'success', amount: 1250, currency: 'GHS' },
    });
    const sign = (raw: string, key = SECRET) => createHmac('sha512', key).update(raw).digest('hex');

    it('accepts the HMAC-SHA512 of the raw body', () => {
      expect(provider.verifyCallback({ rawBody: Buffer.from(body), headers: { 'x-paystack-signature': sign(body) } })).toMatchObject({
        eventId: 'charge.success:302961',
        reference: charge.reference,
        status: 'SUCCESS',
        amount: 12.5,
        currency: 'GHS',
      });
    });

    it.each([
      ['no signature', body, undefined],
      ['a signature made with another key', body, sign(body, 'sk_test_other')],
      ['a body changed after signing', body.replace('1250', '125000'), sign(body)],
      ['a signature that is not hex', body, 'zz'],
    ])('refuses %s', (_name, raw, signature) => {
      expect(provider.verifyCallback({ rawBody: raw, headers: signature ? { 'x-paystack-signature': signature } : {} })).toBeNull();
    });

    it('a genuine event that settles nothing is IGNORED', () => {
      const other = JSON.stringify({ event: 'transfer.success', data: { id: 9, reference: 'T-1' } });
      expect(provider.verifyCallback({ rawBody: other, headers: { 'x-paystack-signature': sign(other) } })).toMatchObject({
        status: 'IGNORED',
      });
    });
  });
});
