import { Alert, type AlertProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';

type InfoNoticeProps = Omit<AlertProps, 'icon' | 'color' | 'variant' | 'withCloseButton'> & {
  icon: Icon;
  'data-testid'?: string;
};

/**
 * The console's blue notice: something to know on this screen (a payment page in another tab, advice, why a form
 * is missing), with its icon and title; a close button when it can be dismissed (`onClose`).
 */
export function InfoNotice({ icon: IconShown, onClose, ...props }: InfoNoticeProps) {
  return (
    <Alert color="blue" variant="light" icon={<IconShown size={20} />} withCloseButton={Boolean(onClose)} onClose={onClose} {...props} />
  );
}
