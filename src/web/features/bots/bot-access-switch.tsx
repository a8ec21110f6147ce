import { Group, Paper, Switch, Text } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { failureText, isOk } from '../../lib/api';
import { getAccountSubscription } from '../../../shared/api/billing.calls';
import { call, queryKey } from '../../lib/call';
import { setChatbotAccess } from '../../../shared/api/bots.calls';

interface BotAccessSwitchProps {
  email: string;
  /** The account may build bots now (it holds the CHATBOT role). */
  isEnabled: boolean;
  /** The admin's roles change chatbot access (`chatbotAccess.manage`); else the state is shown without the switch. */
  canChange: boolean;
}

/**
 * The admins' 'WhatsApp bots' switch on an account (POST /api/admin/chatbot-access): lets it build bots, or stops
 * it. The account's figures are read again afterwards, so the switch shows what the server holds.
 */
export function BotAccessSwitch({ email, isEnabled, canChange }: BotAccessSwitchProps) {
  const queryClient = useQueryClient();
  const [isSaving, setSaving] = useState(false);

  async function change(enabled: boolean) {
    setSaving(true);
    const reply = await call(setChatbotAccess, { body: { email, enabled } });
    await queryClient.invalidateQueries({ queryKey: queryKey(getAccountSubscription, { query: { email } }) });
    setSaving(false);
    if (isOk(reply)) showToast({ color: 'teal', title: 'WhatsApp bots', message: reply.message || 'Saved' });
    else showToast({ color: 'red', title: 'Not changed', message: failureText(reply, 'The access could not be changed.') });
  }

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="bot-access-heading">
      <Group justify="space-between" gap="md" wrap="nowrap" align="flex-start">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconBrandWhatsapp size={22} color="var(--mantine-color-teal-8)" aria-hidden="true" style={{ flexShrink: 0 }} />
          <div>
            <Text fw={600} id="bot-access-heading">
              WhatsApp bots
            </Text>
            <Text size="sm" c="gray.7">
              {isEnabled ? 'This account can build WhatsApp bots.' : 'This account cannot build WhatsApp bots.'}
            </Text>
          </div>
        </Group>
        {canChange && (
          <Switch
            aria-labelledby="bot-access-heading"
            checked={isEnabled}
            disabled={isSaving}
            onChange={(event) => void change(event.currentTarget.checked)}
            size="md"
            data-testid="bot-access-switch"
          />
        )}
      </Group>
    </Paper>
  );
}
