import { Anchor, Group, Loader, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { PROGRESS_CLOSE_MS } from '../../../shared/api/billing.schema';
import type { PaymentProgress } from './use-billing';

/**
 * The progress dialog: open while the server starts the payment, then says that the payment page opened in a
 * new tab (with its link, in case the browser blocked the tab) until it closes by itself.
 */
export function BillingProgressDialog({ progress, onClose }: { progress: PaymentProgress | null; onClose: () => void }) {
  const isStarting = progress?.phase === 'starting';
  return (
    <Modal
      opened={progress !== null}
      onClose={onClose}
      title="Payment"
      centered
      size="sm"
      withCloseButton={!isStarting}
      closeOnClickOutside={!isStarting}
      closeOnEscape={!isStarting}
    >
      <div data-testid="billing-progress" role="status">
        {progress?.phase === 'starting' && (
          <Group gap="md" wrap="nowrap">
            <Loader size="sm" color="teal" />
            <Text size="sm">Starting the payment…</Text>
          </Group>
        )}
        {progress?.phase === 'opened' && (
          <Stack gap="sm">
            <Group gap="sm" wrap="nowrap">
              <ThemeIcon color="teal" variant="light" radius="xl" aria-hidden="true">
                <IconExternalLink size={16} />
              </ThemeIcon>
              <Text size="sm" fw={600}>
                Payment page opened in a new tab
              </Text>
            </Group>
            <Text size="sm">{progress.message}</Text>
            <Text size="sm">
              No new tab?{' '}
              <Anchor href={progress.redirectUrl} target="_blank" rel="noopener noreferrer" fw={600}>
                Open the payment page
              </Anchor>
              . This closes in {PROGRESS_CLOSE_MS / 1000} seconds.
            </Text>
          </Stack>
        )}
      </div>
    </Modal>
  );
}
