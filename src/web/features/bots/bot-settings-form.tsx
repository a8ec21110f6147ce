import { Card, Group, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Bot, BOT_MESSAGES, type BotStatus } from '../../../shared/api/bots.schema';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { FormSubmitRow } from '../../components/dialog-actions';
import { failureText, isOk } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { ListSkeleton } from '../../components/list-states';
import { updateBot } from '../../../shared/api/bots.calls';
import { call } from '../../lib/call';
import { BotConsentWordsForm } from './bot-consent-words-form';
import { BotHandoffWordsForm } from './bot-handoff-words-form';
import { OfficeHoursCard } from '../../components/office-hours-card';
import type { OfficeHours } from '../../../shared/office-hours';
import { BOTS_KEY, useBot } from './use-bots';

/**
 * The Bot Settings tab: Bot Name, Description, Status (Active or Inactive) and Update Settings; below, the bot's own
 * consent words, its handoff words and its office hours.
 */
export function BotSettingsPanel({ appId }: { appId: string }) {
  const { data: bot, error, isPending, refetch } = useBot(appId);
  if (isPending) return <ListSkeleton label="Loading the bot settings" rows={3} />;
  if (!bot)
    return (
      <LoadErrorAlert
        testId="bot-settings-error"
        title={BOT_MESSAGES.fetchSettingsFailed}
        message={
          error?.message === BOT_MESSAGES.fetchSettingsFailed
            ? 'The settings could not be read. Try again in a moment.'
            : (error?.message ?? '')
        }
        onRetry={() => void refetch()}
      />
    );
  return (
    <Stack gap="lg">
      <BotSettingsForm key={bot.updatedAt} bot={bot} />
      <BotConsentWordsForm key={`consent-${bot.updatedAt}`} bot={bot} />
      <BotHandoffWordsForm key={`handoff-${bot.updatedAt}`} bot={bot} />
      <BotOfficeHoursCard key={`hours-${bot.updatedAt}`} bot={bot} />
    </Stack>
  );
}

function BotSettingsForm({ bot }: { bot: Bot }) {
  const queryClient = useQueryClient();
  const [isSaving, setSaving] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { appName: bot.appName, description: bot.description, status: bot.status },
    validate: {
      appName: (value) => (value.trim() ? null : BOT_MESSAGES.incomplete),
      description: (value) => (value.trim() ? null : BOT_MESSAGES.incomplete),
    },
  });

  const handleSubmit = form.onSubmit(async (values) => {
    setSaving(true);
    // The bot data object with its edits (the call's contract).
    const reply = await call(updateBot, {
      body: {
        ...bot,
        appName: values.appName.trim(),
        description: values.description.trim(),
        status: values.status,
      },
    });
    setSaving(false);
    if (!isOk(reply)) {
      showToast({
        color: 'red',
        title: 'Settings not updated',
        message: failureText(reply, 'The bot settings could not be updated.'),
      });
      return;
    }
    showToast({ color: 'teal', title: 'Settings updated', message: reply.message || BOT_MESSAGES.updated });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: BOTS_KEY }),
      queryClient.invalidateQueries({ queryKey: queryKeys.app(bot.appId), exact: true }),
    ]);
  });

  return (
    <Card withBorder radius="lg" padding="lg" maw={640}>
      <form onSubmit={handleSubmit} noValidate aria-label="Bot Settings">
        <Stack gap="md">
          <TextInput label="Bot Name" withAsterisk maxLength={120} {...form.getInputProps('appName')} />
          <Textarea label="Description" withAsterisk autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
          <Radio.Group
            label="Status"
            description="An inactive bot answers every message with a note that the service is not available."
            value={form.values.status}
            onChange={(value) => form.setFieldValue('status', value as BotStatus)}
          >
            <Group gap="lg" mt={6}>
              <Radio value="active" label="Active" />
              <Radio value="inactive" label="Inactive" />
            </Group>
          </Radio.Group>
          <FormSubmitRow label="Update Settings" isSubmitting={isSaving} />
        </Stack>
      </form>
    </Card>
  );
}

/** The bot's office hours (docs/inbox.md, "Office hours"), saved on their own on the bot object. */
function BotOfficeHoursCard({ bot }: { bot: Bot }) {
  const queryClient = useQueryClient();
  const save = async (officeHours: OfficeHours | null) => {
    const reply = await call(updateBot, { body: { ...bot, officeHours } });
    if (!isOk(reply)) {
      showToast({ color: 'red', title: 'Office hours not saved', message: failureText(reply, 'The office hours could not be saved.') });
      return false;
    }
    showToast({ color: 'teal', title: 'Office hours saved', message: 'Handoffs are answered with these hours from now on.' });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: BOTS_KEY }),
      queryClient.invalidateQueries({ queryKey: queryKeys.app(bot.appId), exact: true }),
    ]);
    return true;
  };
  // A bot's own time zone starts as the builder's.
  return (
    <OfficeHoursCard
      value={bot.officeHours}
      defaultTimeZone={Intl.DateTimeFormat().resolvedOptions().timeZone}
      channel="whatsapp"
      onSave={save}
    />
  );
}
