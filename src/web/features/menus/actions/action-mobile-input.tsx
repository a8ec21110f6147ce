import { TextInput } from '@mantine/core';
import type { FormErrors } from '../menu-form-state';
import { errorText } from './action-code-form.types';

interface ActionMobileInputProps {
  value: string;
  onChange: (mobile: string) => void;
  /** The action's errors; the field shows the one under `mobile`. */
  errors: FormErrors;
}

/** The number an action reaches (the SMS's recipient, the payment's payer): a template, most often `{{ session.mobile }}`. */
export function ActionMobileInput({ value, onChange, errors }: ActionMobileInputProps) {
  return (
    <TextInput
      label="Mobile"
      placeholder="{{ session.mobile }}"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={errorText(errors, 'mobile')}
      withAsterisk
    />
  );
}
