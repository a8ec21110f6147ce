import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CUSTOM_ACTION_MESSAGES } from '../../../shared/api/custom-actions.schema';
import { isOk } from '../../lib/api';
import { createCustomAction, CUSTOM_ACTION_FALLBACKS, CUSTOM_ACTIONS_QUERY_KEY, customActionPath, replyMessage } from './custom-actions.api';

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
  const [actionName, setActionName] = useState('');
  const [description, setDescription] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!actionName.trim()) {
      setNameError(CUSTOM_ACTION_MESSAGES.nameRequired);
      return;
    }
    setSubmitting(true);
    // Empty code: the editor fills in the default code a second after it opens (spec section 9).
    const reply = await createCustomAction({ actionName: actionName.trim(), description: description.trim(), code: '' });
    const uuid = typeof reply.uuid === 'string' ? reply.uuid : '';
    if (!isOk(reply) || !uuid) {
      setSubmitting(false);
      notifications.show({ color: 'red', title: 'Not created', message: replyMessage(reply, CUSTOM_ACTION_FALLBACKS.create) });
      return;
    }
    notifications.show({ color: 'teal', title: 'Created', message: replyMessage(reply, 'Custom action created') });
    await queryClient.invalidateQueries({ queryKey: CUSTOM_ACTIONS_QUERY_KEY });
    onClose();
    navigate(customActionPath(uuid));
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Create New Action">
      <Stack gap="md">
        <TextInput
          label="Action Name"
          withAsterisk
          placeholder="e.g. computeFee"
          maxLength={120}
          value={actionName}
          error={nameError}
          onChange={(e) => {
            setActionName(e.currentTarget.value);
            setNameError(null);
          }}
          name="actionName"
          data-autofocus
        />
        <Textarea
          label="Description"
          placeholder="What the function does (optional)"
          autosize
          minRows={2}
          maxRows={5}
          maxLength={1000}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          name="description"
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Create Action
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
