import { useState, type ChangeEvent } from 'react';
import { CUSTOM_ACTION_MESSAGES } from '../../../shared/api/custom-actions.schema';

export interface CustomActionDetails {
  actionName: string;
  description: string;
}

/**
 * A function's name (required) and description as the create dialog and the Details tab edit them: the fields'
 * props, and `read` for the trimmed details (null, with the name's error shown, while the name is empty).
 */
export function useCustomActionDetails(initial: CustomActionDetails) {
  const [actionName, setActionName] = useState(initial.actionName);
  const [description, setDescription] = useState(initial.description);
  const [nameError, setNameError] = useState<string | null>(null);
  return {
    nameProps: {
      name: 'actionName',
      withAsterisk: true,
      maxLength: 120,
      value: actionName,
      error: nameError,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        setActionName(event.currentTarget.value);
        setNameError(null);
      },
    },
    descriptionProps: {
      name: 'description',
      autosize: true,
      maxLength: 1000,
      value: description,
      onChange: (event: ChangeEvent<HTMLTextAreaElement>) => setDescription(event.currentTarget.value),
    },
    read: (): CustomActionDetails | null => {
      if (!actionName.trim()) {
        setNameError(CUSTOM_ACTION_MESSAGES.nameRequired);
        return null;
      }
      return { actionName: actionName.trim(), description: description.trim() };
    },
  };
}
