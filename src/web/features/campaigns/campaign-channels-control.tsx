import { SegmentedControl } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { CAMPAIGN_CHANNELS, type CampaignChannels } from '../../../shared/api/campaigns.schema';
import { CHANNELS_LABELS } from './campaigns.api';

/** The channel order as one segmented choice: WhatsApp then SMS, WhatsApp only, SMS only; stacked on a phone. */
export function CampaignChannelsControl({
  value,
  onChange,
  label,
}: {
  value: CampaignChannels;
  onChange: (value: CampaignChannels) => void;
  label: string;
}) {
  const isNarrow = useMediaQuery('(max-width: 36em)');
  return (
    <SegmentedControl
      aria-label={label}
      value={value}
      onChange={(v) => onChange(v as CampaignChannels)}
      data={CAMPAIGN_CHANNELS.map((channels) => ({ value: channels, label: CHANNELS_LABELS[channels] }))}
      orientation={isNarrow ? 'vertical' : 'horizontal'}
      fullWidth
    />
  );
}
