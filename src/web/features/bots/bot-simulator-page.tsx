import { EmulatorTopbar } from '../emulator/emulator-topbar';
import { Badge, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import type { RESTART_WORDS } from '../../../shared/whatsapp';
import { getToken } from '../../lib/session';
import { AppNotFoundError, useApp } from '../apps/use-apps';
import { ActionLogsPanel } from '../emulator/action-logs-panel';
import { DebugOutputPanel } from '../emulator/debug-output-panel';
import { SaveTestCaseButton } from '../emulator/save-test-case-button';
import { useUnauthorizedRedirect } from '../emulator/emulator-home-page';
import { useLoginPath } from '../../lib/return-path';
import { EmulatorStatusPage } from '../emulator/emulator-status-page';
import { useActionLogs } from '../emulator/use-action-logs';
import { useDebugOutput } from '../emulator/use-debug-output';
import emulatorClasses from '../emulator/emulator.module.css';
import { DEFAULT_CUSTOMER_NUMBER, isCustomerNumber, toCustomerNumber } from './chat-entries';
import { ChatScreen } from './chat-screen';
import { useChatSimulator } from './use-chat-simulator';
import { useChatStatuses } from './use-chat-statuses';
import { BOT_LIST_PATH, botDesignerPath } from '../../lib/paths';

/** What Restart sends: one of the words that start a conversation over. */
const RESTART_TEXT: (typeof RESTART_WORDS)[number] = 'restart';
const CUSTOMER_NUMBER_ERROR = "Enter the customer's number: 8 to 15 digits";

/**
 * The chat simulator (/whatsapp-bot/simulator/{appId}), full screen like the USSD emulator: a WhatsApp chat with
 * the bot's draft, with the emulator's action logs and debug panels beside it.
 */
export function BotSimulatorPage() {
  const { appId = '' } = useParams();
  const hasToken = !!getToken();
  const loginPath = useLoginPath();
  useUnauthorizedRedirect(true);
  const { data: app, error, isPending, refetch } = useApp(appId);

  if (!hasToken) return <Navigate to={loginPath} replace />;
  if (isPending) return <EmulatorStatusPage kind="loading" isBot />;
  if (error instanceof AppNotFoundError)
    return <EmulatorStatusPage kind="not-found" appId={appId} isTemplate={false} homeUrl={BOT_LIST_PATH} isBot />;
  if (!app)
    return (
      <EmulatorStatusPage
        kind="failed"
        detail={error?.message ?? 'unexpected error'}
        homeUrl={BOT_LIST_PATH}
        onRetry={() => void refetch()}
        isBot
      />
    );
  return <ChatSimulatorWorkspace key={app.appId} app={app} />;
}

function ChatSimulatorWorkspace({ app }: { app: App }) {
  const navigate = useNavigate();
  const [from, setFrom] = useState(DEFAULT_CUSTOMER_NUMBER);
  const [isInteractive, setInteractive] = useState(true);
  const chat = useChatSimulator(app.appId, from, isInteractive);
  const [isAutoReceipts, setAutoReceipts] = useState(true);
  const ticks = useChatStatuses(app.appId, chat.entries, isAutoReceipts);
  const lastBotMessageId = chat.entries.findLast((e) => e.messageId)?.messageId;
  const logs = useActionLogs(app.appId, chat.sessionId, 'always');
  const debug = useDebugOutput(app.appId, chat.sessionId, true);
  const isNumberValid = isCustomerNumber(from);

  useEffect(() => {
    const previous = document.title;
    document.title = `${app.appName} · Chat simulator · Dialflow`;
    return () => {
      document.title = previous;
    };
  }, [app.appName]);

  function changeNumber(value: string) {
    setFrom(toCustomerNumber(value));
    // Another customer is another chat.
    chat.reset();
  }

  function send(text: string, kind: 'text' | 'choice' = 'text', shown?: string) {
    if (isNumberValid) void chat.send({ text, kind, shown });
  }

  function goBack() {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(botDesignerPath(app.appId));
  }

  return (
    <main className={emulatorClasses.page}>
      <EmulatorTopbar
        eyebrow="Chat simulator"
        title={app.appName}
        badges={
          <>
            <Badge variant="light" color="teal" radius="sm">
              WhatsApp bot
            </Badge>
            <Badge variant="outline" color="gray" radius="sm">
              Draft
            </Badge>
          </>
        }
        note="The simulator runs your latest saved draft, so you can try changes before you deploy them."
      />

      <div className={emulatorClasses.layout}>
        <div className={emulatorClasses.phoneColumn}>
          <ChatScreen
            botName={app.appName}
            subtitle={`Chatting as +${from || '…'}`}
            entries={chat.entries}
            isEnded={chat.isEnded}
            isWaiting={chat.isWaiting}
            error={isNumberValid ? chat.error : CUSTOMER_NUMBER_ERROR}
            emptyText="Send a message, as a customer would, to start the bot's first menu."
            onSend={(text) => send(text)}
            onChoose={(choice) => send(choice.id, 'choice', choice.title)}
            statuses={ticks.statuses}
            waitingText={chat.uploading}
            onSendFile={(kind, file) => isNumberValid && void chat.sendFile(kind, file)}
            onSendLocation={(location) => isNumberValid && void chat.sendLocation(location)}
          />
          <Stack gap="sm" w="100%" maw={340}>
            <Switch
              label="Interactive messages (Cloud API)"
              description={
                isInteractive
                  ? 'Menus come as lists and buttons, as a Cloud API number shows them.'
                  : 'Menus come as numbered text, as a number linked as a device shows them.'
              }
              checked={isInteractive}
              onChange={(event) => setInteractive(event.currentTarget.checked)}
            />
            <Switch
              label="The customer's phone sends receipts"
              description={
                isAutoReceipts
                  ? "The bot's messages are marked delivered once shown and read while this page is in view."
                  : "Mark the bot's last message delivered or read yourself, or make it fail."
              }
              checked={isAutoReceipts}
              onChange={(event) => setAutoReceipts(event.currentTarget.checked)}
            />
            {!isAutoReceipts && (
              <Group gap="xs" role="group" aria-label="Receipt for the bot's last message">
                {(['delivered', 'read', 'failed'] as const).map((status) => (
                  <Button
                    key={status}
                    variant={status === 'failed' ? 'light' : 'default'}
                    color={status === 'failed' ? 'red' : undefined}
                    size="xs"
                    disabled={!lastBotMessageId}
                    onClick={() => lastBotMessageId && void ticks.report(lastBotMessageId, status)}
                  >
                    {status === 'delivered' ? 'Mark delivered' : status === 'read' ? 'Mark read' : 'Make it fail'}
                  </Button>
                ))}
              </Group>
            )}
            {ticks.error && (
              <Text size="xs" c="red.8" role="alert">
                {ticks.error}
              </Text>
            )}
            <Group gap="sm" wrap="nowrap">
              <Button
                variant="default"
                size="xs"
                leftSection={<IconRefresh size={14} />}
                onClick={() => send(RESTART_TEXT)}
                disabled={chat.isWaiting || !isNumberValid}
                style={{ flexShrink: 0 }}
              >
                Restart
              </Button>
              <Text size="xs" c="gray.7">
                Sends “{RESTART_TEXT}”: the bot starts again from its first menu.
              </Text>
            </Group>
          </Stack>
        </div>

        <div className={emulatorClasses.panels}>
          <ActionLogsPanel
            lines={logs.lines}
            status={logs.status}
            onClear={logs.clear}
            emptyText="No logs yet. Send the bot a message to see its actions run."
          />
          <DebugOutputPanel
            copy={{
              numberLabel: 'Customer number',
              numberDescription: 'Who the bot is chatting with; each number is its own chat',
              start: 'Send the bot a message',
            }}
            msisdn={from}
            msisdnError={isNumberValid ? null : CUSTOMER_NUMBER_ERROR}
            network="WhatsApp"
            isMsisdnLocked={false}
            sessionId={chat.sessionId}
            // A conversation with the draft saved as a test case (docs/testing-apps.md), as the emulator's runs are.
            sessionActions={chat.sessionId ? <SaveTestCaseButton appId={app.appId} sessionId={chat.sessionId} /> : null}
            isSignedOut={false}
            userInputs={debug.userInputs}
            actionResults={debug.actionResults}
            onMsisdnChange={changeNumber}
            onBack={goBack}
          />
        </div>
      </div>
    </main>
  );
}
