import { Anchor, Badge, Button, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPhone, IconUserCheck, IconX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import {
  assignInboxConversation,
  closeInboxConversation,
  getInboxConversation,
  readInboxConversation,
} from '../../../shared/api/inbox.calls';
import type { InboxContact, InboxConversation } from '../../../shared/api/inbox.schema';
import { LoadErrorPanel } from '../../components/load-error-panel';
import { failureText, isOk } from '../../lib/api';
import { call, callQuery } from '../../lib/call';
import { formatMoment } from '../../lib/format';
import { contactPath } from '../../lib/paths';
import { showToast } from '../../lib/toast';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { InboxComposer } from './inbox-composer';
import { InboxThread } from './inbox-thread';
import { describeAssignee, INBOX_KEY, useInboxAgents } from './inbox.api';
import { useCurrentUser } from '../../lib/use-current-user';
import { getRoles } from '../../../shared/roles';

/** The reason and the session's answers at the handoff. */
function HandoffPanel({ conversation }: { conversation: InboxConversation }) {
  const answers = Object.entries(conversation.inputs);
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="inbox-handoff">
      <Title order={3} fz="sm" id="inbox-handoff">
        Handed over {formatMoment(conversation.createdAt)}
      </Title>
      <Text size="sm" mt={4} data-testid="inbox-reason">
        Reason: {conversation.reason || 'none given'}
      </Text>
      {answers.length === 0 ? (
        <Text size="xs" c="dimmed" mt={4}>
          The session had no answers yet.
        </Text>
      ) : (
        <Table
          mt={6}
          fz="sm"
          withRowBorders={false}
          verticalSpacing={2}
          horizontalSpacing="xs"
          aria-label="The session's answers at the handoff"
          data-testid="inbox-answers"
        >
          <Table.Tbody>
            {answers.map(([name, value]) => (
              <Table.Tr key={name}>
                <Table.Th scope="row" fw={500} c="dimmed" w="40%" style={{ overflowWrap: 'break-word', wordBreak: 'break-word' }}>
                  {name}
                </Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

/**
 * The contact's fields (the conversation's read gives them) and a link to their page, not for an agent (who has no
 * Contacts screen); a number the account has no contact for says so.
 */
function ContactPanel({ contact, canOpen }: { contact: InboxContact | null; canOpen: boolean }) {
  const fields = contact ? Object.entries(contact.attributes) : [];
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="inbox-contact">
      <Title order={3} fz="sm" id="inbox-contact">
        Contact
      </Title>
      {!contact ? (
        <Text size="xs" c="dimmed" mt={4}>
          No contact with this number yet.
        </Text>
      ) : (
        <Stack gap={2} mt={4} data-testid="inbox-contact-fields">
          <Text size="sm">{contact.name ?? 'No name'}</Text>
          {contact.language && <Text size="xs">Language: {contact.language}</Text>}
          {fields.map(([key, value]) => (
            <Text key={key} size="xs" style={{ overflowWrap: 'anywhere' }}>
              {key}: {value}
            </Text>
          ))}
          {canOpen && (
            <Anchor component={Link} to={contactPath(contact.contactId)} size="sm" mt={4}>
              Open the contact's page
            </Anchor>
          )}
        </Stack>
      )}
    </Paper>
  );
}

interface InboxConversationPaneProps {
  conversationId: string;
  myId: string | null;
  /** Back to the list (shown on a phone, where the list and the conversation take turns). */
  onBack: () => void;
}

/** One conversation: who and why, its messages, the reply box, and assign and close. */
export function InboxConversationPane({ conversationId, myId, onBack }: InboxConversationPaneProps) {
  const queryClient = useQueryClient();
  const confirm = useConfirmedCall(INBOX_KEY);
  const detail = useQuery(callQuery(getInboxConversation, { params: { conversationId } }, 'The conversation could not be loaded.'));
  const conversation = detail.data?.conversation;
  const unread = conversation?.unreadCount ?? 0;
  const agents = useInboxAgents();
  const user = useCurrentUser();
  const isAgent = !!user && getRoles(user).isAgent;

  // Shown is read: the unread count goes to 0, and again when a new message arrives while it is open.
  useEffect(() => {
    if (unread === 0) return;
    void call(readInboxConversation, { params: { conversationId } }).then(() => queryClient.invalidateQueries({ queryKey: INBOX_KEY }));
  }, [conversationId, unread, queryClient]);

  const back = (
    <Button variant="subtle" size="compact-sm" leftSection={<IconArrowLeft size={16} />} onClick={onBack} hiddenFrom="md" w="fit-content">
      All conversations
    </Button>
  );
  if (detail.isPending)
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the conversation">
        {back}
        <Skeleton height={28} width="50%" />
        <Skeleton height={260} />
      </Stack>
    );
  if (!detail.data)
    return (
      <Stack gap="sm">
        {back}
        <LoadErrorPanel message={detail.error?.message ?? 'The conversation could not be loaded.'} onRetry={() => void detail.refetch()} />
      </Stack>
    );

  const { messages } = detail.data;
  const { conversation: c, contact } = detail.data;
  const customerName = contact?.name ?? c.msisdn;
  const isOpen = c.status === 'open';
  // A USSD caller's callback request (docs/inbox.md): called back by phone, then marked done.
  const isCallback = c.channel === 'ussd';

  async function assign(assigneeId: string | null) {
    const reply = await call(assignInboxConversation, { params: { conversationId }, body: { assigneeId } });
    if (!isOk(reply)) showToast({ color: 'red', title: 'Not assigned', message: failureText(reply, 'The conversation was not assigned.') });
    await queryClient.invalidateQueries({ queryKey: INBOX_KEY });
  }

  return (
    <Stack gap="sm" data-testid="inbox-conversation">
      {back}
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Title order={2} fz="lg" style={{ overflowWrap: 'anywhere' }}>
            {customerName}
          </Title>
          <Text size="sm" c="dimmed">
            {contact?.name ? `${c.msisdn} · ` : ''}
            {c.appName}
          </Text>
          <Group gap={6} mt={4}>
            <Badge variant="light" color={isOpen ? 'teal' : 'gray'} data-testid="inbox-status">
              {isOpen ? 'Open' : 'Closed'}
            </Badge>
            <Badge variant="light" color={c.assigneeId ? 'blue' : 'orange'} data-testid="inbox-assignee">
              {describeAssignee(c, myId, agents)}
            </Badge>
            {isCallback && (
              <Badge variant="light" color="grape" leftSection={<IconPhone size={12} />} data-testid="inbox-callback">
                Callback request
              </Badge>
            )}
          </Group>
          {isCallback && isOpen && (
            <Button component="a" href={`tel:${c.msisdn}`} size="xs" variant="light" mt="xs" leftSection={<IconPhone size={16} />}>
              Call {c.msisdn}
            </Button>
          )}
        </div>
        {isOpen && (
          <Group gap="xs">
            {c.assigneeId !== myId && (
              <Button variant="default" size="xs" leftSection={<IconUserCheck size={16} />} onClick={() => myId && void assign(myId)}>
                Assign to me
              </Button>
            )}
            <Select
              size="xs"
              w={170}
              aria-label="Assign to"
              placeholder="Unassigned"
              clearable
              allowDeselect={false}
              value={c.assigneeId}
              data={agents.map((a) => ({ value: a.userId, label: a.userId === myId ? `${a.fullName} (you)` : a.fullName }))}
              onChange={(value) => void assign(value)}
              data-testid="inbox-assign"
            />
            <Button
              color="red"
              variant="light"
              size="xs"
              leftSection={<IconX size={16} />}
              onClick={() =>
                confirm(
                  isCallback
                    ? {
                        title: 'Mark this callback request done?',
                        question: `It moves to Closed. If ${customerName} asks again from ${c.appName}, a new request opens.`,
                        confirmLabel: 'Mark done',
                        done: { title: 'Callback request done', message: 'It is in the Closed tab.' },
                        refused: { title: 'Not marked done', message: 'The callback request could not be marked done.' },
                        call: () => call(closeInboxConversation, { params: { conversationId } }),
                      }
                    : {
                        title: 'Close this conversation?',
                        question: `${customerName} is handed back to ${c.appName}: their next message starts the bot's flow again, and no agent can reply until the bot hands them over again.`,
                        confirmLabel: 'Close conversation',
                        done: { title: 'Conversation closed', message: 'The customer is talking to the bot again.' },
                        refused: { title: 'Not closed', message: 'The conversation could not be closed.' },
                        call: () => call(closeInboxConversation, { params: { conversationId } }),
                      },
                )
              }
            >
              {isCallback ? 'Mark done' : 'Close'}
            </Button>
          </Group>
        )}
      </Group>
      <InboxThread conversation={c} messages={messages} customerName={customerName} myId={myId} />
      <InboxComposer key={conversationId} detail={detail.data} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <HandoffPanel conversation={c} />
        <ContactPanel contact={contact} canOpen={!isAgent} />
      </SimpleGrid>
    </Stack>
  );
}
