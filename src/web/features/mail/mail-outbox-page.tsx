import { Badge, Stack, Text } from '@mantine/core';
import { IconMailbox } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { OutboxMail } from '../../../shared/api/mail.schema';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { PageHeader } from '../../components/page-header';
import { callQuery } from '../../lib/call';
import { formatTime } from '../../lib/table-export';
import { findOutboxMails } from '../../../shared/api/mail.calls';
import { MAIL_OUTBOX_LIMIT } from './mail.api';
import { type ListColumn, ListTable } from '../../components/list-table';
import { RoleGuard } from '../../components/role-guard';

export const MAIL_OUTBOX_EMPTY_TEXT =
  'Password resets, sign-in notices, plan and extension reminders appear here as the platform sends them. Without SMTP_URL (the local mail provider) they stay here and in the server log, and nothing is delivered.';

const STATUSES: Record<OutboxMail['status'], { label: string; color: string }> = {
  outbox: { label: 'Kept here', color: 'gray' },
  sent: { label: 'Sent', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

/** Mail Outbox (/admin/mail-outbox, super admins): every mail the platform sent or kept, newest first. */
export function MailOutboxPage() {
  return (
    <RoleGuard audience="mailOutbox.read">
      <MailOutbox />
    </RoleGuard>
  );
}

function MailOutbox() {
  const mailsQuery = useQuery(callQuery(findOutboxMails, { query: { limit: MAIL_OUTBOX_LIMIT } }, 'The mail outbox could not be loaded.'));
  const columns: ListColumn<OutboxMail>[] = [
    {
      header: 'Time',
      visibleFrom: 'sm',
      width: 170,
      render: (mail) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatTime(mail.createdAt)}
        </Text>
      ),
    },
    {
      header: 'To',
      visibleFrom: 'sm',
      render: (mail) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {mail.to}
        </Text>
      ),
    },
    {
      header: 'Mail',
      cellProps: { style: { minWidth: 0 } },
      render: (mail) => (
        <>
          {/* On a phone the time and the address fold in here. */}
          <Text size="xs" c="gray.7" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
            {formatTime(mail.createdAt)} · {mail.to}
          </Text>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {mail.subject}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {mail.body}
          </Text>
        </>
      ),
    },
    {
      header: 'Status',
      render: (mail) => (
        // A set width, so the table never squeezes the label into an ellipsis.
        <Badge variant="light" color={STATUSES[mail.status].color} w="max-content">
          {STATUSES[mail.status].label}
        </Badge>
      ),
    },
  ];
  return (
    <Stack gap="xl">
      <PageHeader
        title="Mail Outbox"
        description="Every mail the platform sent, newest first. They hold password-reset links, so only super admins see them."
      />
      <ListSection
        query={mailsQuery}
        loadingLabel="Loading the mail outbox"
        errorTitle="Mail outbox not loaded"
        errorTestId="mail-outbox-error"
        empty={
          <EmptyPanel
            testId="mail-outbox-empty"
            icon={<IconMailbox size={28} />}
            title="No mail yet"
            description={MAIL_OUTBOX_EMPTY_TEXT}
          />
        }
      >
        {(mails) => (
          <ListTable
            rows={mails}
            columns={columns}
            getRowKey={(mail) => mail.id}
            label="Mail Outbox"
            testId="mail-outbox-table"
            pagedNoun={mails.length === 1 ? 'mail' : 'mails'}
          />
        )}
      </ListSection>
    </Stack>
  );
}
