import { Anchor } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { forgotPasswordBodySchema } from '../../../shared/api/auth.schema';
import { FormAlert } from '../../components/form-alert';
import { requestPasswordReset } from '../../../shared/api/auth.calls';
import { call } from '../../lib/call';
import { AuthEmailInput, AuthForm } from './auth-form';
import { AuthLayout } from './auth-layout';

/** The server answers the same for a known and an unknown email, so this screen cannot reveal accounts. */
export function PasswordForgotPage() {
  const [message, setMessage] = useState<string | null>(null);
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: schemaResolver(forgotPasswordBodySchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(async (values) => {
    setMessage(null);
    setSentMessage(null);
    setSubmitting(true);
    const reply = await call(requestPasswordReset, { body: forgotPasswordBodySchema.parse(values) });
    setSubmitting(false);
    if (reply.status === '00') setSentMessage(reply.message ?? 'Check your email for a reset link.');
    else setMessage(reply.message || 'Could not send the reset link. Please try again.');
  });

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter the email you signed up with and we will send you a link to choose a new password."
      footer={
        <Anchor component={Link} to="/login" size="sm">
          <IconArrowLeft size={14} style={{ verticalAlign: 'middle' }} /> Back to login
        </Anchor>
      }
    >
      <AuthForm
        label="Forgot password"
        onSubmit={handleSubmit}
        message={message}
        onDismissMessage={() => setMessage(null)}
        notice={<FormAlert kind="success" title="Check your email" message={sentMessage} onClose={() => setSentMessage(null)} />}
        submitLabel="Send reset link"
        isSubmitting={isSubmitting}
      >
        <AuthEmailInput {...form.getInputProps('email')} />
      </AuthForm>
    </AuthLayout>
  );
}
