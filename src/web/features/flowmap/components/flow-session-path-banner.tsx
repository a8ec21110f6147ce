import { Alert, Button, Group, Text } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import type { SessionPath } from '../../../../shared/api/monitoring.schema';
import { countOf } from '../flow-graph';

interface SessionPathBannerProps {
  sessionId: string;
  isPending: boolean;
  error: Error | null;
  path: SessionPath | undefined;
  /** Menus of the path that are no longer in the draft. */
  missing: number;
  onClear: () => void;
}

/** What the highlighted path is: whose, how long, how it ended; or why it cannot be shown. */
export function SessionPathBanner({ sessionId, isPending, error, path, missing, onClear }: SessionPathBannerProps) {
  const clear = (
    <Button size="compact-sm" variant="default" onClick={onClear}>
      Clear path
    </Button>
  );
  const text = error
    ? error.message
    : isPending || !path
      ? 'Reading the session’s path…'
      : path.steps.length === 0
        ? 'No screens are logged for this session (its logs may have been cleared).'
        : `${countOf(path.steps.length, 'screen')}, ${countOf(path.rules.length, 'rule')} taken; ${path.ended ? 'the app ended it.' : 'it did not end in the app (still open, timed out or dropped).'}${missing > 0 ? ` ${missing} of its menus are no longer in the draft.` : ''}`;
  return (
    <Alert
      color={error ? 'red' : 'violet'}
      variant="light"
      icon={<IconRoute size={18} />}
      data-testid="flow-path"
      title={`Path of session ${sessionId}`}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm">{text}</Text>
        {clear}
      </Group>
    </Alert>
  );
}
