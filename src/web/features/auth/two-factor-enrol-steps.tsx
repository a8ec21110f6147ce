import { Alert, Button, Code, Group, Image, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { TwoFactorSetup } from '../../../shared/api/two-factor.schema';
import { failureText, isOk } from '../../lib/api';
import { FormAlert } from '../../components/form-alert';
import { RecoveryCodesView } from './recovery-codes-view';
import { enableTwoFactor, setupTwoFactor } from '../../../shared/api/two-factor.calls';
import { call } from '../../lib/call';

interface TwoFactorEnrolStepsProps {
  email: string;
  /** After the recovery codes were shown and the user said they saved them. */
  onDone: () => void;
  /** Two-factor was turned on; the recovery codes are showing. */
  onEnabled?: () => void;
  onCancel?: () => void;
}

/** Groups a base32 key in fours, as apps that take a typed key show it. */
const groupKey = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Enrolment, in three steps: start (a new secret), scan the QR code or type the key and confirm with a code,
 * then the recovery codes. Used by Account Settings and by the admins' forced enrolment.
 */
export function TwoFactorEnrolSteps({ email, onDone, onEnabled, onCancel }: TwoFactorEnrolStepsProps) {
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  async function start() {
    setBusy(true);
    const reply = await call(setupTwoFactor);
    setBusy(false);
    if (isOk(reply) && reply.data) setSetup(reply.data);
    else setMessage(failureText(reply, 'Two-factor set-up could not start.'));
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const reply = await call(enableTwoFactor, { body: { code: code.replace(/\s/g, '') } });
    setBusy(false);
    if (!isOk(reply) || !reply.data) {
      setMessage(failureText(reply, 'The code could not be checked.'));
      return;
    }
    // The status is read again in onDone, once the codes were saved: read now, it would close this view.
    setCodes(reply.data.recoveryCodes);
    onEnabled?.();
  }

  if (codes)
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" title="Two-factor sign-in is on">
          From now on, signing in asks for a code from your authenticator app after your password.
        </Alert>
        <RecoveryCodesView codes={codes} email={email} />
        <div>
          <Button onClick={onDone}>I have saved my recovery codes</Button>
        </div>
      </Stack>
    );

  if (!setup)
    return (
      <Stack gap="md" align="flex-start">
        <FormAlert message={message} onClose={() => setMessage(null)} />
        <Text size="sm">
          You need an authenticator app on your phone, such as Google Authenticator, Microsoft Authenticator, 1Password or Aegis.
        </Text>
        <StepButtons onCancel={onCancel}>
          <Button onClick={() => void start()} loading={isBusy}>
            Set up two-factor sign-in
          </Button>
        </StepButtons>
      </Stack>
    );

  return (
    <form onSubmit={confirm} noValidate aria-label="Confirm two-factor set-up">
      <Stack gap="md">
        <FormAlert message={message} onClose={() => setMessage(null)} />
        <Group align="flex-start" gap="lg" wrap="wrap">
          {setup.qrDataUrl ? (
            <Image src={setup.qrDataUrl} alt="QR code for your authenticator app" w={180} h={180} radius="md" bd="1px solid gray.3" />
          ) : (
            <Loader />
          )}
          <Stack gap="xs" style={{ flex: '1 1 220px', minWidth: 0 }}>
            <Text size="sm" fw={600}>
              1. Scan the QR code with your authenticator app
            </Text>
            <Text size="sm" c="dimmed">
              Cannot scan? Add an account by hand with this key (time-based, six digits):
            </Text>
            <Code block fz="sm" data-testid="two-factor-secret" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
              {groupKey(setup.secret)}
            </Code>
          </Stack>
        </Group>
        <TextInput
          label="2. Enter the six-digit code the app shows"
          placeholder="123456"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          maw={240}
          autoFocus
          value={code}
          onChange={(e) => setCode(e.currentTarget.value.replace(/[^\d ]/g, ''))}
          name="code"
          styles={{ input: { letterSpacing: '0.3em' } }}
        />
        <StepButtons onCancel={onCancel}>
          <Button type="submit" loading={isBusy}>
            Turn on
          </Button>
        </StepButtons>
      </Stack>
    </form>
  );
}

/** A step's button, and Cancel when the enrolment may be left (the layout's prompt cannot be). */
function StepButtons({ onCancel, children }: { onCancel?: () => void; children: ReactNode }) {
  return (
    <Group gap="sm">
      {children}
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
      )}
    </Group>
  );
}
