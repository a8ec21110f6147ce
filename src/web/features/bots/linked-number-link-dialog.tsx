import { Alert, Anchor, Button, Group, Loader, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconClockExclamation, IconDeviceMobileMessage } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BOT_MESSAGES } from '../../../shared/api/bots.schema';
import type { WhatsAppConnectorName } from '../../../shared/whatsapp';
import { DialogActions } from '../../components/dialog-actions';
import { failureText, isOk } from '../../lib/api';
import { linkNumber } from '../../../shared/api/bots.calls';
import { call } from '../../lib/call';
import { linkedNumbersKey } from './use-bots';
import { isPhoneNumberId } from './linked-number-link';
import { LinkedNumberQrCanvas } from './linked-number-qr-canvas';
import { useWhatsAppConnector } from './use-bots';
import { useLinkStatusPolling } from './use-link-status-polling';

export const GENERATING_QR_TEXT = 'Generating QR code...';
export const SCAN_QR_TEXT = 'Scan this QR code with your WhatsApp to connect';

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
  const installed = useWhatsAppConnector();
  const connector = target.kind === 'qr' ? target.connector : installed;
  const isCloud = connector === 'cloud';
  const [linkId, setLinkId] = useState<string | null>(target.kind === 'qr' ? target.linkId : null);
  const [phoneNumberId, setPhoneNumberId] = useState('');
  const [accessToken, setAccessToken] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [isStarting, setStarting] = useState(false);

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
    const reply = await call(linkNumber, {
      body: {
        chatBotAppId: appId,
        ...(isCloud ? { phoneNumberId: phoneNumberId.trim(), ...(token ? { accessToken: token } : {}) } : {}),
      },
    });
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
          {isCloud ? (
            <Text size="sm">
              Link a number of your WhatsApp Business account (Cloud API) to this bot: enter its phone number ID, found in Meta's WhatsApp
              Manager under Phone numbers, and press Continue. From then on the bot answers every chat on that number.
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
            // Only for a number another account linked before: the server asks Meta whether this token reads it.
            <PasswordInput
              label="Access token (optional)"
              description="Only for a number another account linked before: a token of your WhatsApp Business account that can read it. Used once to check with Meta, never kept."
              autoComplete="off"
              maxLength={1000}
              value={accessToken}
              onChange={(event) => setAccessToken(event.currentTarget.value)}
            />
          )}
          <DialogActions submitLabel="Continue" onCancel={onClose} isSubmitting={isStarting} isDisabled={!connector} mt="xs" />
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
