import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showToast } from '../../lib/toast';
import { useState } from 'react';
import { changePasswordBodySchema } from '../../../shared/api/auth.schema';
import { NewPasswordInput } from './new-password-input';
import { getStoredUser, saveSession } from '../../lib/session';
import { changePassword } from '../../../shared/api/auth.calls';
import { call } from '../../lib/call';
import { PASSWORD_MISMATCH } from './password-reset-page';
import { isNetworkFailure } from '../../lib/api';

/** The password change's texts (docs/product.md, Account Settings). */
export const PASSWORD_CHANGE_MESSAGES = {
  success: 'Password changed successfully.',
  failure: 'Failed to change password.',
  networkError: 'An error occurred. Please try again!! ',
} as const;

interface PasswordChangeValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Checks with the shared request schema (its messages are the product's), plus the confirmation. */
function validatePasswordChange(values: PasswordChangeValues) {
  const errors: Partial<Record<keyof PasswordChangeValues, string>> = {};
  const parsed = changePasswordBodySchema.safeParse({ password: values.oldPassword, newPassword: values.newPassword });
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0] === 'password' ? 'oldPassword' : 'newPassword';
    errors[field] ??= issue.message;
  }
  if (values.confirmPassword !== values.newPassword) errors.confirmPassword = PASSWORD_MISMATCH;
  return errors;
}

function showError(message: string) {
  showToast({ color: 'red', title: 'Password not changed', message });
}

export function PasswordChangeForm() {
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm<PasswordChangeValues>({
    mode: 'controlled',
    initialValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    validate: validatePasswordChange,
  });

  const handleSubmit = form.onSubmit(async ({ oldPassword, newPassword }) => {
    setSubmitting(true);
    try {
      const reply = await call(changePassword, { body: { password: oldPassword, newPassword } });
      if (reply.status === '00') {
        // Every older token was revoked; this session continues with the one the reply carries.
        const user = getStoredUser();
        if (reply.token && user) saveSession({ token: reply.token, data: user });
        showToast({ color: 'teal', title: 'Done', message: PASSWORD_CHANGE_MESSAGES.success });
        form.reset();
      } else if (isNetworkFailure(reply)) {
        showError(`${PASSWORD_CHANGE_MESSAGES.networkError}Could not reach the server.`);
      } else {
        showError(reply.message || PASSWORD_CHANGE_MESSAGES.failure);
      }
    } catch (error) {
      showError(PASSWORD_CHANGE_MESSAGES.networkError + (error instanceof Error ? error.message : String(error)));
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Change password">
      <Stack gap="md" maw={440}>
        <Text size="sm" c="dimmed">
          Changing your password signs you out everywhere else. This browser stays signed in.
        </Text>
        <PasswordInput
          label="Old Password"
          autoComplete="current-password"
          withAsterisk
          {...form.getInputProps('oldPassword')}
          name="oldPassword"
        />
        <NewPasswordInput label="New Password" {...form.getInputProps('newPassword')} name="newPassword" />
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          withAsterisk
          {...form.getInputProps('confirmPassword')}
          name="confirmPassword"
        />
        <div>
          <Button type="submit" loading={isSubmitting}>
            Change Password
          </Button>
        </div>
      </Stack>
    </form>
  );
}
