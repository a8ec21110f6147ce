import { Badge } from '@mantine/core';
import type { BotStatus } from '../../../shared/api/bots.schema';

/** A bot's status: green when 'active', otherwise the warning colour. */
export function BotStatusBadge({ status }: { status: BotStatus }) {
  return (
    <Badge variant="light" color={status === 'active' ? 'green' : 'yellow'} data-testid="bot-status">
      {status === 'active' ? 'Active' : 'Inactive'}
    </Badge>
  );
}
