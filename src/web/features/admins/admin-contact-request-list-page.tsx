import { Anchor, Stack, Text } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { formatTime } from '../../lib/table-export';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import type { ContactRequest } from './admins.api';
import { useContactRequests } from './use-admins';
import { PageHeader } from '../../components/page-header';
import { type ListColumn, ListTable } from '../../components/list-table';
import { RoleGuard } from '../../components/role-guard';

/** Contact Requests (admins): what /contact and the pricing page's Talk to us sent, newest first. */
export function AdminContactRequestListPage() {
  return (
    <RoleGuard audience="contactRequest.read">
      <ContactRequests />
    </RoleGuard>
  );
}

function ContactRequests() {
  const requestsQuery = useContactRequests();
  const columns: ListColumn<ContactRequest>[] = [
    {
      header: 'Received',
      width: 180,
      render: (r) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatTime(r.createdAt)}
        </Text>
      ),
    },
    {
      header: 'From',
      visibleFrom: 'sm',
      render: (r) => (
        <>
          <Anchor href={`mailto:${r.email}`} size="sm">
            {r.email}
          </Anchor>
          {r.mobile && (
            <Text size="xs" c="gray.7">
              {r.mobile}
            </Text>
          )}
        </>
      ),
    },
    {
      header: 'Message',
      cellProps: { style: { minWidth: 0 } },
      render: (r) => (
        <>
          <Text size="sm" fw={600}>
            {r.subject}
          </Text>
          <Text size="xs" c="gray.7" hiddenFrom="sm">
            {r.email}
            {r.mobile ? ` · ${r.mobile}` : ''}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {r.message}
          </Text>
        </>
      ),
    },
  ];
  return (
    <Stack gap="xl">
      <PageHeader title="Contact Requests" description="Messages from the contact page and the pricing page's Talk to us. Reply by mail." />
      <ListSection
        query={requestsQuery}
        loadingLabel="Loading contact requests"
        errorTitle="Contact requests not loaded"
        empty={
          <EmptyPanel
            testId="contact-empty"
            icon={<IconMail size={28} />}
            title="No contact requests"
            description="Messages sent from the contact form appear here."
          />
        }
      >
        {(requests) => (
          <ListTable
            rows={requests}
            columns={columns}
            getRowKey={(r) => r.id}
            getRowMark={(r) => r.email}
            label="Contact Requests"
            testId="contact-requests-table"
          />
        )}
      </ListSection>
    </Stack>
  );
}
