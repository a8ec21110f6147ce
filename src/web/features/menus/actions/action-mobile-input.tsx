import type { FormErrors } from '../menu-form-state';
import { errorText } from './action-code-form.types';
import { TemplateTextInput } from '../template-text-input';

interface ActionMobileInputProps {
  value: string;
  onChange: (mobile: string) => void;
  /** The action's errors; the field shows the one under `mobile`. */
  errors: FormErrors;
}

/** The number an action reaches (the SMS's recipient, the payment's payer): a template, most often `{{ session.mobile }}`. */
export function ActionMobileInput({ value, onChange, errors }: ActionMobileInputProps) {
  return (
    <TemplateTextInput
      label="Mobile"
      placeholder="{{ session.mobile }}"
      value={value}
      onChange={onChange}
      error={errorText(errors, 'mobile')}
      withAsterisk
    />
  );
}
