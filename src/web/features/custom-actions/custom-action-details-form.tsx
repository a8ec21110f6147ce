import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { CUSTOM_ACTION_MESSAGES } from '../../../shared/api/custom-actions.schema';
import { isOk } from '../../lib/api';
import { CUSTOM_ACTION_FALLBACKS, replyMessage, updateCustomActionName, type CustomAction } from './custom-actions.api';

interface CustomActionDetailsFormProps {
  action: Pick<CustomAction, 'uuid' | 'actionName' | 'description'>;
  onSaved: (details: { actionName: string; description: string }) => void;
}

/** The Details tab: name and description, saved apart from the code (spec section 4). */
export function CustomActionDetailsForm({ action, onSaved }: CustomActionDetailsFormProps) {
  const [actionName, setActionName] = useState(action.actionName);
  const [description, setDescription] = useState(action.description);
  const [nameError, setNameError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!actionName.trim()) {
      setNameError(CUSTOM_ACTION_MESSAGES.nameRequired);
      return;
    }
    setSaving(true);
    const details = { actionName: actionName.trim(), description: description.trim() };
    const reply = await updateCustomActionName({ uuid: action.uuid, ...details });
    setSaving(false);
    if (!isOk(reply)) {
      notifications.show({ color: 'red', title: 'Details not saved', message: replyMessage(reply, CUSTOM_ACTION_FALLBACKS.updateDetails) });
      return;
    }
    notifications.show({ color: 'teal', title: 'Saved', message: replyMessage(reply, 'Function details saved') });
    onSaved(details);
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Function details">
      <Stack gap="md" maw={640}>
        <TextInput
          label="Function Name"
          withAsterisk
          maxLength={120}
          value={actionName}
          error={nameError}
          onChange={(e) => {
            setActionName(e.currentTarget.value);
            setNameError(null);
          }}
          name="actionName"
          description="Menus call the function by this name."
        />
        <Textarea label="Description" autosize minRows={3} maxRows={8} maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} name="description" />
        <Group>
          <Button type="submit" loading={isSaving}>
            Save Details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
