import { EmulatorTopbar } from '../emulator/emulator-topbar';
import { Button, Center, Group, Loader, Paper, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconBrandWhatsapp, IconDeviceMobileOff, IconLogout, IconPlugConnectedX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import type { LocationRef, MediaKind } from '../../../shared/media';
import type { WhatsAppChoice, WhatsAppMessage } from '../../../shared/whatsapp';
import {
  findSimulatedPhoneTranscript,
  getSimulatedPhone,
  scanSimulatedPhone,
  sendSimulatedPhoneMessage,
  setSimulatedPhoneState,
} from '../../../shared/api/bots.calls';
import { SIMULATED_FILE_MAX_BYTES, type SimulatedMessageBody, type SimulatedPhone } from '../../../shared/api/bots.schema';
import { failureText, isOk, readData } from '../../lib/api';
import { call, callQuery, queryKey } from '../../lib/call';
import { EmulatorPhoneFrame } from '../emulator/emulator-phone-frame';
import { DEFAULT_NETWORK } from '../emulator/emulator-session';
import emulatorClasses from '../emulator/emulator.module.css';
import {
  appendEntries,
  type ChatEntry,
  DEFAULT_CUSTOMER_NUMBER,
  isCustomerNumber,
  toCustomerMessage,
  toCustomerNumber,
} from './chat-entries';
import { ChatScreen } from './chat-screen';
import { readBase64, SIMULATED_FILE_TOO_LARGE, useSentFiles } from './phone-files';
import { usePhoneReceipts } from './use-phone-receipts';
import classes from './chat.module.css';

const LINK_FAILED_TEXT = 'This link could not be opened.';

/** The link's call input: its cache key too, which the scan and the testing buttons fill with their answers. */
const phoneInput = (linkId: string, secret: string) => ({ params: { linkId }, query: { secret } });
const PHONE_NUMBER_ERROR = 'Enter the number being linked, e.g. +233 20 000 0000';
const CUSTOMER_NUMBER_ERROR = "Enter the customer's number: 8 to 15 digits";
/** What a send adds to the link's secret and the customer's number. */
type PhoneMessageBody = Omit<SimulatedMessageBody, 'secret' | 'from'>;

/**
 * The simulated phone (/whatsapp-simulator/{linkId}?secret=...), what the simulator connector's QR code opens:
 * public, without the console. Before linking it is the phone of the business number ("Link this phone to
 * <bot>", a number and Link device); once linked it is a customer's WhatsApp chatting with that number, so the
 * whole path of a real message (connector, deployed version, sessions) runs without a second device.
 */
export function SimulatedPhonePage() {
  const { linkId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const secret = searchParams.get('secret') ?? '';
  const link = useQuery({
    ...callQuery(getSimulatedPhone, phoneInput(linkId, secret), LINK_FAILED_TEXT),
    retry: false,
    refetchOnWindowFocus: false,
  });

  useEffect(() => {
    const previous = document.title;
    document.title = 'Simulated phone · Dialflow';
    return () => {
      document.title = previous;
    };
  }, []);

  return (
    <main className={emulatorClasses.page}>
      <EmulatorTopbar
        eyebrow="WhatsApp simulator"
        title="Simulated phone"
        note="A stand-in for a phone with WhatsApp: link it to a bot as the QR code would, then chat with the bot as a customer."
      />
      <div className={emulatorClasses.layout}>
        {link.isPending ? (
          <div className={emulatorClasses.phoneColumn}>
            <EmulatorPhoneFrame network={DEFAULT_NETWORK}>
              <Center className={classes.screenBody} role="status">
                <Loader color="teal" />
              </Center>
            </EmulatorPhoneFrame>
          </div>
        ) : link.data ? (
          <LinkedPhone link={link.data} linkId={linkId} secret={secret} />
        ) : (
          <Paper withBorder radius="lg" p="xl" maw={520} data-testid="simulated-phone-error">
            <Stack align="center" ta="center" gap="sm">
              <ThemeIcon size={56} radius="xl" variant="light" color="orange">
                <IconPlugConnectedX size={30} />
              </ThemeIcon>
              <Title order={2} fz="xl">
                {LINK_FAILED_TEXT}
              </Title>
              <Text c="gray.7">
                {link.error?.message && link.error.message !== LINK_FAILED_TEXT
                  ? link.error.message
                  : 'The link may have been unlinked, or the address is incomplete.'}{' '}
                Open it again from the QR code on the bot's Connected Numbers.
              </Text>
              <Button variant="default" onClick={() => void link.refetch()}>
                Try again
              </Button>
            </Stack>
          </Paper>
        )}
      </div>
    </main>
  );
}

interface LinkedPhoneProps {
  link: SimulatedPhone;
  linkId: string;
  secret: string;
}

/** The phone in the link's state, and beside it what the page is and its testing buttons. */
function LinkedPhone({ link, linkId, secret }: LinkedPhoneProps) {
  const queryClient = useQueryClient();
  const [stateError, setStateError] = useState<string | null>(null);
  const isLinking = link.status === 'PENDING' || link.status === 'QR';

  async function changeState(status: 'FAILED' | 'DISCONNECTED') {
    setStateError(null);
    const reply = await call(setSimulatedPhoneState, { params: { linkId }, body: { secret, status } });
    if (isOk(reply) && reply.data) queryClient.setQueryData(queryKey(getSimulatedPhone, phoneInput(linkId, secret)), reply.data);
    else setStateError(failureText(reply, 'The phone could not change its state.'));
  }

  return (
    <>
      <div className={emulatorClasses.phoneColumn}>
        {isLinking ? (
          <LinkDeviceScreen link={link} linkId={linkId} secret={secret} />
        ) : link.status === 'CONNECTED' ? (
          <PhoneChat link={link} linkId={linkId} secret={secret} />
        ) : (
          <EmulatorPhoneFrame network={DEFAULT_NETWORK}>
            <Center className={classes.screenBody} p="lg" data-testid="simulated-phone-ended">
              <Stack align="center" ta="center" gap="sm">
                <IconDeviceMobileOff size={36} color="#54656f" aria-hidden="true" />
                <Text fw={600}>{link.status === 'FAILED' ? 'Linking failed' : 'Logged out'}</Text>
                <Text size="sm">
                  {link.status === 'FAILED'
                    ? `This phone was not linked to ${link.botName}.`
                    : `This phone is no longer linked to ${link.botName}.`}{' '}
                  Add the number again on the bot's Connected Numbers.
                </Text>
              </Stack>
            </Center>
          </EmulatorPhoneFrame>
        )}
      </div>
      <div className={emulatorClasses.panels}>
        <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="phone-about">
          <Group gap={8} mb="sm" wrap="nowrap">
            <IconBrandWhatsapp size={20} color="var(--mantine-color-teal-8)" aria-hidden="true" />
            <Title order={2} fz="md" id="phone-about">
              {isLinking ? 'Linking a number' : link.status === 'CONNECTED' ? `Linked to ${link.botName}` : 'Not linked'}
            </Title>
          </Group>
          <Text size="sm">
            {isLinking
              ? `On a real phone you would scan the QR code from WhatsApp's Linked devices. Here, enter the business number this phone stands for and press Link device: the bot's Connected Numbers then shows it CONNECTED.`
              : link.status === 'CONNECTED'
                ? `This phone is the business number ${link.mobileNumber ? `+${link.mobileNumber.replace(/^\+/, '')}` : ''}. The chat is a customer writing to it: ${link.botName} answers with its deployed menus, and each conversation shows on the bot's sessions and dashboard.`
                : `This phone is not linked, so ${link.botName} answers nobody here. Add the number again on the bot's Connected Numbers in the console.`}
          </Text>
          {(isLinking || link.status === 'CONNECTED') && (
            <Stack gap="xs" mt="md">
              <Text size="sm" fw={600}>
                Testing
              </Text>
              <Group gap="sm">
                {isLinking ? (
                  <Button
                    variant="default"
                    color="red"
                    leftSection={<IconAlertTriangle size={16} />}
                    onClick={() => void changeState('FAILED')}
                  >
                    Simulate failure
                  </Button>
                ) : (
                  <Button variant="default" leftSection={<IconLogout size={16} />} onClick={() => void changeState('DISCONNECTED')}>
                    Log out on the phone
                  </Button>
                )}
              </Group>
              {stateError && (
                <Text size="sm" c="red.8" role="alert">
                  {stateError}
                </Text>
              )}
            </Stack>
          )}
        </Paper>
      </div>
    </>
  );
}

/** Before linking: the business number this phone stands for, and Link device (the QR's scan). */
function LinkDeviceScreen({ link, linkId, secret }: LinkedPhoneProps) {
  const queryClient = useQueryClient();
  const [mobileNumber, setMobileNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isLinking, setLinking] = useState(false);

  async function linkDevice() {
    const digits = toCustomerNumber(mobileNumber);
    if (!isCustomerNumber(digits)) {
      setError(PHONE_NUMBER_ERROR);
      return;
    }
    setLinking(true);
    const reply = await call(scanSimulatedPhone, { params: { linkId }, body: { secret, mobileNumber: digits } });
    setLinking(false);
    if (isOk(reply) && reply.data) queryClient.setQueryData(queryKey(getSimulatedPhone, phoneInput(linkId, secret)), reply.data);
    else setError(failureText(reply, 'The phone could not be linked.'));
  }

  return (
    <EmulatorPhoneFrame network={DEFAULT_NETWORK}>
      <div className={classes.header}>
        <IconBrandWhatsapp size={22} aria-hidden="true" />
        <div className={classes.headerText}>
          <div className={classes.headerName}>WhatsApp</div>
          <div className={classes.headerSub}>Linked devices</div>
        </div>
      </div>
      <form
        className={classes.screenBody}
        style={{ padding: 18, gap: 14, background: '#fff' }}
        noValidate
        aria-label="Link device"
        onSubmit={(event) => {
          event.preventDefault();
          void linkDevice();
        }}
      >
        <Title order={2} fz={19} c="#111b21" style={{ overflowWrap: 'anywhere' }}>
          Link this phone to {link.botName}
        </Title>
        <Text size="sm" c="#3b4a54">
          The bot will answer the chats of this phone's WhatsApp number.
        </Text>
        <TextInput
          label="Phone number"
          description="The business number being linked"
          placeholder="+233 20 000 0000"
          inputMode="tel"
          autoComplete="off"
          value={mobileNumber}
          error={error}
          onChange={(event) => {
            setMobileNumber(event.currentTarget.value);
            setError(null);
          }}
        />
        <Button type="submit" color="teal.9" loading={isLinking} fullWidth>
          Link device
        </Button>
      </form>
    </EmulatorPhoneFrame>
  );
}

/** Once linked: a customer's chat with the linked number, its history read back from the server. */
function PhoneChat({ link, linkId, secret }: LinkedPhoneProps) {
  const queryClient = useQueryClient();
  const [from, setFrom] = useState(DEFAULT_CUSTOMER_NUMBER);
  const [isWaiting, setWaiting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const sentFiles = useSentFiles();
  const isNumberValid = isCustomerNumber(from);
  const input = { params: { linkId }, query: { secret, from } };
  // The cached chat is the transcript as bubbles: messages sent here are added to it as they go.
  const key = queryKey(findSimulatedPhoneTranscript, input);
  const transcript = useQuery({
    queryKey: key,
    queryFn: async (): Promise<ChatEntry[]> => {
      const data = readData(await call(findSimulatedPhoneTranscript, input), 'The chat could not be read.');
      return data.transcript.map(({ id, message, ...entry }, index) => ({
        ...entry,
        message: sentFiles.show(message),
        id: index + 1,
        ...(id ? { messageId: id } : {}),
      }));
    },
    enabled: isNumberValid,
    // Messages sent here are added as they go: reading the chat again would only race them.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

  /** Shows the customer's message and sends it; the bot's replies are added when they come. */
  async function deliver(body: PhoneMessageBody, shown: WhatsAppMessage) {
    if (!isNumberValid || isWaiting) return;
    setError(null);
    setWaiting(true);
    queryClient.setQueryData<ChatEntry[]>(key, (old = []) => appendEntries(old, 'in', [shown], new Date().toISOString()));
    const reply = await call(sendSimulatedPhoneMessage, { params: { linkId }, body: { secret, from, ...body } });
    setWaiting(false);
    setUploading(null);
    if (!isOk(reply) || !reply.data) {
      setError(failureText(reply, 'The message was not delivered.'));
      return;
    }
    const { messages } = reply.data;
    queryClient.setQueryData<ChatEntry[]>(key, (old = []) => appendEntries(old, 'out', messages, new Date().toISOString()));
    // The chat read back carries the bot's messages' ids, which the phone's receipts name.
    await transcript.refetch();
  }

  const send = (text: string, kind: 'text' | 'choice', shown = text) => deliver({ text, kind, label: shown }, toCustomerMessage(shown));

  // A phone sends a file's bytes with the message, as WhatsApp does (no console sign-in to upload with): the
  // server stores it for the bot's account as any file a customer sends, checked the same way.
  async function sendFile(kind: MediaKind, file: File) {
    if (!isNumberValid || isWaiting) return;
    if (file.size > SIMULATED_FILE_MAX_BYTES) {
      setError(SIMULATED_FILE_TOO_LARGE);
      return;
    }
    setUploading(`Sending ${file.name}…`);
    const data = await readBase64(file);
    const mimeType = file.type || 'application/octet-stream';
    const url = sentFiles.keep(file);
    const media = { mediaId: '', kind, mimeType, size: file.size, fileName: file.name, url };
    await deliver({ kind: 'media', file: { data, mimeType, fileName: file.name, kind } }, { type: 'media', media });
  }

  const sendLocation = (location: LocationRef) => deliver({ kind: 'location', location }, { type: 'location', location });
  const receipts = usePhoneReceipts(linkId, secret, transcript.data ?? []);
  const lastBotMessageId = transcript.data?.findLast((e) => e.messageId)?.messageId;

  return (
    <Stack gap="sm" align="center" w="100%">
      <ChatScreen
        botName={link.botName}
        subtitle={link.mobileNumber ? `+${link.mobileNumber.replace(/^\+/, '')}` : 'WhatsApp Business'}
        entries={transcript.data ?? []}
        isEnded={false}
        isWaiting={isWaiting}
        error={!isNumberValid ? CUSTOMER_NUMBER_ERROR : (error ?? transcript.error?.message ?? null)}
        emptyText={`Say hello to ${link.botName}: its first menu answers.`}
        waitingText={uploading}
        onSend={(text) => void send(text, 'text')}
        onChoose={(choice: WhatsAppChoice) => void send(choice.id, 'choice', choice.title)}
        onSendFile={(kind, file) => void sendFile(kind, file)}
        onSendLocation={(location) => void sendLocation(location)}
      />
      <TextInput
        label="Customer number"
        description="Who is writing to the bot; each number is its own chat"
        value={from}
        onChange={(event) => {
          setFrom(toCustomerNumber(event.currentTarget.value));
          setError(null);
        }}
        error={isNumberValid ? null : CUSTOMER_NUMBER_ERROR}
        inputMode="tel"
        autoComplete="off"
        w="100%"
        maw={340}
        styles={{ input: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' } }}
      />
      <Button
        variant="light"
        color="red"
        size="xs"
        disabled={!lastBotMessageId}
        onClick={() => lastBotMessageId && void receipts.fail(lastBotMessageId)}
      >
        Make the bot's last message fail
      </Button>
    </Stack>
  );
}
