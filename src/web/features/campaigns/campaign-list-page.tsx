import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus, IconSpeakerphone, IconUsersGroup } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { Campaign } from '../../../shared/api/campaigns.schema';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { type ListColumn, ListTable } from '../../components/list-table';
import { PageHeader } from '../../components/page-header';
import { formatMoment } from '../../lib/format';
import { CampaignStatusBadge } from './campaign-status-badge';
import {
  AUDIENCES_PATH,
  CHANNELS_LABELS,
  NEW_AUDIENCE_PARAM,
  NEW_CAMPAIGN_PATH,
  campaignPath,
  useCampaigns,
  useCampaignsLive,
} from './campaigns.api';

/** Sent, delivered and replied in all, or a dash before anything was queued. */
function Figures({ campaign }: { campaign: Campaign }) {
  const all = campaign.results?.all;
  if (!all)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="campaign-figures">
      {`${all.sent} sent · ${all.delivered} delivered · ${all.replied + all.dialled} replied`}
    </Text>
  );
}

/** When: started (or scheduled for), else created. */
function When({ campaign }: { campaign: Campaign }) {
  if (campaign.startedAt) return <Text size="sm">{`Started ${formatMoment(campaign.startedAt)}`}</Text>;
  if (campaign.startAt) return <Text size="sm">{`Starts ${formatMoment(campaign.startAt)}`}</Text>;
  return <Text size="sm" c="dimmed">{`Created ${formatMoment(campaign.createdAt)}`}</Text>;
}

/** Campaigns (/campaigns): the account's campaigns, newest first, with their status and figures. */
export function CampaignListPage() {
  const campaigns = useCampaigns();
  // Each change (a campaign sending, ending) reads the list again.
  useCampaignsLive();
  const navigate = useNavigate();
  const newAudiencePath = `${AUDIENCES_PATH}?${NEW_AUDIENCE_PARAM}=1`;

  const columns: ListColumn<Campaign>[] = [
    {
      header: 'Name',
      render: (c) => (
        <Stack gap={4}>
          <Group gap="xs" wrap="nowrap">
            <Anchor component={Link} to={campaignPath(c.campaignId)} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {c.name}
            </Anchor>
            <CampaignStatusBadge status={c.status} />
          </Group>
          <Stack gap={2} hiddenFrom="md">
            <Text size="xs" c="dimmed">
              {`${CHANNELS_LABELS[c.channels]}${c.audienceSize === null ? '' : ` · ${c.audienceSize} contacts`}`}
            </Text>
            <Figures campaign={c} />
          </Stack>
        </Stack>
      ),
    },
    { header: 'Channels', visibleFrom: 'md', render: (c) => <Text size="sm">{CHANNELS_LABELS[c.channels]}</Text> },
    {
      header: 'Audience',
      visibleFrom: 'md',
      align: 'right',
      render: (c) => <Text size="sm">{c.audienceSize ?? '—'}</Text>,
    },
    { header: 'Results', visibleFrom: 'md', render: (c) => <Figures campaign={c} /> },
    { header: 'When', visibleFrom: 'sm', render: (c) => <When campaign={c} /> },
  ];

  return (
    <Stack gap="xl">
      <PageHeader
        title="Campaigns"
        description="Messages to many of your contacts at once: WhatsApp to those who opted in to it, SMS with your USSD code to the others, and the results as they come."
        action={
          <Group gap="sm">
            <Button component={Link} to={AUDIENCES_PATH} variant="default" leftSection={<IconUsersGroup size={16} />}>
              Audiences
            </Button>
            <Button component={Link} to={NEW_CAMPAIGN_PATH} leftSection={<IconPlus size={16} />}>
              New campaign
            </Button>
          </Group>
        }
      />
      <ListSection
        query={campaigns}
        loadingLabel="Loading campaigns"
        errorTitle="Campaigns not loaded"
        errorTestId="campaigns-error"
        empty={
          <EmptyPanel
            testId="campaigns-empty"
            icon={<IconSpeakerphone size={28} />}
            title="No campaigns yet"
            description="A campaign sends one message to an audience of your contacts: a WhatsApp template to those who opted in to WhatsApp, an SMS with your app's dial code to the others. Start with an audience, then the campaign."
            action={
              <Group gap="sm" justify="center">
                <Button component={Link} to={newAudiencePath} variant="default">
                  New audience
                </Button>
                <Button component={Link} to={NEW_CAMPAIGN_PATH}>
                  New campaign
                </Button>
              </Group>
            }
          />
        }
      >
        {(rows) => (
          <ListTable
            rows={rows}
            columns={columns}
            getRowKey={(c) => c.campaignId}
            getRowMark={(c) => c.name}
            label="Campaigns"
            testId="campaigns-table"
            onRowClick={(c) => navigate(campaignPath(c.campaignId))}
          />
        )}
      </ListSection>
    </Stack>
  );
}
