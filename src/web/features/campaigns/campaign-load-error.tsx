import { Button } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CAMPAIGN_MESSAGES } from '../../../shared/api/campaigns.schema';
import { EmptyPanel } from '../../components/list-states';
import { LoadErrorPanel } from '../../components/load-error-panel';
import { CAMPAIGNS_PATH } from './campaigns.api';

/** A campaign that could not be read: not found (deleted, or another account's) says so; anything else offers Try again. */
export function CampaignLoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  if (error.message !== CAMPAIGN_MESSAGES.notFound) return <LoadErrorPanel message={error.message} onRetry={onRetry} />;
  return (
    <EmptyPanel
      testId="campaign-not-found"
      icon={<IconSpeakerphone size={28} />}
      title={CAMPAIGN_MESSAGES.notFound}
      description="It was deleted, or it is not one of this account's. Your campaigns are on the list."
      action={
        <Button component={Link} to={CAMPAIGNS_PATH}>
          Campaigns
        </Button>
      }
    />
  );
}
