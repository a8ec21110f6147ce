import { Alert } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';

interface FormAlertProps {
  message: string | null;
  onClose: () => void;
  /** `warning` for refused input and server errors (docs/product.md, Showing results), `success` for a confirmation. */
  kind?: 'warning' | 'success';
  title?: string;
}

/**
 * The dismissible box that form screens (logins, register, create app, settings...) show a server or
 * validation message in, instead of a toast (docs/product.md, Showing results). Renders nothing without a message.
 */
export function FormAlert({ message, onClose, kind = 'warning', title }: FormAlertProps) {
  if (!message) return null;
  const isWarning = kind === 'warning';
  return (
    <Alert
      variant="light"
      color={isWarning ? 'orange' : 'teal'}
      icon={isWarning ? <IconAlertTriangle size={20} /> : <IconCircleCheck size={20} />}
      title={title}
      withCloseButton
      closeButtonLabel="Dismiss message"
      onClose={onClose}
      data-testid="form-alert"
      // A long unbroken token (a setting like OUTBOUND_ALLOW_HOSTS=10.0.0.1:80, a URL) wraps inside the box on a phone.
      styles={{ body: { minWidth: 0 }, message: { overflowWrap: 'anywhere' } }}
    >
      {message}
    </Alert>
  );
}
