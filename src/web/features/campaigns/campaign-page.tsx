import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCalendarEvent, IconDownload, IconPencil, IconPlayerPause, IconPlayerPlay, IconTrash, IconX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { findBots } from '../../../shared/api/bots.calls';
import { cancelCampaign, deleteCampaign, exportCampaign, pauseCampaign, resumeCampaign } from '../../../shared/api/campaigns.calls';
import type { Campaign } from '../../../shared/api/campaigns.schema';
import { BackLink } from '../../components/back-link';
import { PageLoading } from '../../components/page-loading';
import { failureText, isOk } from '../../lib/api';
import { call, callQuery, downloadCall } from '../../lib/call';
import { formatMoment } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { CampaignEstimatePanel, describeCost } from './campaign-estimate-panel';
import { CampaignFailuresTable } from './campaign-failures-table';
import { CampaignFunnelPanels } from './campaign-funnel';
import { CampaignLoadError } from './campaign-load-error';
import { CampaignPreviewCard } from './campaign-preview-card';
import { CampaignScheduleDialog } from './campaign-schedule-dialog';
import { CampaignStatusBadge } from './campaign-status-badge';
import { isInSendWindow, readWindowTime } from '../../../shared/send-window';
import { LiveBadge } from '../../components/live-badge';
import type { StreamState } from '../../lib/event-stream';
import { CampaignTimelineChart } from './campaign-timeline-chart';
import {
  CAMPAIGNS_KEY,
  CAMPAIGNS_PATH,
  CHANNELS_LABELS,
  campaignEditPath,
  describeAudienceFilter,
  useAccountApps,
  useAudiences,
  useCampaign,
  useCampaignsLive,
} from './campaigns.api';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {children}
      </Text>
    </div>
  );
}

/** One line on where the campaign is in its life: created, starts, started, ended. */
function describeTimes(c: Campaign): string {
  const times = [`Created ${formatMoment(c.createdAt)}`];
  if (c.startAt && !c.startedAt) times.push(`starts ${formatMoment(c.startAt)}`);
  if (c.startedAt) times.push(`started ${formatMoment(c.startedAt)}`);
  if (c.finishedAt) times.push(`ended ${formatMoment(c.finishedAt)}`);
  return times.join(' · ');
}

/**
 * A campaign due to send while its send window is shut (scheduled in the evening for an 08:00-20:00 window, or
 * sending when the window closes): says it waits, and till when, rather than looking stuck.
 */
function SendWindowWait({ campaign }: { campaign: Campaign }) {
  const now = new Date();
  const due = campaign.status === 'running' || (campaign.status === 'scheduled' && !!campaign.startAt && new Date(campaign.startAt) <= now);
  if (!due || !campaign.sendWindow || isInSendWindow(campaign, now)) return null;
  const { from, to } = campaign.sendWindow;
  return (
    <Alert color="blue" title="Waiting for its send window" data-testid="campaign-window-wait">
      {`It sends between ${from} and ${to} (${campaign.timeZone}), and it is ${readWindowTime(now, campaign.timeZone)} there now: the rest goes from ${from}.`}
    </Alert>
  );
}

/** A campaign's page (/campaigns/:id): its status and the buttons it allows, what it sends, and its results. */
export function CampaignPage() {
  const { campaignId = '' } = useParams();
  const campaign = useCampaign(campaignId);
  const stream = useCampaignsLive();
  if (campaign.isPending) return <PageLoading />;
  if (campaign.error)
    return (
      <Stack gap="md">
        <BackLink to={CAMPAIGNS_PATH} label="Campaigns" />
        <CampaignLoadError error={campaign.error} onRetry={() => void campaign.refetch()} />
      </Stack>
    );
  return <CampaignView campaign={campaign.data} stream={stream} />;
}

/** Export CSV: a row per contact of the audience, with its channel, status and why, delivery, reply and dial. */
function CampaignExportButton({ campaign }: { campaign: Campaign }) {
  const [isExporting, setExporting] = useState(false);
  async function exportRows() {
    setExporting(true);
    const reply = await downloadCall(exportCampaign, { params: { campaignId: campaign.campaignId } }, `${toFileName(campaign.name)}.csv`);
    setExporting(false);
    if (!isOk(reply))
      showToast({ color: 'red', title: 'Export failed', message: failureText(reply, 'The campaign could not be exported.') });
  }
  return (
    <Button variant="default" size="xs" leftSection={<IconDownload size={14} />} loading={isExporting} onClick={() => void exportRows()}>
      Export CSV
    </Button>
  );
}

/** A campaign's name as a file's: letters, digits and dashes. */
const toFileName = (name: string) =>
  name
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase() || 'campaign';

function CampaignActions({ campaign }: { campaign: Campaign }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const confirm = useConfirmedCall(CAMPAIGNS_KEY);
  const [isScheduling, setScheduling] = useState(false);
  const [busy, setBusy] = useState<'pause' | 'resume' | null>(null);
  const { campaignId, status } = campaign;
  const params = { params: { campaignId } };

  async function change(action: 'pause' | 'resume') {
    setBusy(action);
    const reply = await call(action === 'pause' ? pauseCampaign : resumeCampaign, params);
    setBusy(null);
    if (isOk(reply))
      showToast({ color: 'teal', title: action === 'pause' ? 'Campaign paused' : 'Campaign resumed', message: reply.message });
    else showToast({ color: 'red', title: 'Not changed', message: failureText(reply, 'The campaign could not be changed.') });
    await queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
  }
  const cancel = () =>
    confirm({
      title: `Cancel ${campaign.name}`,
      question: 'Cancel this campaign? What was not yet sent is never sent, and it cannot be started again.',
      confirmLabel: 'Cancel campaign',
      done: { title: 'Campaign cancelled', message: 'Campaign cancelled' },
      refused: { title: 'Campaign not cancelled', message: 'The campaign could not be cancelled.' },
      call: () => call(cancelCampaign, params),
    });
  const remove = () =>
    confirm({
      title: `Delete ${campaign.name}`,
      question: 'Delete this campaign and its results?',
      done: { title: 'Campaign deleted', message: `${campaign.name} is deleted.` },
      refused: { title: 'Campaign not deleted', message: 'The campaign could not be deleted.' },
      call: () => call(deleteCampaign, params),
      onDone: () => void navigate(CAMPAIGNS_PATH),
    });

  const canPause = status === 'scheduled' || status === 'running';
  const canCancel = canPause || status === 'paused';
  const canDelete = status === 'draft' || status === 'done' || status === 'cancelled';
  return (
    <Group gap="sm">
      {status === 'draft' && (
        <>
          <Button component={Link} to={campaignEditPath(campaignId)} variant="default" leftSection={<IconPencil size={16} />}>
            Edit
          </Button>
          <Button leftSection={<IconCalendarEvent size={16} />} onClick={() => setScheduling(true)}>
            Schedule
          </Button>
        </>
      )}
      {canPause && (
        <Button
          variant="default"
          leftSection={<IconPlayerPause size={16} />}
          loading={busy === 'pause'}
          onClick={() => void change('pause')}
        >
          Pause
        </Button>
      )}
      {status === 'paused' && (
        <Button leftSection={<IconPlayerPlay size={16} />} loading={busy === 'resume'} onClick={() => void change('resume')}>
          Resume
        </Button>
      )}
      {canCancel && (
        <Button variant="light" color="red" leftSection={<IconX size={16} />} onClick={cancel}>
          Cancel campaign
        </Button>
      )}
      {canDelete && (
        <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={remove}>
          Delete
        </Button>
      )}
      <CampaignScheduleDialog campaign={campaign} opened={isScheduling} onClose={() => setScheduling(false)} />
    </Group>
  );
}

function CampaignView({ campaign, stream }: { campaign: Campaign; stream: StreamState }) {
  const audiences = useAudiences();
  const apps = useAccountApps();
  // A campaign not yet ended can still be previewed and tested.
  const isLive = campaign.status !== 'done' && campaign.status !== 'cancelled';
  const appNames = new Map((apps.data ?? []).map((a) => [a.appId, a.appName]));
  const audience = audiences.data?.find((a) => a.audienceId === campaign.audienceId);
  const ussdApp = apps.data?.find((a) => a.appId === campaign.ussdAppId);
  const bots = useQuery({ ...callQuery(findBots, {}, 'The bots could not be loaded.'), enabled: !!campaign.botId });
  const bot = bots.data?.find((b) => b.appId === campaign.botId);
  const usesWhatsApp = campaign.channels !== 'sms';
  const usesSms = campaign.channels !== 'whatsapp';

  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <BackLink to={CAMPAIGNS_PATH} label="Campaigns" />
        <Group justify="space-between" align="flex-end" gap="md">
          <div>
            <Group gap="sm" align="center">
              <Title order={1} fz={{ base: 26, sm: 32 }} style={{ overflowWrap: 'anywhere' }}>
                {campaign.name}
              </Title>
              <CampaignStatusBadge status={campaign.status} />
              {(campaign.status === 'scheduled' || campaign.status === 'running' || campaign.status === 'paused') && (
                <LiveBadge stream={stream} testId="campaign-live" />
              )}
            </Group>
            <Text c="dimmed" mt={6} size="sm" data-testid="campaign-times">
              {describeTimes(campaign)}
            </Text>
          </div>
          <CampaignActions campaign={campaign} />
        </Group>
      </Stack>
      <SendWindowWait campaign={campaign} />
      {campaign.status === 'paused' && campaign.pausedReason && (
        <Alert color="orange" title="Paused" data-testid="campaign-paused-reason">
          {campaign.pausedReason}
        </Alert>
      )}
      {campaign.estimate && (
        <Stack gap="sm">
          <Title order={2} fz="lg">
            Before it starts
          </Title>
          <CampaignEstimatePanel estimate={campaign.estimate} />
        </Stack>
      )}
      {isLive && <CampaignPreviewCard campaign={campaign} />}
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Title order={2} fz="lg">
            Results
          </Title>
          {campaign.results && <CampaignExportButton campaign={campaign} />}
        </Group>
        {campaign.results?.cost && (
          <Text size="sm" data-testid="campaign-cost">{`Cost so far: ${describeCost(campaign.results.cost)}`}</Text>
        )}
        <CampaignFunnelPanels campaign={campaign} />
        {campaign.results && <CampaignFailuresTable failures={campaign.results.failures} />}
        {campaign.results && <CampaignTimelineChart timeline={campaign.results.timeline} />}
      </Stack>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-label="What it sends">
        <Stack gap="md">
          <Title order={2} fz="lg">
            What it sends
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
            <Fact label="Audience">
              {`${audience?.name ?? 'A deleted audience'}: ${describeAudienceFilter(campaign.filter, appNames)}`}
              {campaign.audienceSize !== null ? ` (${campaign.audienceSize} contacts when it started)` : ''}
            </Fact>
            <Fact label="Channels">{CHANNELS_LABELS[campaign.channels]}</Fact>
            <Fact label="Time zone and hours">
              {`${campaign.timeZone}, ${campaign.sendWindow ? `${campaign.sendWindow.from} to ${campaign.sendWindow.to}` : 'any hour'}`}
            </Fact>
            {usesWhatsApp && (
              <Fact label="WhatsApp template">
                {campaign.template ? `${campaign.template.name} (${campaign.template.language}) from ${bot?.appName ?? 'the bot'}` : '—'}
              </Fact>
            )}
            {usesSms && <Fact label="SMS">{campaign.smsText ?? '—'}</Fact>}
            {usesSms && <Fact label="SMS sender">{campaign.smsSender || "The SMS provider's default"}</Fact>}
            {usesSms && <Fact label="USSD app">{ussdApp ? `${ussdApp.appName} (${ussdApp.shortCode})` : 'None'}</Fact>}
          </SimpleGrid>
        </Stack>
      </Paper>
    </Stack>
  );
}
