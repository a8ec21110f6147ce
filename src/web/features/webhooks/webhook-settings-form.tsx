import { Card, Checkbox, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MESSAGES,
  type Webhook,
  type WebhookEventType,
} from '../../../shared/api/webhooks.schema';
import { FormAlert } from '../../components/form-alert';
import { FormSubmitRow } from '../../components/dialog-actions';
import { failureText, isOk } from '../../lib/api';
import { getWebhook, saveWebhook } from '../../../shared/api/webhooks.calls';
import { call, queryKey } from '../../lib/call';

/** The checks the server makes too, before the round trip; the address rules are the server's alone. */
export function checkWebhookForm(url: string, events: string[]): string | null {
  const trimmed = url.trim();
  if (!/^https?:\/\/[^\s/]+/i.test(trimmed)) return WEBHOOK_MESSAGES.badUrl;
  if (events.length === 0) return WEBHOOK_MESSAGES.noEvents;
  return null;
}

/** The endpoint: its URL (checked against the address rules by the server), the events it takes, on or off. */
export function WebhookSettingsForm({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  const isNew = !webhook.url;
  const [url, setUrl] = useState(webhook.url);
  const [events, setEvents] = useState<string[]>(isNew ? [...WEBHOOK_EVENT_TYPES] : webhook.events);
  const [isEnabled, setEnabled] = useState(isNew ? true : webhook.isEnabled);
  const [message, setMessage] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    const problem = checkWebhookForm(url, events);
    setMessage(problem);
    if (problem) return;
    setSaving(true);
    const reply = await call(saveWebhook, {
      params: { appId: webhook.appId },
      body: { url: url.trim(), events: events as WebhookEventType[], isEnabled },
    });
    setSaving(false);
    if (!isOk(reply)) {
      setMessage(failureText(reply, 'The webhook could not be saved.'));
      return;
    }
    showToast({
      color: 'teal',
      title: 'Webhook saved',
      message: isEnabled ? 'Events will be sent to your URL.' : 'The webhook is off.',
    });
    await queryClient.invalidateQueries({ queryKey: queryKey(getWebhook, { params: { appId: webhook.appId } }) });
  }

  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      component="form"
      onSubmit={handleSubmit}
      noValidate
      aria-labelledby="webhook-endpoint-heading"
    >
      <Title order={2} fz="lg" id="webhook-endpoint-heading">
        Endpoint
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        Dialflow POSTs each event to this URL as JSON, signed with the secret below. It must be reachable on the public internet.
      </Text>
      <Stack gap="md">
        <FormAlert message={message} onClose={() => setMessage(null)} title="Check the webhook" />
        <TextInput
          label="Webhook URL"
          withAsterisk
          placeholder="https://example.com/dialflow/events"
          maxLength={2000}
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          name="webhookUrl"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
        />
        <Checkbox.Group label="Events to send" withAsterisk value={events} onChange={setEvents}>
          <Stack gap={8} mt={8}>
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <Checkbox
                key={type}
                value={type}
                label={
                  <Text size="sm" component="span">
                    <Text span ff="monospace" size="sm" fw={600}>
                      {type}
                    </Text>{' '}
                    <Text span c="dimmed" size="sm">
                      {WEBHOOK_EVENT_LABELS[type]}
                    </Text>
                  </Text>
                }
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Switch
          label="Send events"
          description="When off, nothing is queued or sent; saved settings and past deliveries stay."
          checked={isEnabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        <FormSubmitRow label={isNew ? 'Save webhook' : 'Save changes'} isSubmitting={isSaving} />
      </Stack>
    </Card>
  );
}
