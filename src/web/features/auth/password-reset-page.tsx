import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PASSWORD_MIN, resetPasswordBodySchema } from '../../../shared/api/auth.schema';
import { FormAlert } from '../../components/form-alert';
import { resetPassword } from '../../../shared/api/auth.calls';
import { call } from '../../lib/call';
import { AuthForm, AuthSwitchLink } from './auth-form';
import { AuthLayout } from './auth-layout';

export const PASSWORD_MISMATCH = 'New password and confirmation do not match.';

/** /reset-password/:token, the link from the reset mail. Tokens are single-use and expire in 30 minutes. */
export function PasswordResetPage() {
  const { token = '' } = useParams();
  const [message, setMessage] = useState<string | null>(null);
  const [doneMessage, setDoneMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirmPassword: '' },
    validate: {
      password: (value) => resetPasswordBodySchema.shape.password.safeParse(value).error?.issues[0]?.message ?? null,
      confirmPassword: (value, values) => (value === values.password ? null : PASSWORD_MISMATCH),
    },
  });

  const handleSubmit = form.onSubmit(async ({ password }) => {
    setMessage(null);
    setSubmitting(true);
    const reply = await call(resetPassword, { body: { token, password } });
    setSubmitting(false);
    if (reply.status === '00') {
      setDoneMessage(reply.message ?? 'Your password has been reset. You can now log in.');
      form.reset();
    } else {
      setMessage(reply.message || 'Could not reset the password. Please try again.');
    }
  });

  if (doneMessage) {
    return (
      <AuthLayout title="Password updated" subtitle="Use your new password the next time you log in.">
        <Stack gap="md">
          <FormAlert kind="success" message={doneMessage} onClose={() => setDoneMessage(null)} />
          <Button component={Link} to="/login" size="md" fullWidth>
            Go to login
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Choose a new password"
      subtitle={`Pick a password of at least ${PASSWORD_MIN} characters. You will be signed out of other devices.`}
      footer={<AuthSwitchLink question="Link expired?" to="/forgot-password" label="Ask for a new one" />}
    >
      <AuthForm
        label="Reset password"
        onSubmit={handleSubmit}
        message={message}
        onDismissMessage={() => setMessage(null)}
        submitLabel="Reset password"
        isSubmitting={isSubmitting}
      >
        <PasswordInput label="New password" autoComplete="new-password" size="md" {...form.getInputProps('password')} name="password" />
        <PasswordInput
          label="Confirm password"
          autoComplete="new-password"
          size="md"
          {...form.getInputProps('confirmPassword')}
          name="confirmPassword"
        />
      </AuthForm>
    </AuthLayout>
  );
}
