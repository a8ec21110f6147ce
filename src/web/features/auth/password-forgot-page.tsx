import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconArrowLeft, IconAt } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { forgotPasswordBodySchema } from '../../../shared/api/auth.schema';
import { FormAlert } from '../../components/form-alert';
import { requestPasswordReset } from './auth.api';
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
    const reply = await requestPasswordReset(forgotPasswordBodySchema.parse(values).email);
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
      <form onSubmit={handleSubmit} noValidate aria-label="Forgot password">
        <Stack gap="md">
          <FormAlert message={message} onClose={() => setMessage(null)} />
          <FormAlert kind="success" title="Check your email" message={sentMessage} onClose={() => setSentMessage(null)} />
          <TextInput
            label="Email"
            placeholder="you@company.com"
            type="email"
            autoComplete="email"
            leftSection={<IconAt size={16} />}
            size="md"
            {...form.getInputProps('email')}
            name="email"
          />
          <Button type="submit" size="md" fullWidth loading={isSubmitting}>
            Send reset link
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
