import type { PaymentProvider } from '../../integrations/payments/payment-provider';
import { createPaystackPaymentProvider } from '../../integrations/payments/paystack-payments';
import { createSandboxPaymentProvider, type SandboxPaymentProvider } from '../../integrations/payments/sandbox-payments';
import type { Config } from '../config';

/** The payment providers of one server, built once by buildApp (ctx.paymentProviders). */
export interface PaymentProviders {
  /** PAYMENT_PROVIDER's: the action runner, checkouts, the callback route and the billing timer share it (and its secret). */
  configured: PaymentProvider;
  /**
   * The sandbox, whatever PAYMENT_PROVIDER says: featured templates' test runs always charge through it (no money
   * moves), and its checkout page serves them. The same object as `configured` when that is the sandbox.
   */
  sandbox: SandboxPaymentProvider;
}

export function createPaymentProviders(config: Config): PaymentProviders {
  const sandbox = createSandboxPaymentProvider({ secret: config.SANDBOX_PAYMENT_SECRET });
  if (config.PAYMENT_PROVIDER !== 'paystack') return { configured: sandbox, sandbox };
  // loadConfig already refuses this at boot; createConfig (tests, tools) skips that check.
  if (!config.PAYSTACK_SECRET_KEY) throw new Error('PAYSTACK_SECRET_KEY is required when PAYMENT_PROVIDER=paystack');
  return {
    configured: createPaystackPaymentProvider({ secretKey: config.PAYSTACK_SECRET_KEY, baseUrl: config.PAYSTACK_BASE_URL }),
    sandbox,
  };
}

export const isSandboxProvider = (provider: PaymentProvider): provider is SandboxPaymentProvider => provider.kind === 'sandbox';
