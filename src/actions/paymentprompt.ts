/**
 * paymentprompt: starts a mobile-money charge through the configured payment provider (docs/runtime.md,
 * Action kinds). The server records a PENDING transaction under a new reference and settles it when the provider's
 * verified callback arrives; the action never waits for the payer. Every field is a template; an empty mobile or
 * network means the session's.
 *
 * @example
 *   code: { mobile: '{{ session.mobile }}', amount: '{{ session.inputs.amount }}', network: '{{ session.network }}' }
 *   actions.<name> = { reference: 'DF-9C1E...', status: 'PENDING', checkoutUrl: 'https://.../payments/sandbox/DF-9C1E...' }
 *   (status FAILED, with a message, when the provider refused the charge at once)
 */
import type { ActionInput, ActionOutcome, ActionRunner } from '../shared/actions/runner';
import { toErrorMessage } from '../shared/errors';
import { beforeDeadline, TIMED_OUT } from './deadline';

export interface PaymentToStart {
  appId: string;
  ownerId: string;
  sessionId: string;
  mobile: string;
  /** Positive, at most two decimals, as text: `"12.50"`. */
  amount: string;
  network: string;
  shortcode: string;
}

export interface StartedPayment {
  reference: string;
  status: 'PENDING' | 'FAILED';
  checkoutUrl?: string;
  message?: string;
}

export interface PaymentpromptDeps {
  /** The server's startPayment with the configured provider; rejects when the provider cannot be reached. */
  startPayment(payment: PaymentToStart): Promise<StartedPayment>;
}

const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;

export function createPaymentpromptRunner(deps: PaymentpromptDeps): ActionRunner<'paymentprompt'> {
  return {
    async run(input: ActionInput<'paymentprompt'>): Promise<ActionOutcome> {
      try {
        const code = input.action.code;
        const session = input.scope.session;
        const amount = input.renderTemplate(code.amount).trim();
        if (!AMOUNT.test(amount) || Number(amount) <= 0) {
          return { ok: false, error: `The amount must be a positive number with at most two decimals, not "${amount.slice(0, 40)}"` };
        }
        const payment: PaymentToStart = {
          appId: input.appId,
          ownerId: input.ownerId,
          sessionId: session.sessionId,
          mobile: input.renderTemplate(code.mobile).trim() || session.mobile,
          amount,
          network: input.renderTemplate(code.network).trim() || session.network,
          shortcode: input.scope.app.shortCode || session.serviceCode,
        };
        const started = await beforeDeadline(deps.startPayment(payment), input.deadline);
        if (started === TIMED_OUT) {
          // The transaction exists and stays PENDING; a callback may still settle it.
          return { ok: false, error: 'The payment provider did not answer in time', timedOut: true };
        }
        const result: StartedPayment = { reference: started.reference, status: started.status };
        if (started.checkoutUrl) result.checkoutUrl = started.checkoutUrl;
        if (started.message) result.message = started.message;
        const level = started.status === 'FAILED' ? 'error' : 'info';
        return {
          ok: true,
          result,
          logs: [
            {
              level,
              message: `Payment ${started.reference} of ${amount} from ${payment.mobile}: ${started.status}${started.message ? ` (${started.message})` : ''}`,
            },
          ],
        };
      } catch (err) {
        return { ok: false, error: toErrorMessage(err) };
      }
    },
  };
}
