import { Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BOT_MESSAGES, createBotBodySchema } from '../../../shared/api/bots.schema';
import { DialogActions } from '../../components/dialog-actions';
import { failureText, isOk } from '../../lib/api';
import { createBot } from '../../../shared/api/bots.calls';
import { call } from '../../lib/call';
import { BOTS_KEY } from './use-bots';

interface BotCreateDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** 'New Bot': Bot Name and Description (a WhatsApp bot). '00' toasts, refreshes the list and closes; else an error toast. */
export function BotCreateDialog({ opened, onClose }: BotCreateDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="New Bot" centered size="md">
      <BotCreateForm onClose={onClose} />
    </Modal>
  );
}

function BotCreateForm({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { appName: '', description: '' },
    validate: {
      appName: (value) => (value.trim() ? null : BOT_MESSAGES.incomplete),
      description: (value) => (value.trim() ? null : BOT_MESSAGES.incomplete),
    },
  });

  const handleSubmit = form.onSubmit(async (values) => {
    setSubmitting(true);
    const reply = await call(createBot, { body: createBotBodySchema.parse({ ...values, botType: 'whatsapp' }) });
    setSubmitting(false);
    if (!isOk(reply)) {
      showToast({ color: 'red', title: 'Bot not created', message: failureText(reply, 'The bot could not be created.') });
      return;
    }
    showToast({ color: 'teal', title: 'Bot created', message: reply.message || BOT_MESSAGES.created });
    await queryClient.invalidateQueries({ queryKey: BOTS_KEY });
    onClose();
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="New Bot">
      <Stack gap="md">
        <Text size="sm">
          A WhatsApp bot runs menus like a USSD app: design them, try them in the chat simulator, then link a WhatsApp number to it.
        </Text>
        <TextInput
          label="Bot Name"
          placeholder="e.g. Mensah Support"
          withAsterisk
          maxLength={120}
          data-autofocus
          {...form.getInputProps('appName')}
        />
        <Textarea
          label="Description"
          placeholder="What customers can do with it"
          withAsterisk
          autosize
          minRows={2}
          maxLength={1000}
          {...form.getInputProps('description')}
        />
        <DialogActions submitLabel="Create Bot" onCancel={onClose} isSubmitting={isSubmitting} mt="xs" />
      </Stack>
    </form>
  );
}
