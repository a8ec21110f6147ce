import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';

interface LoadErrorAlertProps {
  /** What was not loaded: 'Providers not loaded'. */
  title: string;
  message: string;
  onRetry: () => void;
  testId?: string;
}

/** A list or record that could not be loaded: the reason and Try again (which loads it again). */
export function LoadErrorAlert({ title, message, onRetry, testId }: LoadErrorAlertProps) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} title={title} data-testid={testId}>
      {message}
      <div>
        <Button mt="sm" size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={onRetry}>
          Try again
        </Button>
      </div>
    </Alert>
  );
}
