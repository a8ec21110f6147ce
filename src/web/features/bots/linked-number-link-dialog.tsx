import { Alert, Anchor, Button, Divider, Group, Loader, Modal, PasswordInput, Radio, Stack, Text, TextInput } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconBrandFacebook, IconClockExclamation, IconDeviceMobileMessage } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { BOT_MESSAGES } from '../../../shared/api/bots.schema';
import type { WhatsAppConnectorName } from '../../../shared/whatsapp';
import { DialogActions } from '../../components/dialog-actions';
import { failureText, isOk } from '../../lib/api';
import { linkEmbeddedSignup, linkNumber } from '../../../shared/api/bots.calls';
import { call } from '../../lib/call';
import { linkedNumbersKey } from './use-bots';
import { isPhoneNumberId } from './linked-number-link';
import { LinkedNumberQrCanvas } from './linked-number-qr-canvas';
import { useWhatsAppConnectors } from './use-bots';
import { preloadEmbeddedSignup, runEmbeddedSignup } from './embedded-signup';
import { useLinkStatusPolling } from './use-link-status-polling';

export const GENERATING_QR_TEXT = 'Generating QR code...';
export const SCAN_QR_TEXT = 'Scan this QR code with your WhatsApp to connect';

/** How the dialog names each kind of number when the installation offers several. */
export const CONNECTOR_LABELS: Record<WhatsAppConnectorName, { label: string; description: string }> = {
  simulator: { label: 'Simulated phone', description: 'A stand-in for WhatsApp in your browser, to try the bot' },
  baileys: { label: 'Linked device', description: 'A phone number linked by scanning a QR code, like WhatsApp Web' },
  cloud: { label: 'WhatsApp Cloud API', description: "Your business's number on Meta's official API" },
};

/** Add Number ('Connect WhatsApp Number'), or a row's QR button ('WhatsApp QR Code') on a link already started. */
export type LinkDialogTarget = { kind: 'add' } | { kind: 'qr'; linkId: string; connector: WhatsAppConnectorName };

interface LinkedNumberLinkDialogProps {
  appId: string;
  target: LinkDialogTarget | null;
  /** Closing stops the polling; the list reloads 12 s later (the caller's timer). */
  onClose: () => void;
}

/**
 * Links a WhatsApp number to the bot: Continue starts the link (POST /api/chatbot/whatsapp/link), then its status
 * is polled until CONNECTED ('Number connected successfully') or FAILED ('Number failed to connect', shown as the
 * product shows it: a success-style toast); either refreshes the list and closes. While the status is QR the
 * code is drawn to be scanned. The Cloud API takes the number's phone number ID instead and shows no code.
 */
export function LinkedNumberLinkDialog({ appId, target, onClose }: LinkedNumberLinkDialogProps) {
  // The title stays while the dialog closes (its target is gone by then).
  const [shown, setShown] = useState(target);
  if (target && target !== shown) setShown(target);
  return (
    <Modal
      opened={!!target}
      onClose={onClose}
      title={shown?.kind === 'qr' ? 'WhatsApp QR Code' : 'Connect WhatsApp Number'}
      centered
      size="lg"
    >
      {target && <LinkFlow appId={appId} target={target} onClose={onClose} />}
    </Modal>
  );
}

function LinkFlow({ appId, target, onClose }: { appId: string; target: LinkDialogTarget; onClose: () => void }) {
  const queryClient = useQueryClient();
  const installed = useWhatsAppConnectors();
  const [picked, setPicked] = useState<WhatsAppConnectorName | null>(null);
  const connector = target.kind === 'qr' ? target.connector : (picked ?? installed?.connector);
  const isCloud = connector === 'cloud';
  const [linkId, setLinkId] = useState<string | null>(target.kind === 'qr' ? target.linkId : null);
  const [phoneNumberId, setPhoneNumberId] = useState('');
  const [wabaId, setWabaId] = useState('');
  const [accessToken, setAccessToken] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [isStarting, setStarting] = useState(false);
  const embeddedSignup = installed?.embeddedSignup ?? null;
  const signupAppId = isCloud ? embeddedSignup?.appId : undefined;
  useEffect(() => {
    if (signupAppId) preloadEmbeddedSignup(signupAppId);
  }, [signupAppId]);

  const poll = useLinkStatusPolling(linkId, {
    isImmediate: true,
    onSettled: (status) => {
      // FAILED as a success-style toast, as the product shows it.
      showToast({ color: 'teal', message: status === 'CONNECTED' ? BOT_MESSAGES.connected : BOT_MESSAGES.failed });
      void queryClient.invalidateQueries({ queryKey: linkedNumbersKey(appId) });
      onClose();
    },
  });

  async function start() {
    if (isCloud && !isPhoneNumberId(phoneNumberId)) {
      setFieldError(BOT_MESSAGES.phoneNumberIdRequired);
      return;
    }
    setStarting(true);
    const token = accessToken.trim();
    const waba = wabaId.trim();
    const reply = await call(linkNumber, {
      body: {
        chatBotAppId: appId,
        ...(connector ? { connector } : {}),
        ...(isCloud
          ? { phoneNumberId: phoneNumberId.trim(), ...(waba ? { wabaId: waba } : {}), ...(token ? { accessToken: token } : {}) }
          : {}),
      },
    });
    await started(reply);
  }

  /** Meta's signup in its window, then our server exchanges its code and links the number it gave. */
  async function signUp() {
    if (!embeddedSignup) return;
    setStarting(true);
    let result: Awaited<ReturnType<typeof runEmbeddedSignup>>;
    try {
      result = await runEmbeddedSignup(embeddedSignup);
    } catch (err) {
      setStarting(false);
      showToast({ color: 'red', title: 'Number not linked', message: err instanceof Error ? err.message : String(err) });
      return;
    }
    await started(await call(linkEmbeddedSignup, { body: { chatBotAppId: appId, ...result } }));
  }

  async function started(reply: Awaited<ReturnType<typeof call<typeof linkNumber>>>) {
    setStarting(false);
    if (!isOk(reply) || typeof reply.linkId !== 'string') {
      showToast({ color: 'red', title: 'Number not linked', message: failureText(reply, 'The number could not be linked.') });
      return;
    }
    setLinkId(reply.linkId);
    await queryClient.invalidateQueries({ queryKey: linkedNumbersKey(appId) });
  }

  if (!linkId) {
    return (
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void start();
        }}
        noValidate
        aria-label="Connect WhatsApp Number"
      >
        <Stack gap="md">
          {installed && installed.connectors.length > 1 && (
            <Radio.Group label="Kind of number" value={connector ?? ''} onChange={(value) => setPicked(value as WhatsAppConnectorName)}>
              <Stack gap="xs" mt={6}>
                {installed.connectors.map((name) => (
                  <Radio key={name} value={name} label={CONNECTOR_LABELS[name].label} description={CONNECTOR_LABELS[name].description} />
                ))}
              </Stack>
            </Radio.Group>
          )}
          {isCloud ? (
            <Text size="sm">
              Link a number of your WhatsApp Business account (Cloud API) to this bot: enter its phone number ID and WhatsApp Business
              Account ID, found in Meta's WhatsApp Manager, with an access token of that account, and press Continue. From then on the bot
              answers every chat on that number.
            </Text>
          ) : (
            <Text size="sm">
              Link a WhatsApp number to this bot as a linked device. Press Continue, then on the phone that has the number open WhatsApp, go
              to Settings, Linked devices, Link a device, and scan the QR code shown here. From then on the bot answers every chat on that
              number.
            </Text>
          )}
          {connector === 'simulator' && (
            <Text size="sm" c="gray.7">
              This installation uses the WhatsApp simulator: the QR code opens a simulated phone in your browser, so no real WhatsApp is
              needed.
            </Text>
          )}
          {isCloud && (
            <TextInput
              label="Phone number ID"
              description="Digits only, e.g. 106540352242922"
              withAsterisk
              inputMode="numeric"
              autoComplete="off"
              maxLength={30}
              data-autofocus
              value={phoneNumberId}
              error={fieldError}
              onChange={(event) => {
                setPhoneNumberId(event.currentTarget.value);
                setFieldError(null);
              }}
            />
          )}
          {isCloud && (
            <TextInput
              label="WhatsApp Business Account ID"
              description="Digits only; Meta checks the account owns the number"
              inputMode="numeric"
              autoComplete="off"
              maxLength={30}
              value={wabaId}
              onChange={(event) => setWabaId(event.currentTarget.value)}
            />
          )}
          {isCloud && (
            // The server asks Meta whether this token reads the number, then keeps it encrypted to send with.
            <PasswordInput
              label="Access token"
              description="A system user token of that WhatsApp Business Account. Kept encrypted and used for this number's messages."
              autoComplete="off"
              maxLength={1000}
              value={accessToken}
              onChange={(event) => setAccessToken(event.currentTarget.value)}
            />
          )}
          <DialogActions submitLabel="Continue" onCancel={onClose} isSubmitting={isStarting} isDisabled={!connector} mt="xs" />
          {isCloud && embeddedSignup && (
            <>
              <Divider label="or" labelPosition="center" />
              <Button
                variant="light"
                leftSection={<IconBrandFacebook size={18} aria-hidden="true" />}
                onClick={() => void signUp()}
                loading={isStarting}
              >
                Continue with Facebook
              </Button>
              <Text size="xs" c="gray.7">
                Meta's Embedded Signup: sign in to Facebook, pick or create your WhatsApp Business Account and number, and the number is
                linked here with its own access token.
              </Text>
            </>
          )}
        </Stack>
      </form>
    );
  }

  return (
    <Stack gap="md" align="center">
      {poll.isGivenUp ? (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconClockExclamation size={20} />}
          title="Not linked yet"
          w="100%"
          data-testid="link-given-up"
        >
          {isCloud
            ? 'WhatsApp has not confirmed the number yet. Close this window and check its status in the list.'
            : 'The QR code was not scanned in time. Close this window and use the QR button on the number to get a new code.'}
        </Alert>
      ) : poll.status === 'QR' && poll.qrCode ? (
        <>
          <LinkedNumberQrCanvas value={poll.qrCode} caption={SCAN_QR_TEXT} />
          {connector === 'simulator' && (
            <Group gap={6} justify="center">
              <IconDeviceMobileMessage size={16} aria-hidden="true" />
              <Text size="sm">
                No second device?{' '}
                <Anchor href={poll.qrCode} target="_blank" rel="noopener" underline="always" data-testid="simulated-phone-link">
                  Open the simulated phone
                </Anchor>
              </Text>
            </Group>
          )}
        </>
      ) : (
        <Stack align="center" gap="sm" py="xl" role="status">
          <Loader color="teal" />
          <Text>{isCloud ? 'Connecting the number to WhatsApp…' : GENERATING_QR_TEXT}</Text>
        </Stack>
      )}
      <Group justify="flex-end" w="100%">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </Stack>
  );
}
