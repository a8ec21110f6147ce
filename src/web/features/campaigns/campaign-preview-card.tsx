import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { previewCampaign, testCampaign } from '../../../shared/api/campaigns.calls';
import type { Campaign, CampaignTest } from '../../../shared/api/campaigns.schema';
import { failureText, isOk } from '../../lib/api';
import { call, callQuery } from '../../lib/call';
import { CONSENT_CHANNEL_LABELS } from './campaigns.api';

/** A number long enough to ask about (8 digits, as the server's number rule). */
const isWorthAsking = (msisdn: string) => msisdn.replace(/\D/g, '').length >= 8;

/** "Sent to +233244000111: WhatsApp sent; SMS not sent: no SMS provider". */
export function describeTest(test: CampaignTest): string {
  const each = test.sent.map((s) => `${CONSENT_CHANNEL_LABELS[s.channel]} ${s.ok ? 'sent' : `not sent${s.error ? `: ${s.error}` : ''}`}`);
  return `Test to ${test.to}: ${each.join('; ')}`;
}

/**
 * Preview and test: what one contact would get (the channel chosen for them and the message as it would read, or why
 * nothing would go), and a test send of the campaign's messages to the builder's own number.
 */
export function CampaignPreviewCard({ campaign }: { campaign: Campaign }) {
  const [msisdn, setMsisdn] = useState('');
  const [asked] = useDebouncedValue(msisdn.trim(), 400);
  const [isTesting, setTesting] = useState(false);
  const [test, setTest] = useState<{ ok: boolean; text: string } | null>(null);
  const preview = useQuery({
    ...callQuery(
      previewCampaign,
      { params: { campaignId: campaign.campaignId }, query: { msisdn: asked } },
      'The preview could not be made.',
    ),
    enabled: isWorthAsking(asked),
    retry: false,
  });

  async function sendTest() {
    setTesting(true);
    const reply = await call(testCampaign, { params: { campaignId: campaign.campaignId } });
    setTesting(false);
    if (isOk(reply) && reply.data) setTest({ ok: reply.data.sent.every((s) => s.ok), text: describeTest(reply.data) });
    else setTest({ ok: false, text: failureText(reply, 'The test could not be sent.') });
  }

  const shown = isWorthAsking(asked) ? preview.data : undefined;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-label="Preview and test">
      <Stack gap="sm">
        <div>
          <Title order={2} fz="lg">
            Preview and test
          </Title>
          <Text size="sm" c="dimmed">
            See what one of your contacts would get, or send the campaign's messages to your own number first.
          </Text>
        </div>
        <TextInput
          label="A contact's number"
          placeholder="+233241234567"
          inputMode="tel"
          autoComplete="off"
          value={msisdn}
          onChange={(e) => setMsisdn(e.currentTarget.value)}
          rightSection={preview.isFetching ? <Loader size="xs" /> : null}
          maw={360}
        />
        {isWorthAsking(asked) && preview.error && (
          <Alert color="red" variant="light" role="alert" data-testid="campaign-preview-error">
            {preview.error.message}
          </Alert>
        )}
        {shown && (
          <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-default-hover)" data-testid="campaign-preview">
            <Group gap="xs" mb={4}>
              <Text size="sm" fw={600}>
                {shown.name ? `${shown.name} (${shown.msisdn})` : shown.msisdn}
              </Text>
              {shown.channel ? (
                <Badge
                  variant="light"
                  color={shown.channel === 'whatsapp' ? 'teal' : 'blue'}
                >{`By ${CONSENT_CHANNEL_LABELS[shown.channel]}`}</Badge>
              ) : (
                <Badge variant="light" color="gray">
                  Nothing sent
                </Badge>
              )}
            </Group>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="campaign-preview-text">
              {shown.text ?? shown.reason ?? ''}
            </Text>
          </Paper>
        )}
        <Group gap="sm" align="center">
          <Button variant="default" leftSection={<IconSend size={16} />} loading={isTesting} onClick={() => void sendTest()}>
            Send a test to my number
          </Button>
          {test && (
            <Text
              size="sm"
              c={test.ok ? 'teal.8' : 'red.8'}
              role="status"
              data-testid="campaign-test-result"
              style={{ overflowWrap: 'anywhere' }}
            >
              {test.text}
            </Text>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
