import { Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Campaign, CampaignFunnel } from '../../../shared/api/campaigns.schema';

type Step = keyof CampaignFunnel;

const STEP_LABELS: Partial<Record<Step, string>> = {
  queued: 'Waiting to send',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  replied: 'Replied',
  dialled: 'Dialled',
  completed: 'Flow completed',
  optedOut: 'Opted out',
  failed: 'Failed',
};
const STEP_COLORS: Partial<Record<Step, string>> = { optedOut: 'orange', failed: 'red' };

/**
 * The steps each funnel shows: SMS has no read receipt (its delivery comes from the provider's reports, its replies
 * are SMS back); WhatsApp has no dial. `queued` is what waits now (it falls as the rest rise), the others count what
 * happened.
 */
const STEPS: Record<'all' | 'whatsapp' | 'sms', Step[]> = {
  all: ['queued', 'sent', 'delivered', 'read', 'replied', 'dialled', 'completed', 'optedOut', 'failed'],
  whatsapp: ['queued', 'sent', 'delivered', 'read', 'replied', 'completed', 'optedOut', 'failed'],
  sms: ['queued', 'sent', 'delivered', 'replied', 'dialled', 'completed', 'optedOut', 'failed'],
};
const TITLES = { all: 'In all', whatsapp: 'WhatsApp', sms: 'SMS' } as const;

/** The counts below the bars: what never went, or went without an answer. */
function describeOthers(funnel: CampaignFunnel, channel: keyof typeof STEPS): string {
  const others = [
    `${funnel.skipped} skipped`,
    ...(funnel.unknown ? [`${funnel.unknown} unknown`] : []),
    ...(funnel.cancelled ? [`${funnel.cancelled} cancelled`] : []),
    ...(channel !== 'whatsapp' && funnel.fellBack ? [`${funnel.fellBack} by SMS after WhatsApp failed`] : []),
  ];
  return others.join(' · ');
}

/** The messages that go or went: what the bars are measured against (the skipped and cancelled never go). */
const countMessages = (f: CampaignFunnel) => f.queued + f.sent + f.failed + f.unknown;

function FunnelBars({ funnel, channel }: { funnel: CampaignFunnel; channel: keyof typeof STEPS }) {
  const messages = countMessages(funnel);
  const top = Math.max(messages, 1);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={`Results: ${TITLES[channel]}`} data-testid={`funnel-${channel}`}>
      <Stack gap={8}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Title order={3} fz="md">
            {TITLES[channel]}
          </Title>
          <Text size="sm" c="dimmed" data-testid={`funnel-${channel}-messages`}>
            {`${messages} ${messages === 1 ? 'message' : 'messages'}`}
          </Text>
        </Group>
        {STEPS[channel].map((step) => (
          <div key={step} data-step={step}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm">{STEP_LABELS[step]}</Text>
              <Text size="sm" fw={700} data-testid={`funnel-${channel}-${step}`}>
                {funnel[step]}
              </Text>
            </Group>
            <Progress value={(funnel[step] / top) * 100} color={STEP_COLORS[step] ?? 'teal'} size="sm" aria-hidden />
          </div>
        ))}
        <Text size="xs" c="dimmed" data-testid={`funnel-${channel}-others`}>
          {describeOthers(funnel, channel)}
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * A campaign's results as bars, in all and per channel used: waiting, sent, delivered, read, replied or dialled, flow
 * completed, opted out, failed; each bar against the messages that go, the counts beside them.
 */
export function CampaignFunnelPanels({ campaign }: { campaign: Campaign }) {
  const results = campaign.results;
  if (!results)
    return (
      <Paper withBorder radius="md" p="md" data-testid="funnel-none">
        <Text size="sm" c="dimmed">
          {campaign.status === 'draft' || campaign.status === 'scheduled'
            ? 'The results appear here once the campaign starts sending.'
            : 'Nothing was queued for this campaign.'}
        </Text>
      </Paper>
    );
  const channels = campaign.channels === 'whatsapp_then_sms' ? (['whatsapp', 'sms'] as const) : ([campaign.channels] as const);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: channels.length + 1 }} spacing="md">
      <FunnelBars funnel={results.all} channel="all" />
      {channels.map((channel) => (
        <FunnelBars key={channel} funnel={results[channel]} channel={channel} />
      ))}
    </SimpleGrid>
  );
}
