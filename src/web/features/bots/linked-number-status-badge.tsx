import { Badge } from '@mantine/core';
import type { LinkStatus } from '../../../shared/whatsapp';
import { LINK_STATUS_COLORS } from './linked-number-link';

/** A linked number's status: CONNECTED green, PENDING yellow, QR blue, FAILED and DISCONNECTED red. */
export function LinkedNumberStatusBadge({ status }: { status: LinkStatus }) {
  return (
    <Badge variant="light" color={LINK_STATUS_COLORS[status]} data-testid="link-status">
      {status}
    </Badge>
  );
}
