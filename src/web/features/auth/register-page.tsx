import { SimpleGrid, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { registerBodySchema } from '../../../shared/api/auth.schema';
import { NewPasswordInput } from './new-password-input';
import { useAfterSignInPath } from '../../lib/return-path';
import { saveSession } from '../../lib/session';
import { registerUser } from '../../../shared/api/auth.calls';
import { call } from '../../lib/call';
import { isLoginReply } from './auth.api';
import { AuthForm, AuthSwitchLink } from './auth-form';
import { AuthLayout } from './auth-layout';

/** Registration signs the new account in and goes on to the page asked for (`?next=`), else /get-started. */
export function RegisterPage() {
  const navigate = useNavigate();
  const afterSignInPath = useAfterSignInPath();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { fullName: '', email: '', mobileNumber: '', companyName: '', password: '' },
    validate: schemaResolver(registerBodySchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(async (values) => {
    setMessage(null);
    setSubmitting(true);
    const reply = await call(registerUser, { body: registerBodySchema.parse(values) });
    setSubmitting(false);
    if (!isLoginReply(reply)) {
      setMessage(reply.message || 'Registration failed. Please try again.');
      return;
    }
    saveSession(reply);
    queryClient.clear();
    void navigate(afterSignInPath, { replace: true });
  });

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start building USSD apps in minutes. No card needed to try it."
      footer={<AuthSwitchLink question="Already have an account?" to="/login" label="Log in" />}
    >
      <AuthForm
        label="Register"
        onSubmit={handleSubmit}
        message={message}
        onDismissMessage={() => setMessage(null)}
        submitLabel="Create account"
        isSubmitting={isSubmitting}
      >
        <TextInput
          label="Full name"
          placeholder="Ama Mensah"
          autoComplete="name"
          withAsterisk
          {...form.getInputProps('fullName')}
          name="fullName"
        />
        <TextInput
          label="Email"
          placeholder="you@company.com"
          type="email"
          autoComplete="email"
          withAsterisk
          {...form.getInputProps('email')}
          name="email"
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="Mobile number"
            placeholder="233201234567"
            type="tel"
            autoComplete="tel"
            withAsterisk
            {...form.getInputProps('mobileNumber')}
            name="mobileNumber"
          />
          <TextInput
            label="Company name"
            placeholder="Optional"
            autoComplete="organization"
            {...form.getInputProps('companyName')}
            name="companyName"
          />
        </SimpleGrid>
        <NewPasswordInput label="Password" {...form.getInputProps('password')} name="password" />
      </AuthForm>
    </AuthLayout>
  );
}
