import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconBrandWhatsapp, IconDeviceMobile, IconMessage, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { deleteContact, getContact, updateContact } from '../../../shared/api/contacts.calls';
import type { ContactDetail, ContactFirstMessage, ContactSession, UpdateContactBody } from '../../../shared/api/contacts.schema';
import { CONSENT_CHANNELS, type ConsentChannel } from '../../../shared/contact-consent';
import { BackLink } from '../../components/back-link';
import { FormAlert } from '../../components/form-alert';
import { LoadErrorPanel } from '../../components/load-error-panel';
import { failureText, isOk } from '../../lib/api';
import { call, callQuery } from '../../lib/call';
import { sessionPathUrl } from '../../lib/paths';
import { formatTime } from '../../lib/table-export';
import { showToast } from '../../lib/toast';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { ChatTicks } from '../bots/chat-ticks';
import { CHANNEL_LABELS, CONSENT_COLORS, CONSENT_STATUS_LABELS, CONTACTS_KEY, CONTACTS_PATH, consentStatusOf } from './contacts.api';

const CHANNEL_ICONS = { ussd: IconDeviceMobile, whatsapp: IconBrandWhatsapp, sms: IconMessage } as const;

/** What deleting erases and what it keeps (docs/contacts.md, "Deleting a contact"). */
export const DELETE_QUESTION =
  "This deletes the contact and erases the person from your apps' records: their number in every session becomes an anonymous token, the inputs they gave and their actions' results are deleted, and their log lines' text is erased. Kept: session counts and outcomes on the dashboard, payment transactions, SMS already sent and webhook deliveries already made. This cannot be undone; if they dial again they become a new contact.";

interface AttributeRow {
  key: string;
  value: string;
}

const toRows = (attributes: Record<string, string>): AttributeRow[] => Object.entries(attributes).map(([key, value]) => ({ key, value }));

/** The contact's editable fields: name, language and attributes as key/value rows. */
function DetailsForm({ contact }: { contact: ContactDetail }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(contact.name ?? '');
  const [language, setLanguage] = useState(contact.language ?? '');
  const [rows, setRows] = useState<AttributeRow[]>(toRows(contact.attributes));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async (body: UpdateContactBody) => {
    setSaving(true);
    const reply = await call(updateContact, { params: { contactId: contact.contactId }, body });
    setSaving(false);
    if (!isOk(reply)) return setError(failureText(reply, 'The contact could not be saved.'));
    setError(null);
    showToast({ color: 'teal', title: 'Contact saved', message: reply.message || 'Contact saved' });
    await queryClient.invalidateQueries({ queryKey: CONTACTS_KEY });
  };
  const submit = () =>
    save({
      name: name.trim() === '' ? null : name.trim(),
      language: language.trim() === '' ? null : language.trim(),
      attributes: Object.fromEntries(rows.filter((r) => r.key.trim() !== '').map((r) => [r.key.trim(), r.value])),
    });
  const setRow = (i: number, change: Partial<AttributeRow>) => setRows(rows.map((r, at) => (at === i ? { ...r, ...change } : r)));
  return (
    <Paper
      withBorder
      radius="lg"
      p="lg"
      component="form"
      aria-label="Contact details"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          Details
        </Title>
        <FormAlert message={error} onClose={() => setError(null)} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={200} />
          <TextInput
            label="Language"
            description="A code such as en, fr or tw"
            value={language}
            onChange={(e) => setLanguage(e.currentTarget.value)}
            maxLength={12}
          />
        </SimpleGrid>
        <Text size="sm" fw={500}>
          Attributes
        </Text>
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            No attributes. Menus that save to the contact, the API and imports add them.
          </Text>
        )}
        {rows.map((row, i) => (
          <Group key={i} gap="xs" wrap="nowrap" align="flex-start" data-testid="attribute-row">
            <TextInput
              aria-label="Attribute key"
              placeholder="key"
              value={row.key}
              onChange={(e) => setRow(i, { key: e.currentTarget.value })}
              w="40%"
            />
            <TextInput
              aria-label="Attribute value"
              placeholder="value"
              value={row.value}
              onChange={(e) => setRow(i, { value: e.currentTarget.value })}
              style={{ flex: 1 }}
              maxLength={500}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove ${row.key || 'attribute'}`}
              onClick={() => setRows(rows.filter((_, at) => at !== i))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group justify="space-between">
          <Button variant="subtle" leftSection={<IconPlus size={16} />} onClick={() => setRows([...rows, { key: '', value: '' }])}>
            Add attribute
          </Button>
          <Button type="submit" loading={saving}>
            Save
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Consent per channel: its status, when and how, and opt in or out (recorded as given in the console by you). */
function ConsentPanel({ contact }: { contact: ContactDetail }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const change = async (channel: ConsentChannel, status: 'in' | 'out') => {
    const reply = await call(updateContact, { params: { contactId: contact.contactId }, body: { consent: { [channel]: status } } });
    if (!isOk(reply)) return setError(failureText(reply, 'The consent could not be saved.'));
    setError(null);
    showToast({ color: 'teal', title: 'Consent saved', message: `${CHANNEL_LABELS[channel]}: ${CONSENT_STATUS_LABELS[status]}` });
    await queryClient.invalidateQueries({ queryKey: CONTACTS_KEY });
  };
  return (
    <Paper withBorder radius="lg" p="lg" aria-label="Consent">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Consent
        </Title>
        <Text size="sm" c="dimmed">
          Nothing outbound goes to a channel without an opt in. A change here is recorded as given in the console, by you.
        </Text>
        <FormAlert message={error} onClose={() => setError(null)} />
        {CONSENT_CHANNELS.map((channel) => {
          const consent = contact.consent[channel];
          const status = consentStatusOf(contact, channel);
          return (
            <Group key={channel} justify="space-between" wrap="wrap" gap="xs" data-consent={channel}>
              <Stack gap={2}>
                <Group gap="xs">
                  <Text size="sm" fw={600} w={80}>
                    {CHANNEL_LABELS[channel]}
                  </Text>
                  <Badge variant="light" color={CONSENT_COLORS[status]}>
                    {CONSENT_STATUS_LABELS[status]}
                  </Badge>
                </Group>
                {consent && (
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {formatTime(consent.at)} · {consent.source}
                    {consent.detail ? `: ${consent.detail}` : ''}
                  </Text>
                )}
              </Stack>
              <SegmentedControl
                size="xs"
                aria-label={`${CHANNEL_LABELS[channel]} consent`}
                value={status === 'never' ? '' : status}
                onChange={(value) => void change(channel, value as 'in' | 'out')}
                data={[
                  { value: 'in', label: 'Opt in' },
                  { value: 'out', label: 'Opt out' },
                ]}
              />
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}

function SeenPanel({ contact }: { contact: ContactDetail }) {
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Seen
        </Title>
        <Table fz="sm" aria-label="First and last seen per channel">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Channel</Table.Th>
              <Table.Th>First seen</Table.Th>
              <Table.Th>Last seen</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {CONSENT_CHANNELS.map((channel) => (
              <Table.Tr key={channel}>
                <Table.Td>{CHANNEL_LABELS[channel]}</Table.Td>
                <Table.Td>{contact.seen[channel].firstSeen ? formatTime(contact.seen[channel].firstSeen!) : 'Never'}</Table.Td>
                <Table.Td>{contact.seen[channel].lastSeen ? formatTime(contact.seen[channel].lastSeen!) : 'Never'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

const STATUS_COLORS: Record<string, string> = { completed: 'teal', abandoned: 'orange', failed: 'red' };

function TimelineEntry({ session }: { session: ContactSession }) {
  const channel = (session.channel === 'whatsapp' ? 'whatsapp' : 'ussd') as ConsentChannel;
  const Icon = CHANNEL_ICONS[channel];
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" data-session={session.sessionId} data-channel={channel}>
      <Icon size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Group gap="xs">
          <Text size="sm" fw={600}>
            {session.appName}
          </Text>
          <Badge size="sm" variant="outline" color="gray">
            {CHANNEL_LABELS[channel]}
          </Badge>
          <Badge size="sm" variant="light" color={STATUS_COLORS[session.status] ?? 'gray'}>
            {session.status}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {formatTime(session.startedAt)} – {formatTime(session.endedAt)} · {session.hopCount} {session.hopCount === 1 ? 'hop' : 'hops'} ·{' '}
          {session.environment} · {session.gateway}
        </Text>
        <Anchor component={Link} to={sessionPathUrl(session.appId, session.sessionId)} size="xs">
          The session's path
        </Anchor>
      </Stack>
    </Group>
  );
}

const SEND_COLORS: Record<ContactFirstMessage['status'], string> = { sending: 'gray', sent: 'teal', failed: 'red' };

/**
 * A WhatsApp message the account sent first: a template (its name and language) or the entry menu, from which bot
 * and linked number, what was recorded (sent, failed with the provider's words), and a template's ticks.
 */
function FirstMessageEntry({ message }: { message: ContactFirstMessage }) {
  const what = message.kind === 'template' ? `Template ${message.templateName ?? ''} (${message.templateLanguage ?? ''})` : 'Entry menu';
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" data-testid="contact-first-message" data-kind={message.kind}>
      <IconSend size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Group gap="xs">
          <Text size="sm" fw={600}>
            {message.appName}
          </Text>
          <Badge size="sm" variant="outline" color="gray">
            Sent first on WhatsApp
          </Badge>
          <Badge size="sm" variant="light" color={SEND_COLORS[message.status]}>
            {message.status}
          </Badge>
          {message.delivery && <ChatTicks status={message.delivery} />}
        </Group>
        <Text size="sm">
          {what}
          {message.mobileNumber ? ` from ${message.mobileNumber}` : ''}
        </Text>
        <Text size="xs" c="dimmed">
          {formatTime(message.createdAt)}
          {message.delivery ? ` · on WhatsApp: ${message.delivery.status}` : ''}
        </Text>
        {message.error && (
          <Text size="xs" c="red">
            {message.error}
          </Text>
        )}
      </Stack>
    </Group>
  );
}

type TimelineItem = { at: string; session: ContactSession } | { at: string; message: ContactFirstMessage };

/** The contact's sessions (by when they ended) and what was sent it first (by when it was sent), newest first. */
function toTimeline(contact: ContactDetail): TimelineItem[] {
  const items: TimelineItem[] = [
    ...contact.recentSessions.map((session) => ({ at: session.endedAt, session })),
    ...contact.firstMessages.map((message) => ({ at: message.createdAt, message })),
  ];
  return items.sort((a, b) => b.at.localeCompare(a.at));
}

function Timeline({ contact }: { contact: ContactDetail }) {
  const items = toTimeline(contact);
  if (items.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No sessions yet on any app or channel, and nothing sent first.
      </Text>
    );
  return (
    <Stack gap="md" data-testid="contact-timeline">
      {items.map((item) =>
        'session' in item ? (
          <TimelineEntry key={`${item.session.appId}:${item.session.sessionId}`} session={item.session} />
        ) : (
          <FirstMessageEntry key={item.message.id} message={item.message} />
        ),
      )}
      {(contact.recentSessions.length >= 20 || contact.firstMessages.length >= 20) && (
        <Text size="xs" c="dimmed">
          The 20 latest sessions and the 20 latest messages sent first.
        </Text>
      )}
    </Stack>
  );
}

/** A contact's page (/contacts/:contactId): details, consent, seen, the timeline of its sessions, edit and delete. */
export function ContactPage() {
  const { contactId = '' } = useParams();
  const navigate = useNavigate();
  const contactQuery = useQuery(callQuery(getContact, { params: { contactId } }, 'The contact could not be loaded.'));
  const confirm = useConfirmedCall(CONTACTS_KEY);
  const contact = contactQuery.data;

  const askDelete = () =>
    confirm({
      title: 'Delete this contact?',
      question: DELETE_QUESTION,
      confirmLabel: 'Delete and erase',
      done: { title: 'Contact deleted', message: 'Contact deleted' },
      refused: { title: 'Not deleted', message: 'The contact could not be deleted.' },
      call: () => call(deleteContact, { params: { contactId } }),
      onDone: () => navigate(CONTACTS_PATH),
    });

  return (
    <Stack gap="lg">
      <BackLink to={CONTACTS_PATH} label="Contacts" />
      {contactQuery.isPending && (
        <Stack gap="sm" aria-busy="true" aria-label="Loading the contact">
          <Skeleton height={32} width="40%" />
          <Skeleton height={160} />
        </Stack>
      )}
      {contactQuery.error && <LoadErrorPanel message={contactQuery.error.message} onRetry={() => void contactQuery.refetch()} />}
      {contact && (
        <>
          <Group justify="space-between" align="flex-end">
            <div>
              <Title order={1} fz={{ base: 26, sm: 32 }} data-testid="contact-title">
                {contact.name ?? contact.msisdn}
              </Title>
              <Text c="dimmed">
                {contact.msisdn} · added {formatTime(contact.createdAt)}
              </Text>
            </div>
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={askDelete}>
              Delete contact
            </Button>
          </Group>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <DetailsForm key={contact.updatedAt} contact={contact} />
            <Stack gap="lg">
              <ConsentPanel contact={contact} />
              <SeenPanel contact={contact} />
            </Stack>
          </SimpleGrid>
          <Paper withBorder radius="lg" p="lg">
            <Stack gap="md">
              <Title order={2} size="h4">
                Timeline
              </Title>
              <Timeline contact={contact} />
            </Stack>
          </Paper>
        </>
      )}
    </Stack>
  );
}
