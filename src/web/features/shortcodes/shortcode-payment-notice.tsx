import { Alert, Anchor, Code, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { formatTime } from './shortcode-format';
import type { PaymentInProgress } from './use-shortcode-checkout';

/** What the screen says while the payment page is open in another tab, with that page's link. */
export function ShortCodePaymentNotice({ payment, onClose }: { payment: PaymentInProgress; onClose: () => void }) {
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconExternalLink size={20} />}
      title="Payment page opened in a new tab"
      withCloseButton
      closeButtonLabel="Dismiss message"
      onClose={onClose}
      data-testid="payment-notice"
      role="status"
    >
      <Text size="sm">
        <Code>{payment.shortCode}</Code> {payment.message}
      </Text>
      <Text size="sm" mt="xs">
        No new tab?{' '}
        <Anchor href={payment.redirectUrl} target="_blank" rel="noopener noreferrer" fw={600}>
          Open the payment page
        </Anchor>
        {payment.reservedUntil ? ` (held for you until ${formatTime(payment.reservedUntil)})` : ''}. Once paid, the shortcode shows as
        active in My USSD Extensions.
      </Text>
    </Alert>
  );
}
