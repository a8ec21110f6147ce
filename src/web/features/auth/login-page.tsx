import { Anchor, Divider, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
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
            New to Dialflow?{' '}
            <Anchor component={Link} to="/register" fw={600}>
              Create an account
            </Anchor>
          </Text>
          <Divider label="or" labelPosition="center" my={4} />
          <Text size="sm" c="dimmed">
            Signing in for a business account?{' '}
            <Anchor component={Link} to="/merchant/login" fw={600}>
              Log in as merchant
            </Anchor>
          </Text>
        </Stack>
      }
    >
      <LoginForm variant="user" />
    </AuthLayout>
  );
}
