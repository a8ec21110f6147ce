import { Badge, Tooltip } from '@mantine/core';
import type { StreamState } from '../lib/event-stream';

/** Where a live screen's stream stands: Live, or Connecting / Reconnecting with why in a tooltip. */
export function LiveBadge({ stream, testId }: { stream: StreamState; testId: string }) {
  if (stream.state === 'live')
    return (
      <Badge color="teal" variant="light" data-testid={testId}>
        Live
      </Badge>
    );
  const label = stream.state === 'connecting' ? 'Connecting…' : `Reconnecting: ${stream.reason}`;
  return (
    <Tooltip label={label} multiline maw={280}>
      <Badge color="orange" variant="light" data-testid={testId} tabIndex={0}>
        {stream.state === 'connecting' ? 'Connecting' : 'Reconnecting'}
      </Badge>
    </Tooltip>
  );
}
