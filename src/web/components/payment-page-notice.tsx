import { Anchor, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { InfoNotice } from './info-notice';

interface PaymentPageNoticeProps {
  /** The payment page, linked in case the browser blocked the new tab. */
  redirectUrl: string;
  /** What is being paid and what to do (the server's message). */
  message: ReactNode;
  /** The sentence after the link: `. Once paid, ...`. */
  afterLink: string;
  onClose: () => void;
  testId: string;
}

/** What a screen says while the payment page is open in another tab (a shortcode, a plan), with that page's link. */
export function PaymentPageNotice({ redirectUrl, message, afterLink, onClose, testId }: PaymentPageNoticeProps) {
  return (
    <InfoNotice
      icon={IconExternalLink}
      title="Payment page opened in a new tab"
      closeButtonLabel="Dismiss message"
      onClose={onClose}
      data-testid={testId}
      role="status"
    >
      <Text size="sm">{message}</Text>
      <Text size="sm" mt="xs">
        No new tab?{' '}
        <Anchor href={redirectUrl} target="_blank" rel="noopener noreferrer" fw={600}>
          Open the payment page
        </Anchor>
        {afterLink}
      </Text>
    </InfoNotice>
  );
}
