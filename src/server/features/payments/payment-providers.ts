import type { PaymentProvider } from '../../../integrations/payments/payment-provider';
import { createPaystackPaymentProvider } from '../../../integrations/payments/paystack-payments';
import { createSandboxPaymentProvider, type SandboxPaymentProvider } from '../../../integrations/payments/sandbox-payments';
import type { Config } from '../../config';

const providers = new WeakMap<Config, PaymentProvider>();
const sandboxProviders = new WeakMap<Config, SandboxPaymentProvider>();

/**
 * The sandbox provider, whatever PAYMENT_PROVIDER says: featured templates' test runs always charge through it
 * (no money moves), and its checkout page serves them. One per config, shared with getPaymentProvider.
 */
export function getSandboxPaymentProvider(config: Config): SandboxPaymentProvider {
  let provider = sandboxProviders.get(config);
  if (!provider) {
    provider = createSandboxPaymentProvider({ secret: config.SANDBOX_PAYMENT_SECRET });
    sandboxProviders.set(config, provider);
  }
  return provider;
}

/** The configured provider, one per config, so the action runner and the callback routes share it (and its secret). */
export function getPaymentProvider(config: Config): PaymentProvider {
  let provider = providers.get(config);
  if (!provider) {
    if (config.PAYMENT_PROVIDER === 'paystack') {
      // loadConfig already refuses this at boot; createConfig (tests, tools) skips that check.
      if (!config.PAYSTACK_SECRET_KEY) throw new Error('PAYSTACK_SECRET_KEY is required when PAYMENT_PROVIDER=paystack');
      provider = createPaystackPaymentProvider({ secretKey: config.PAYSTACK_SECRET_KEY, baseUrl: config.PAYSTACK_BASE_URL });
    } else {
      provider = getSandboxPaymentProvider(config);
    }
    providers.set(config, provider);
  }
  return provider;
}

export const isSandboxProvider = (provider: PaymentProvider): provider is SandboxPaymentProvider => provider.kind === 'sandbox';
