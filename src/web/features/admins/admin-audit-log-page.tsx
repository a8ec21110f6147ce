import { Code, Stack, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import type { AuditEntry } from '../../../shared/api/admins.schema';
import { formatTime } from '../../lib/table-export';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { useAuditEntries } from './use-admins';
import { PageHeader } from '../../components/page-header';
import { type ListColumn, ListTable } from '../../components/list-table';
import { RoleGuard } from '../../components/role-guard';

/** `merchant_user_created` -> `Merchant user created`. */
const describeAction = (action: string) => {
  const text = action.replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

const describeDetails = (details: Record<string, unknown>) =>
  Object.entries(details)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ');

/** Audit Log (super admins): every admin action, newest first, with who and when. */
export function AdminAuditLogPage() {
  return (
    <RoleGuard audience="audit.read">
      <AuditLog />
    </RoleGuard>
  );
}

function AuditLog() {
  const entriesQuery = useAuditEntries();
  const columns: ListColumn<AuditEntry>[] = [
    {
      header: 'When',
      width: 180,
      render: (e) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatTime(e.createdAt)}
        </Text>
      ),
    },
    { header: 'Who', visibleFrom: 'sm', render: (e) => <Text size="sm">{e.actorEmail}</Text> },
    {
      header: 'What',
      cellProps: { style: { minWidth: 0 } },
      render: (e) => (
        <>
          <Text size="sm" fw={600}>
            {describeAction(e.action)}
          </Text>
          <Text size="xs" c="gray.7" hiddenFrom="sm">
            {e.actorEmail}
          </Text>
          <Text size="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
            {describeDetails(e.details)}
          </Text>
        </>
      ),
    },
    { header: 'Object', visibleFrom: 'lg', render: (e) => <Code fz="xs">{e.targetId}</Code> },
  ];
  return (
    <Stack gap="xl">
      <PageHeader
        title="Audit Log"
        description="Every admin action, and every inbox agent an account added or removed: who did what, to which object, and when. The newest 500."
      />
      <ListSection
        query={entriesQuery}
        loadingLabel="Loading the audit log"
        errorTitle="Audit log not loaded"
        empty={
          <EmptyPanel
            testId="audit-empty"
            icon={<IconHistory size={28} />}
            title="Nothing recorded yet"
            description="Admin actions appear here as they happen."
          />
        }
      >
        {(entries) => (
          <ListTable
            rows={entries}
            columns={columns}
            getRowKey={(e) => e.uuid}
            getRowMark={(e) => e.action}
            label="Audit Log"
            testId="audit-table"
          />
        )}
      </ListSection>
    </Stack>
  );
}
