import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { PASSWORD_MIN } from '../../../shared/api/auth.schema';

/** A password being chosen (registration, Change Password), with the rule it must meet. */
export function NewPasswordInput(props: PasswordInputProps) {
  return <PasswordInput description={`At least ${PASSWORD_MIN} characters`} autoComplete="new-password" withAsterisk {...props} />;
}
