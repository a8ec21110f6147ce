import { Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { findSessionMessages } from '../../../shared/api/sessions.calls';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { callQuery } from '../../lib/call';
import { formatTime } from '../../lib/table-export';
import { ChatTicks } from '../bots/chat-ticks';

const KIND_TEXT: Record<string, string> = {
  text: 'Text',
  list: 'List',
  buttons: 'Buttons',
  template: 'Template',
  media: 'File',
  location: 'Location',
  contact: 'Contact card',
  link: 'Link button',
  locationRequest: 'Location request',
};

/**
 * A bot session's log of what it sent on WhatsApp: each message in order, its kind and time, and its ticks as the
 * chat shows them (a failure red, with the provider's code and words written out).
 */
export function SessionMessages({ appId, sessionId }: { appId: string; sessionId: string }) {
  const { data, error, refetch, isPending } = useQuery(
    callQuery(findSessionMessages, { params: { appId }, query: { sessionId } }, "The session's messages could not be read."),
  );
  return (
    <Stack gap={6} mt="sm" data-testid="session-messages">
      <Title order={3} fz="sm">
        Messages the bot sent
      </Title>
      {error ? (
        <LoadErrorAlert title="Messages not loaded" message={error.message} onRetry={() => void refetch()} />
      ) : isPending ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : data.length === 0 ? (
        <Text size="sm" c="dimmed">
          The bot sent no message in this session.
        </Text>
      ) : (
        <Stack gap={4} component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
          {data.map((m, i) => (
            <li key={m.providerMessageId} data-testid="session-message" data-status={m.status}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <ChatTicks status={{ status: m.status, failureReason: m.failureReason }} />
                <div style={{ minWidth: 0 }}>
                  <Text size="sm">
                    {i + 1}. {KIND_TEXT[m.kind] ?? m.kind} · {formatTime(m.sentAt)}
                  </Text>
                  {m.status === 'failed' ? (
                    <Text size="sm" c="red.9" style={{ overflowWrap: 'anywhere' }} data-testid="session-message-failure">
                      Failed{m.failureCode === null ? '' : ` (${m.failureCode})`}: {m.failureReason || 'no reason given'}
                    </Text>
                  ) : null}
                </div>
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
