import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { isOk, replyMessage } from '../../lib/api';
import { call } from '../../lib/call';
import { createCustomAction } from '../../../shared/api/custom-actions.calls';
import { CUSTOM_ACTION_FALLBACKS, customActionPath } from './custom-actions.api';
import { CUSTOM_ACTIONS_KEY } from './use-custom-actions';
import { useCustomActionDetails } from './use-custom-action-details';
import { DialogActions } from '../../components/dialog-actions';

interface CustomActionCreateDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** 'Create New Action': name (required) and description; the new action opens in the editor. */
export function CustomActionCreateDialog({ opened, onClose }: CustomActionCreateDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Create New Action" centered size="md">
      <CreateForm onClose={onClose} />
    </Modal>
  );
}

function CreateForm({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fields = useCustomActionDetails({ actionName: '', description: '' });
  const [isSubmitting, setSubmitting] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    const details = fields.read();
    if (!details) return;
    setSubmitting(true);
    // Empty code: the editor fills in the default code a second after it opens.
    const reply = await call(createCustomAction, { body: { ...details, code: '' } });
    const uuid = typeof reply.uuid === 'string' ? reply.uuid : '';
    if (!isOk(reply) || !uuid) {
      setSubmitting(false);
      showToast({ color: 'red', title: 'Not created', message: replyMessage(reply, CUSTOM_ACTION_FALLBACKS.create) });
      return;
    }
    showToast({ color: 'teal', title: 'Created', message: replyMessage(reply, 'Custom action created') });
    await queryClient.invalidateQueries({ queryKey: CUSTOM_ACTIONS_KEY });
    onClose();
    void navigate(customActionPath(uuid));
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Create New Action">
      <Stack gap="md">
        <TextInput label="Action Name" placeholder="e.g. computeFee" {...fields.nameProps} data-autofocus />
        <Textarea
          label="Description"
          placeholder="What the function does (optional)"
          minRows={2}
          maxRows={5}
          {...fields.descriptionProps}
        />
        <DialogActions submitLabel="Create Action" onCancel={onClose} isSubmitting={isSubmitting} mt="xs" />
      </Stack>
    </form>
  );
}
