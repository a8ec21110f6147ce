import { expect, it } from 'vitest';
import { loadConfig } from '../../config';

it('defaults to the outbox and the sandbox, with a random sandbox secret per process', () => {
  const a = loadConfig({});
  expect(a).toMatchObject({
    SMS_PROVIDER: 'outbox',
    PAYMENT_PROVIDER: 'sandbox',
    PAYMENT_CURRENCY: 'GHS',
    AT_SMS_URL: 'https://api.africastalking.com/version1/messaging',
    PAYSTACK_BASE_URL: 'https://api.paystack.co',
  });
  expect(a.SANDBOX_PAYMENT_SECRET).toMatch(/^[0-9a-f]{64}$/);
  expect(loadConfig({}).SANDBOX_PAYMENT_SECRET).not.toBe(a.SANDBOX_PAYMENT_SECRET);
});

it('refuses to boot with a real provider and no keys, listed with every other bad key', () => {
  expect(() => loadConfig({ SMS_PROVIDER: 'africastalking', PAYMENT_PROVIDER: 'paystack', PORT: 'x' })).toThrow(
    /PORT[\s\S]*AT_USERNAME: required when SMS_PROVIDER=africastalking[\s\S]*AT_API_KEY: required when SMS_PROVIDER=africastalking[\s\S]*PAYSTACK_SECRET_KEY: required when PAYMENT_PROVIDER=paystack/,
  );
  expect(
    loadConfig({
      SMS_PROVIDER: 'africastalking',
      AT_USERNAME: 'sandbox',
      AT_API_KEY: 'k',
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_test_x',
    }),
  ).toMatchObject({
    SMS_PROVIDER: 'africastalking',
    PAYMENT_PROVIDER: 'paystack',
  });
  expect(() => loadConfig({ PAYMENT_CURRENCY: 'cedi' })).toThrow(/PAYMENT_CURRENCY/);
  expect(() => loadConfig({ SANDBOX_PAYMENT_SECRET: 'short' })).toThrow(/SANDBOX_PAYMENT_SECRET/);
});
