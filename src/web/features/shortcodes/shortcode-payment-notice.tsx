import { Code } from '@mantine/core';
import { PaymentPageNotice } from '../../components/payment-page-notice';
import { formatTime } from './shortcode-format';
import type { PaymentInProgress } from './use-shortcode-checkout';

/** What the screen says while the payment page is open in another tab, with that page's link. */
export function ShortcodePaymentNotice({ payment, onClose }: { payment: PaymentInProgress; onClose: () => void }) {
  return (
    <PaymentPageNotice
      redirectUrl={payment.redirectUrl}
      message={
        <>
          <Code>{payment.shortCode}</Code> {payment.message}
        </>
      }
      afterLink={`${payment.reservedUntil ? ` (held for you until ${formatTime(payment.reservedUntil)})` : ''}. Once paid, the shortcode shows as active in My USSD Extensions.`}
      onClose={onClose}
      testId="payment-notice"
    />
  );
}
