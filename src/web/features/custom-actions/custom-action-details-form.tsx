import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { useState } from 'react';
import { isOk, replyMessage } from '../../lib/api';
import { updateCustomActionName } from '../../../shared/api/custom-actions.calls';
import { call } from '../../lib/call';
import { CUSTOM_ACTION_FALLBACKS, type CustomAction } from './custom-actions.api';
import { type CustomActionDetails, useCustomActionDetails } from './use-custom-action-details';

interface CustomActionDetailsFormProps {
  action: Pick<CustomAction, 'uuid' | 'actionName' | 'description'>;
  onSaved: (details: CustomActionDetails) => void;
}

/** The Details tab: name and description, saved apart from the code. */
export function CustomActionDetailsForm({ action, onSaved }: CustomActionDetailsFormProps) {
  const fields = useCustomActionDetails(action);
  const [isSaving, setSaving] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    const details = fields.read();
    if (!details) return;
    setSaving(true);
    const reply = await call(updateCustomActionName, { body: { uuid: action.uuid, ...details } });
    setSaving(false);
    if (!isOk(reply)) {
      showToast({ color: 'red', title: 'Details not saved', message: replyMessage(reply, CUSTOM_ACTION_FALLBACKS.updateDetails) });
      return;
    }
    showToast({ color: 'teal', title: 'Saved', message: replyMessage(reply, 'Function details saved') });
    onSaved(details);
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Function details">
      <Stack gap="md" maw={640}>
        <TextInput label="Function Name" description="Menus call the function by this name." {...fields.nameProps} />
        <Textarea label="Description" minRows={3} maxRows={8} {...fields.descriptionProps} />
        <Group>
          <Button type="submit" loading={isSaving}>
            Save Details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
