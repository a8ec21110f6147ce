import { Anchor, Badge, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAddressBook, IconDownload, IconFileImport, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { exportContacts, findContacts } from '../../../shared/api/contacts.calls';
import type { Contact, ContactFilter } from '../../../shared/api/contacts.schema';
import { CONSENT_CHANNELS, type ConsentChannel } from '../../../shared/contact-consent';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { type ListColumn, ListTable } from '../../components/list-table';
import { PageHeader } from '../../components/page-header';
import { SearchForm } from '../../components/search-form';
import { failureText, isOk } from '../../lib/api';
import { callQuery, downloadCall } from '../../lib/call';
import { formatTime } from '../../lib/table-export';
import { showToast } from '../../lib/toast';
import { ContactImportDialog } from './contact-import-dialog';
import {
  CHANNEL_LABELS,
  CONSENT_COLORS,
  CONSENT_STATUS_LABELS,
  CONTACTS_PAGE,
  consentStatusOf,
  contactPath,
  SUBSCRIBER_DATA_PATH,
} from './contacts.api';

export const CONTACTS_EMPTY_TEXT = 'They appear when someone dials your app or writes to your bot, or import a CSV.';

const CHANNEL_OPTIONS = CONSENT_CHANNELS.map((value) => ({ value, label: CHANNEL_LABELS[value] }));
const STATUS_OPTIONS = Object.entries(CONSENT_STATUS_LABELS).map(([value, label]) => ({ value, label }));

/** The filters as the address bar keeps them, so Back from a contact's page finds the same list. */
function readFilter(params: URLSearchParams): ContactFilter {
  const channel = (value: string | null) => (CONSENT_CHANNELS.includes(value as ConsentChannel) ? (value as ConsentChannel) : undefined);
  const status = params.get('consentStatus');
  return {
    search: params.get('search') || undefined,
    attribute: params.getAll('attribute').filter((a) => a.includes('=')),
    consentChannel: channel(params.get('consentChannel')),
    consentStatus: status === 'in' || status === 'out' || status === 'never' ? status : undefined,
    seenOn: channel(params.get('seenOn')),
  };
}

const isFiltered = (f: ContactFilter) => Boolean(f.search || f.attribute?.length || f.consentChannel || f.seenOn);

/** The latest time the contact was seen on any channel. */
function lastSeenOf(contact: Contact): string | null {
  const times = CONSENT_CHANNELS.map((c) => contact.seen[c].lastSeen).filter((t): t is string => t !== null);
  return times.sort().at(-1) ?? null;
}

function ConsentBadges({ contact }: { contact: Contact }) {
  return (
    <Group gap={4} wrap="wrap">
      {CONSENT_CHANNELS.map((channel) => {
        const status = consentStatusOf(contact, channel);
        return (
          <Badge
            key={channel}
            variant="light"
            color={CONSENT_COLORS[status]}
            size="sm"
            title={`${CHANNEL_LABELS[channel]}: ${CONSENT_STATUS_LABELS[status]}`}
          >
            {CHANNEL_LABELS[channel]} {status === 'never' ? '—' : status}
          </Badge>
        );
      })}
    </Group>
  );
}

/** Contacts (/contacts): the account's contacts, searched and filtered, a page at a time; import and export CSV. */
export function ContactListPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const filter = readFilter(params);
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  // The form's fields, applied on Search.
  const [search, setSearch] = useState(filter.search ?? '');
  const [firstAttribute] = filter.attribute ?? [];
  const [attributeKey, setAttributeKey] = useState(firstAttribute?.split('=')[0] ?? '');
  const [attributeValue, setAttributeValue] = useState(firstAttribute?.slice(firstAttribute.indexOf('=') + 1) ?? '');
  const [consentChannel, setConsentChannel] = useState<string | null>(filter.consentChannel ?? null);
  const [consentStatus, setConsentStatus] = useState<string | null>(filter.consentStatus ?? null);
  const [seenOn, setSeenOn] = useState<string | null>(filter.seenOn ?? null);

  // Pages go by number (the reply's cursors): as fast deep down as on the first page. The address bar keeps the
  // page's number (for the count) and its cursor; an address with a page number and no cursor reads by offset.
  const after = params.get('after') || undefined;
  const before = after ? undefined : params.get('before') || undefined;
  const cursor = after ? { after } : before ? { before } : { offset: page * CONTACTS_PAGE };
  const query = { ...filter, limit: CONTACTS_PAGE, ...cursor };
  const contactsQuery = useQuery({
    ...callQuery(findContacts, { query }, 'The contacts could not be loaded.'),
    placeholderData: keepPreviousData,
  });
  const listQuery = { ...contactsQuery, data: contactsQuery.data?.contacts };

  const apply = () => {
    const next = new URLSearchParams();
    if (search.trim()) next.set('search', search.trim());
    if (attributeKey.trim()) next.append('attribute', `${attributeKey.trim()}=${attributeValue}`);
    if (consentChannel && consentStatus) {
      next.set('consentChannel', consentChannel);
      next.set('consentStatus', consentStatus);
    }
    if (seenOn) next.set('seenOn', seenOn);
    setParams(next);
  };
  const clear = () => {
    setSearch('');
    setAttributeKey('');
    setAttributeValue('');
    setConsentChannel(null);
    setConsentStatus(null);
    setSeenOn(null);
    setParams(new URLSearchParams());
  };
  const goToPage = (next: number, cursor: { after: string } | { before: string } | null) => {
    const copy = new URLSearchParams(params);
    for (const key of ['page', 'after', 'before']) copy.delete(key);
    if (next > 0) {
      copy.set('page', String(next));
      if (cursor && 'after' in cursor) copy.set('after', cursor.after);
      if (cursor && 'before' in cursor) copy.set('before', cursor.before);
    }
    setParams(copy);
  };
  const nextAfter = contactsQuery.data?.nextAfter ?? null;
  const previousBefore = contactsQuery.data?.previousBefore ?? null;
  const exportList = async () => {
    setExporting(true);
    const reply = await downloadCall(exportContacts, { body: filter }, 'contacts.csv');
    setExporting(false);
    if (!isOk(reply))
      showToast({ color: 'red', title: 'Export failed', message: failureText(reply, 'The contacts could not be exported.') });
  };

  const columns: ListColumn<Contact>[] = [
    {
      header: 'Number',
      render: (c) => (
        <>
          <Anchor component={Link} to={contactPath(c.contactId)} size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {c.msisdn}
          </Anchor>
          <Text size="sm" hiddenFrom="sm" c={c.name ? undefined : 'dimmed'}>
            {c.name ?? 'No name'}
          </Text>
          <Stack hiddenFrom="md" mt={4} gap={4}>
            <ConsentBadges contact={c} />
          </Stack>
        </>
      ),
    },
    {
      header: 'Name',
      visibleFrom: 'sm',
      render: (c) => (
        <Text size="sm" c={c.name ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
          {c.name ?? 'No name'}
        </Text>
      ),
    },
    { header: 'Language', visibleFrom: 'lg', render: (c) => <Text size="sm">{c.language ?? '—'}</Text> },
    { header: 'Consent', visibleFrom: 'md', render: (c) => <ConsentBadges contact={c} /> },
    {
      header: 'Last seen',
      visibleFrom: 'sm',
      render: (c) => {
        const seen = lastSeenOf(c);
        return (
          <Text size="sm" c={seen ? undefined : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
            {seen ? formatTime(seen) : 'Never'}
          </Text>
        );
      },
    },
  ];

  const filtered = isFiltered(filter);
  return (
    <Stack gap="xl">
      <PageHeader
        title="Contacts"
        description="The people your apps and bots talk to, one per phone number whichever channel they came by: their details, consent per channel and sessions."
        action={
          <Group gap="sm">
            <Button variant="subtle" component={Link} to={SUBSCRIBER_DATA_PATH}>
              Subscriber data
            </Button>
            <Button variant="default" leftSection={<IconDownload size={16} />} loading={exporting} onClick={() => void exportList()}>
              Export CSV
            </Button>
            <Button leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
              Import CSV
            </Button>
          </Group>
        }
      />
      <SearchForm label="Search contacts" onSearch={apply}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
            <TextInput
              label="Search"
              placeholder="Number start (+23324) or part of a name"
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              leftSection={<IconSearch size={16} />}
            />
            <Group gap="xs" grow align="flex-end" wrap="nowrap">
              <TextInput
                label="Attribute"
                placeholder="key (city)"
                value={attributeKey}
                onChange={(e) => setAttributeKey(e.currentTarget.value)}
              />
              <TextInput
                label="equals"
                aria-label="Attribute value"
                placeholder="value (Accra)"
                value={attributeValue}
                onChange={(e) => setAttributeValue(e.currentTarget.value)}
              />
            </Group>
            <Select label="Seen on" placeholder="Any channel" data={CHANNEL_OPTIONS} value={seenOn} onChange={setSeenOn} clearable />
            <Select
              label="Consent on"
              placeholder="Any channel"
              data={CHANNEL_OPTIONS}
              value={consentChannel}
              onChange={(value) => {
                setConsentChannel(value);
                if (value && !consentStatus) setConsentStatus('in');
              }}
              clearable
            />
            <Select
              label="Consent"
              placeholder="Any"
              data={STATUS_OPTIONS}
              value={consentStatus}
              onChange={setConsentStatus}
              disabled={!consentChannel}
              clearable
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed" data-testid="contacts-search-rule">
            Search: digits find a number's start; 1-2 letters: a name's start; 3 or more: any part of a name.
          </Text>
          <Group gap="sm">
            <Button type="submit" leftSection={<IconSearch size={16} />}>
              Search
            </Button>
            {filtered && (
              <Button variant="subtle" onClick={clear}>
                Clear filters
              </Button>
            )}
          </Group>
        </Stack>
      </SearchForm>
      <ListSection
        query={listQuery}
        loadingLabel="Loading contacts"
        errorTitle="Contacts not loaded"
        errorTestId="contacts-error"
        empty={
          filtered || page > 0 ? (
            <EmptyPanel
              testId="contacts-no-match"
              icon={<IconSearch size={28} />}
              title="No contact matches"
              description="No contact matches these filters. Change them or clear them to see every contact."
            />
          ) : (
            <EmptyPanel
              testId="contacts-empty"
              icon={<IconAddressBook size={28} />}
              title="No contacts yet"
              description={CONTACTS_EMPTY_TEXT}
              action={<Button onClick={() => setImporting(true)}>Import CSV</Button>}
            />
          )
        }
      >
        {(rows) => (
          <Stack gap="sm">
            <ListTable
              rows={rows}
              columns={columns}
              getRowKey={(c) => c.contactId}
              getRowMark={(c) => c.msisdn}
              label="Contacts"
              testId="contacts-table"
              onRowClick={(c) => navigate(contactPath(c.contactId))}
            />
            <Group justify="space-between">
              <Text size="sm" c="dimmed" data-testid="contacts-count">
                {`${page * CONTACTS_PAGE + 1}-${page * CONTACTS_PAGE + rows.length}${contactsQuery.data?.hasMore ? '' : ` of ${page * CONTACTS_PAGE + rows.length}`}`}
              </Text>
              <Group gap="xs">
                <Button
                  variant="default"
                  size="xs"
                  disabled={page === 0}
                  onClick={() => goToPage(page - 1, previousBefore ? { before: previousBefore } : null)}
                >
                  Previous
                </Button>
                <Button
                  variant="default"
                  size="xs"
                  disabled={!contactsQuery.data?.hasMore || !nextAfter}
                  onClick={() => nextAfter && goToPage(page + 1, { after: nextAfter })}
                >
                  Next
                </Button>
              </Group>
            </Group>
          </Stack>
        )}
      </ListSection>
      <ContactImportDialog opened={importing} onClose={() => setImporting(false)} />
    </Stack>
  );
}
