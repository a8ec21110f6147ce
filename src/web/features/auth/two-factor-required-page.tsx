import { Anchor, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { AuthLayout } from './auth-layout';
import { TwoFactorEnrolSteps } from './two-factor-enrol-steps';

/**
 * What an admin without two-factor sees after the password sign-in, in place of the console: the server answers
 * every other call 403 until they have enrolled (docs/security.md, Two-factor sign-in).
 */
export function TwoFactorRequiredPage({ email }: { email: string }) {
  const queryClient = useQueryClient();
  return (
    <AuthLayout
      title="Set up two-factor sign-in"
      subtitle="Admin accounts need a code from your phone at each sign-in, besides the password. Set it up now to open the console."
      footer={
        <Text size="sm" c="dimmed">
          Not now?{' '}
          <Anchor component={Link} to="/logout" fw={600}>
            Log out
          </Anchor>
        </Text>
      }
    >
      <TwoFactorEnrolSteps
        email={email}
        onDone={() => {
          // Anything the console read while it was refused is read again.
          void queryClient.invalidateQueries();
        }}
      />
    </AuthLayout>
  );
}
