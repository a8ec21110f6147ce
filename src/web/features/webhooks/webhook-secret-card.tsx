import { ActionIcon, Button, Card, Code, Group, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { showToast } from '../../lib/toast';
import { IconCopy, IconEye, IconEyeOff, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { WEBHOOK_SIGNATURE_HEADER, type Webhook } from '../../../shared/api/webhooks.schema';
import { failureText, isOk } from '../../lib/api';
import { getWebhook, rotateWebhookSecret } from '../../../shared/api/webhooks.calls';
import { call, queryKey } from '../../lib/call';
import { copyToClipboard } from '../../components/copy-field';

const MASK = '•'.repeat(36);

/** The signing secret: hidden until revealed, copied whole, rotated after a question. */
export function WebhookSecretCard({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  const [isRevealed, setRevealed] = useState(false);

  const rotate = () =>
    modals.openConfirmModal({
      title: 'Rotate the signing secret',
      centered: true,
      children:
        'A new secret is used from the next delivery on, retries included. Update your endpoint with it at once: deliveries signed with the new secret fail its check until then.',
      labels: { confirm: 'Rotate secret', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        const reply = await call(rotateWebhookSecret, { params: { appId: webhook.appId } });
        if (isOk(reply)) {
          showToast({ color: 'teal', title: 'Secret rotated', message: 'Copy the new secret to your endpoint.' });
          setRevealed(true);
        } else
          showToast({
            color: 'red',
            title: 'Secret not rotated',
            message: failureText(reply, 'The secret could not be rotated.'),
          });
        await queryClient.invalidateQueries({ queryKey: queryKey(getWebhook, { params: { appId: webhook.appId } }) });
      },
    });

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="webhook-secret-heading">
      <Title order={2} fz="lg" id="webhook-secret-heading">
        Signing secret
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        Every delivery carries a <Code>{WEBHOOK_SIGNATURE_HEADER}</Code> header: <Code>t=</Code> the time in seconds and <Code>v1=</Code>{' '}
        the hex HMAC-SHA256 of <Code>{'<t>.<raw body>'}</Code> with this secret. Compare it before trusting an event.
      </Text>
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Secret"
          value={isRevealed ? webhook.secret : MASK}
          readOnly
          flex={1}
          miw={240}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          rightSectionWidth={72}
          rightSection={
            <Group gap={2} wrap="nowrap">
              <Tooltip label={isRevealed ? 'Hide the secret' : 'Reveal the secret'} withArrow>
                <ActionIcon
                  variant="subtle"
                  onClick={() => setRevealed((v) => !v)}
                  aria-label={isRevealed ? 'Hide the secret' : 'Reveal the secret'}
                >
                  {isRevealed ? <IconEyeOff size={16} /> : <IconEye size={16} />}
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Copy the secret" withArrow>
                <ActionIcon variant="subtle" onClick={() => void copyToClipboard(webhook.secret)} aria-label="Copy the secret">
                  <IconCopy size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          }
        />
        <Button variant="default" color="red" leftSection={<IconRefresh size={16} />} onClick={rotate}>
          Rotate secret
        </Button>
      </Group>
    </Card>
  );
}
