import { Anchor, Group, PasswordInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { type LoginReply, loginBodySchema } from '../../../shared/api/auth.schema';
import { useAfterSignInPath } from '../../lib/return-path';
import { saveSession } from '../../lib/session';
import { loginMerchant, loginUser } from '../../../shared/api/auth.calls';
import { isLoginReply, signIn } from './auth.api';
import { AuthEmailInput, AuthForm } from './auth-form';
import { getDeviceToken, isTwoFactorChallenge, setDeviceToken } from './two-factor.api';
import { TwoFactorLoginForm } from './two-factor-login-form';

interface LoginFormProps {
  /** `merchant` signs in through POST /api/merchant/login, which accepts merchant accounts only. */
  variant: 'user' | 'merchant';
}

/**
 * Email and password, shared by /login and /merchant/login, then the two-factor step when the account has it.
 * Messages go to the dismissible warning box. Signed in, it goes to the page asked for (`?next=`) or /get-started.
 */
export function LoginForm({ variant }: LoginFormProps) {
  const navigate = useNavigate();
  const afterSignInPath = useAfterSignInPath();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const [challenge, setChallenge] = useState<{ id: string; email: string } | null>(null);
  const form = useForm({ mode: 'controlled', initialValues: { email: '', password: '' } });

  function finishLogin(reply: Pick<LoginReply, 'token' | 'data'>) {
    saveSession(reply);
    // Nothing cached for a previous user may leak into this one's console.
    queryClient.clear();
    void navigate(afterSignInPath, { replace: true });
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = loginBodySchema.safeParse(form.getValues());
    if (!parsed.success) {
      setMessage(parsed.error.issues[0]?.message ?? 'Please fill all the fields');
      return;
    }
    setMessage(null);
    setSubmitting(true);
    const deviceToken = getDeviceToken(parsed.data.email);
    const reply = await signIn(variant === 'merchant' ? loginMerchant : loginUser, { ...parsed.data, deviceToken });
    setSubmitting(false);
    if (isTwoFactorChallenge(reply)) {
      // A stored device token that still led here was revoked or expired.
      if (deviceToken) setDeviceToken(parsed.data.email, undefined);
      setChallenge({ id: reply.challengeId, email: parsed.data.email });
      return;
    }
    if (!isLoginReply(reply)) {
      setMessage(reply.message || 'Login failed');
      return;
    }
    finishLogin(reply);
  }

  if (challenge)
    return (
      <TwoFactorLoginForm
        challengeId={challenge.id}
        email={challenge.email}
        onSignedIn={finishLogin}
        onRestart={() => {
          setChallenge(null);
          form.setFieldValue('password', '');
        }}
      />
    );

  return (
    <AuthForm
      label={variant === 'merchant' ? 'Merchant login' : 'Login'}
      onSubmit={handleSubmit}
      message={message}
      onDismissMessage={() => setMessage(null)}
      submitLabel={variant === 'merchant' ? 'SIGN IN' : 'Log in'}
      isSubmitting={isSubmitting}
    >
      <AuthEmailInput {...form.getInputProps('email')} />
      <div>
        <PasswordInput
          label="Password"
          placeholder="Your password"
          autoComplete="current-password"
          leftSection={<IconLock size={16} />}
          size="md"
          {...form.getInputProps('password')}
          name="password"
        />
        <Group justify="flex-end" mt={6}>
          <Anchor component={Link} to="/forgot-password" size="sm">
            Forgot password?
          </Anchor>
        </Group>
      </div>
    </AuthForm>
  );
}
