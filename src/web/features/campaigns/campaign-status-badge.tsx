import { Badge } from '@mantine/core';
import type { CampaignStatus } from '../../../shared/api/campaigns.schema';
import { WHOLE_BADGE_STYLES } from '../../lib/format';
import { STATUS_COLORS, STATUS_LABELS } from './campaigns.api';

/** A campaign's status as a coloured word: Draft, Scheduled, Sending, Paused, Done, Cancelled. */
export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <Badge variant="light" color={STATUS_COLORS[status]} styles={WHOLE_BADGE_STYLES} data-testid="campaign-status">
      {STATUS_LABELS[status]}
    </Badge>
  );
}
