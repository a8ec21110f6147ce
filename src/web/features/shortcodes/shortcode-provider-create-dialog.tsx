import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type RegisterProviderBody, registerProviderBodySchema } from '../../../shared/api/shortcodes.schema';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { registerProvider } from '../../../shared/api/shortcodes.calls';
import { call } from '../../lib/call';
import { PROVIDERS_KEY } from './use-shortcodes';
import { DialogActions } from '../../components/dialog-actions';

interface ShortcodeProviderCreateDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** 'New Provider': Provider Name and Provider Id, checked by the schema the server checks them with. */
export function ShortcodeProviderCreateDialog({ opened, onClose }: ShortcodeProviderCreateDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="New Provider" centered size="md">
      <ProviderForm onClose={onClose} />
    </Modal>
  );
}

function ProviderForm({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm<RegisterProviderBody>({
    mode: 'controlled',
    initialValues: { providerName: '', providerId: '' },
    validate: (values) => {
      const result = registerProviderBodySchema.safeParse(values);
      if (result.success) return {};
      // The first message of each field ('Enter Provider Name', 'Enter Provider Id', the Id's format).
      const errors: Record<string, string> = {};
      for (const issue of result.error.issues) {
        const field = String(issue.path[0]);
        errors[field] ??= issue.message;
      }
      return errors;
    },
  });

  const handleSubmit = form.onSubmit(async (values) => {
    setSubmitting(true);
    const reply = await call(registerProvider, { body: registerProviderBodySchema.parse(values) });
    setSubmitting(false);
    if (!isOk(reply)) {
      setMessage(failureText(reply, 'The provider could not be registered.'));
      return;
    }
    showToast({ color: 'teal', title: 'Provider registered', message: reply.message || `${values.providerName} was registered.` });
    await queryClient.invalidateQueries({ queryKey: PROVIDERS_KEY });
    onClose();
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="New Provider">
      <Stack gap="md">
        <FormAlert message={message} onClose={() => setMessage(null)} />
        <Text size="sm">
          An aggregator or network that forwards a shared shortcode's sessions to Dialflow. It gets its own Provider Url.
        </Text>
        <TextInput
          label="Provider Name"
          placeholder="e.g. Hubtel Ghana"
          withAsterisk
          maxLength={120}
          data-autofocus
          {...form.getInputProps('providerName')}
        />
        <TextInput
          label="Provider Id"
          placeholder="e.g. hubtel-gh"
          description="Letters, digits, - and _: it ends the Provider Url."
          withAsterisk
          maxLength={40}
          {...form.getInputProps('providerId')}
        />
        <DialogActions submitLabel="Save Provider" onCancel={onClose} isSubmitting={isSubmitting} mt="xs" />
      </Stack>
    </form>
  );
}
