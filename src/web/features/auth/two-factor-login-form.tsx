import { Anchor, Checkbox, Group, Text, TextInput } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { REMEMBER_DEVICE_DAYS, TWO_FACTOR_MESSAGES } from '../../../shared/api/two-factor.schema';
import { failureText } from '../../lib/api';
import { isLoginReply, type LoginResult } from './auth.api';
import { AuthForm } from './auth-form';
import { loginWithTwoFactor } from '../../../shared/api/two-factor.calls';
import { call } from '../../lib/call';
import { setDeviceToken } from './two-factor.api';

interface TwoFactorLoginFormProps {
  challengeId: string;
  email: string;
  onSignedIn: (reply: LoginResult & { token: string; data: NonNullable<LoginResult['data']> }) => void;
  /** Back to the password step (a challenge that expired or had too many wrong codes). */
  onRestart: () => void;
}

/** The sign-in's second step: the authenticator's code (or a recovery code), and whether to trust this device. */
export function TwoFactorLoginForm({ challengeId, email, onSignedIn, onRestart }: TwoFactorLoginFormProps) {
  const [isRecovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [rememberDevice, setRememberDevice] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const typed = value.trim();
    if (!typed) {
      setMessage(isRecovery ? 'Enter one of your recovery codes.' : 'Enter the six-digit code from your authenticator app.');
      return;
    }
    setSubmitting(true);
    const reply = await call(loginWithTwoFactor, {
      body: { challengeId, rememberDevice, ...(isRecovery ? { recoveryCode: typed } : { code: typed }) },
    });
    setSubmitting(false);
    if (!isLoginReply(reply)) {
      setMessage(failureText(reply, 'Sign-in failed.'));
      setValue('');
      return;
    }
    if (typeof reply.deviceToken === 'string') setDeviceToken(email, reply.deviceToken);
    onSignedIn(reply);
  }

  function switchMode() {
    setRecovery(!isRecovery);
    setValue('');
    setMessage(null);
  }

  const isChallengeOver = message === TWO_FACTOR_MESSAGES.challengeExpired || message === TWO_FACTOR_MESSAGES.tooManyCodes;

  return (
    <AuthForm
      label="Two-factor sign-in"
      onSubmit={handleSubmit}
      message={message}
      onDismissMessage={() => setMessage(null)}
      submitLabel="Verify"
      isSubmitting={isSubmitting}
    >
      <Text size="sm" c="dimmed">
        {isRecovery
          ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each code works once.'
          : 'Open your authenticator app and enter the six-digit code it shows for Dialflow.'}
      </Text>
      {isRecovery ? (
        <TextInput
          key="recovery"
          label="Recovery code"
          placeholder="xxxx-xxxx-xxxx-xxxx"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          size="md"
          data-autofocus
          autoFocus
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          name="recoveryCode"
        />
      ) : (
        <TextInput
          key="code"
          label="Authentication code"
          placeholder="123456"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          size="md"
          leftSection={<IconShieldLock size={16} />}
          autoFocus
          value={value}
          onChange={(e) => setValue(e.currentTarget.value.replace(/[^\d ]/g, ''))}
          name="code"
          styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
        />
      )}
      <Checkbox
        label={`Trust this device for ${REMEMBER_DEVICE_DAYS} days`}
        description="Only on a device that is yours alone."
        checked={rememberDevice}
        onChange={(e) => setRememberDevice(e.currentTarget.checked)}
      />
      <Group justify="space-between" gap="xs">
        <Anchor component="button" type="button" size="sm" onClick={switchMode}>
          {isRecovery ? 'Use the authenticator app' : 'Use a recovery code'}
        </Anchor>
        <Anchor component="button" type="button" size="sm" c={isChallengeOver ? undefined : 'dimmed'} onClick={onRestart}>
          Start over
        </Anchor>
      </Group>
    </AuthForm>
  );
}
