import { Divider, Stack, Text } from '@mantine/core';
import { AuthSwitchLink } from './auth-form';
import { AuthLayout } from './auth-layout';
import { LoginForm } from './login-form';

export function LoginPage() {
  return (
    <AuthLayout
      title="Log in to Dialflow"
      subtitle="Welcome back. Enter your details to open your console."
      footer={
        <Stack gap={6}>
          <Text size="sm" c="dimmed">
            <AuthSwitchLink question="New to Dialflow?" to="/register" label="Create an account" />
          </Text>
          <Divider label="or" labelPosition="center" my={4} />
          <Text size="sm" c="dimmed">
            <AuthSwitchLink question="Signing in for a business account?" to="/merchant/login" label="Log in as merchant" />
          </Text>
        </Stack>
      }
    >
      <LoginForm variant="user" />
    </AuthLayout>
  );
}
