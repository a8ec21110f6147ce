import { Alert, Badge, Button, Divider, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconShieldCheck, IconShieldExclamation } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormAlert } from '../../components/form-alert';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { failureText, isOk } from '../../lib/api';
import { RecoveryCodesView } from './recovery-codes-view';
import { RememberedDeviceList } from './remembered-device-list';
import { disableTwoFactor, getTwoFactorStatus, regenerateRecoveryCodes } from '../../../shared/api/two-factor.calls';
import { call, callQuery, queryKey } from '../../lib/call';
import { TwoFactorEnrolSteps } from './two-factor-enrol-steps';
import { useCurrentUser } from '../../lib/use-current-user';

/**
 * The account's two-factor status. Read again only when a change invalidates it (never on a window's focus):
 * the recovery codes shown after enrolment must stay until the user says they saved them.
 */
export function useTwoFactorStatus(isEnabled = true) {
  return useQuery({
    ...callQuery(getTwoFactorStatus, {}, 'The two-factor status could not be loaded.'),
    enabled: isEnabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

const codeInputProps = {
  inputMode: 'numeric',
  autoComplete: 'one-time-code',
  placeholder: '123456',
  maxLength: 7,
  maw: 240,
} as const;

/** Account Settings, Two-factor: enrol, new recovery codes, turn off, and the remembered devices. */
export function TwoFactorPanel() {
  const user = useCurrentUser();
  const { data: status, error, refetch } = useTwoFactorStatus();
  const [isShowingCodes, setShowingCodes] = useState(false);

  if (error) return <LoadErrorAlert title="Two-factor not loaded" message={error.message} onRetry={() => void refetch()} />;
  // A loader, not a skeleton: the tab's panel is rendered hidden (and its query held) until the tab is opened.
  if (!status || !user) return <Loader size="sm" aria-label="Loading two-factor sign-in" />;

  if (!status.enabled)
    return (
      <Stack gap="md" data-testid="two-factor-panel">
        {!isShowingCodes && (
          <Group gap="xs">
            <Badge color="gray" variant="light" leftSection={<IconShieldExclamation size={14} />}>
              Off
            </Badge>
            <Text size="sm" c="dimmed">
              Two-factor sign-in asks for a code from your phone after your password.
            </Text>
          </Group>
        )}
        {status.required && !isShowingCodes && (
          <Alert color="orange" variant="light" title="Required for admins">
            Admin accounts must turn on two-factor sign-in before using the console.
          </Alert>
        )}
        {status.recommended && !isShowingCodes && (
          <Alert color="blue" variant="light" title="Recommended for your account" data-testid="two-factor-recommendation">
            Your account handles payments. A second step at sign-in keeps your money safe even if your password leaks.
          </Alert>
        )}
        <TwoFactorEnrolSteps
          email={user.email}
          onEnabled={() => setShowingCodes(true)}
          onDone={() => {
            setShowingCodes(false);
            void refetch();
          }}
        />
      </Stack>
    );

  return <TwoFactorEnabledPanel email={user.email} isRequired={status.required} codesLeft={status.recoveryCodesLeft} />;
}

function TwoFactorEnabledPanel({ email, isRequired, codesLeft }: { email: string; isRequired: boolean; codesLeft: number }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'idle' | 'regenerate' | 'disable'>('idle');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  function open(next: typeof mode) {
    setMode(next);
    setCode('');
    setPassword('');
    setMessage(null);
    setCodes(null);
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const typed = code.replace(/\s/g, '');
    if (mode === 'regenerate') {
      const reply = await call(regenerateRecoveryCodes, { body: { code: typed } });
      setBusy(false);
      if (!isOk(reply) || !reply.data) {
        setMessage(failureText(reply, 'New recovery codes could not be made.'));
        return;
      }
      setCodes(reply.data.recoveryCodes);
    } else {
      const reply = await call(disableTwoFactor, { body: { password, code: typed } });
      setBusy(false);
      if (!isOk(reply)) {
        setMessage(failureText(reply, 'Two-factor sign-in could not be turned off.'));
        return;
      }
      showToast({ color: 'teal', title: 'Two-factor sign-in is off', message: reply.message ?? '' });
    }
    setMode('idle');
    await queryClient.invalidateQueries({ queryKey: queryKey(getTwoFactorStatus) });
  }

  return (
    <Stack gap="md" data-testid="two-factor-panel">
      <Group gap="xs">
        <Badge color="teal" variant="light" leftSection={<IconShieldCheck size={14} />}>
          On
        </Badge>
        <Text size="sm" c="dimmed">
          Signing in asks for a code from your authenticator app. {codesLeft} of 10 recovery codes left.
        </Text>
      </Group>
      {codes && <RecoveryCodesView codes={codes} email={email} />}
      {mode === 'idle' ? (
        <Group gap="sm">
          <Button variant="default" onClick={() => open('regenerate')}>
            New recovery codes
          </Button>
          <Button variant="light" color="red" onClick={() => open('disable')} disabled={isRequired}>
            Turn off
          </Button>
          {isRequired && (
            <Text size="xs" c="dimmed">
              Admins must keep it on.
            </Text>
          )}
        </Group>
      ) : (
        <form onSubmit={handleSubmit} noValidate aria-label={mode === 'regenerate' ? 'New recovery codes' : 'Turn off two-factor'}>
          <Stack gap="sm">
            <FormAlert message={message} onClose={() => setMessage(null)} />
            <Text size="sm">
              {mode === 'regenerate'
                ? 'Confirm with a code from your app. The recovery codes you have now stop working.'
                : 'Confirm with your password and a code from your app. Remembered devices are forgotten too.'}
            </Text>
            {mode === 'disable' && (
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                maw={320}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                name="password"
              />
            )}
            <TextInput
              label="Authentication code"
              {...codeInputProps}
              autoFocus
              value={code}
              onChange={(e) => setCode(e.currentTarget.value.replace(/[^\d ]/g, ''))}
              name="code"
            />
            <Group gap="sm">
              <Button type="submit" loading={isBusy} color={mode === 'disable' ? 'red' : undefined}>
                {mode === 'regenerate' ? 'Make new codes' : 'Turn off'}
              </Button>
              <Button variant="default" onClick={() => open('idle')}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      <Divider />
      <RememberedDeviceList />
    </Stack>
  );
}
