import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SHORTCODE_MESSAGES } from '../../../shared/api/shortcodes.schema';
import { failureText, isNetworkFailure, isOk } from '../../lib/api';
import type { CallReply } from '../../lib/call';
import type { buyShortcode } from '../../../shared/api/shortcodes.calls';
import { SHORTCODES_KEY } from './use-shortcodes';

/** Buy and renew answer the checkout reply; a refusal (or no server) is only the envelope. */
type CheckoutAnswer = CallReply<typeof buyShortcode>;

/** A checkout answered '01': the payment page, opened in a new tab, and what the screen says meanwhile. */
export interface PaymentInProgress {
  redirectUrl: string;
  shortCode: string;
  message: string;
  /** Until when the dial string is held for this payment. */
  reservedUntil: string | null;
}

/**
 * Buy and renew answer the same way: '01' opens `redirectUrl` (the payment page) in a new tab and the screen says
 * so, with a link in case the browser blocked the tab; '00' (the provider asks the payer on the phone) and every
 * refusal show the server's message as information. The purchases reload either way.
 */
export function useShortcodeCheckout() {
  const queryClient = useQueryClient();
  const [payment, setPayment] = useState<PaymentInProgress | null>(null);

  async function handleCheckout(reply: CheckoutAnswer, shortCode: string): Promise<void> {
    await queryClient.invalidateQueries({ queryKey: SHORTCODES_KEY });
    if (reply.status === '01' && reply.redirectUrl) {
      const tab = window.open(reply.redirectUrl, '_blank');
      // The payment page never needs to reach back into the console.
      if (tab) tab.opener = null;
      setPayment({
        redirectUrl: reply.redirectUrl,
        shortCode: reply.data?.shortCode ?? shortCode,
        message: reply.message || SHORTCODE_MESSAGES.checkout,
        reservedUntil: reply.data?.reservedUntil ?? null,
      });
      return;
    }
    setPayment(null);
    if (isOk(reply)) {
      showToast({ color: 'teal', title: shortCode, message: reply.message || 'Payment requested.', autoClose: 10_000 });
      return;
    }
    showToast({
      color: isNetworkFailure(reply) ? 'red' : 'blue',
      title: shortCode,
      message: failureText(reply, 'The payment could not be started.'),
      autoClose: 10_000,
    });
  }

  return { payment, handleCheckout, clearPayment: () => setPayment(null) };
}
