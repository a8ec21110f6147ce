import { describe, expect, it, vi } from 'vitest';
import { createPaymentpromptRunner, type PaymentToStart } from './paymentprompt';
import { testInput, testScope } from './test-input';

const scope = testScope(
  { sessionId: 'sess-9', mobile: '+233244000111', network: 'VODAFONE', serviceCode: '*920#', inputs: { amount: '15.5' } },
  '15.5',
  { name: 'Shop', shortCode: '*920*55#' },
);

const input = (code: { mobile: string; amount: string; network: string }, deadline = Date.now() + 3000) =>
  testInput('paymentprompt', code, { scope, actionName: 'pay', menu: 'pay', deadline });

const started = {
  reference: 'DF-0123456789ABCDEF0123',
  status: 'PENDING' as const,
  checkoutUrl: 'https://x.test/payments/sandbox/DF-0123456789ABCDEF0123',
};

describe('paymentprompt runner', () => {
  it('renders the fields, starts the payment, and answers { reference, status, checkoutUrl }', async () => {
    const startPayment = vi.fn(async (_p: PaymentToStart) => started);
    const outcome = await createPaymentpromptRunner({ startPayment }).run(
      input({ mobile: '{{ session.mobile }}', amount: '{{ session.inputs.amount }}', network: 'MTN' }),
    );
    expect(outcome).toMatchObject({ ok: true, result: started });
    expect(startPayment).toHaveBeenCalledWith({
      appId: 'app-1',
      ownerId: 'owner-1',
      sessionId: 'sess-9',
      mobile: '+233244000111',
      amount: '15.5',
      network: 'MTN',
      shortcode: '*920*55#',
    });
  });

  it("empty mobile and network mean the session's", async () => {
    const startPayment = vi.fn(async () => started);
    await createPaymentpromptRunner({ startPayment }).run(input({ mobile: '', amount: '5', network: '' }));
    expect(startPayment).toHaveBeenCalledWith(expect.objectContaining({ mobile: '+233244000111', network: 'VODAFONE' }));
  });

  it.each(['0', '-1', '1.234', 'ten', '', '1e3'])('refuses the amount %j without starting anything', async (amount) => {
    const startPayment = vi.fn(async () => started);
    const outcome = await createPaymentpromptRunner({ startPayment }).run(input({ mobile: '', amount, network: '' }));
    expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining('positive number') });
    expect(startPayment).not.toHaveBeenCalled();
  });

  it('a refused charge is a result with status FAILED, so the menu can branch on it', async () => {
    const startPayment = vi.fn(async () => ({ reference: started.reference, status: 'FAILED' as const, message: 'Invalid Mobile Number' }));
    await expect(createPaymentpromptRunner({ startPayment }).run(input({ mobile: '', amount: '5', network: '' }))).resolves.toMatchObject({
      ok: true,
      result: { reference: started.reference, status: 'FAILED', message: 'Invalid Mobile Number' },
    });
  });

  it('an unreachable provider is an action error; a slow one times out at the deadline', async () => {
    const down = vi.fn(async () => {
      throw new Error('The payment provider could not be reached. Please try again.');
    });
    await expect(createPaymentpromptRunner({ startPayment: down }).run(input({ mobile: '', amount: '5', network: '' }))).resolves.toEqual({
      ok: false,
      error: 'The payment provider could not be reached. Please try again.',
    });
    const slow = () => new Promise<typeof started>(() => {});
    await expect(
      createPaymentpromptRunner({ startPayment: slow }).run(input({ mobile: '', amount: '5', network: '' }, Date.now() + 20)),
    ).resolves.toMatchObject({ ok: false, timedOut: true });
  });
});
