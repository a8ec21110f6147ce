import { Group, Pagination, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { isOk } from '../../lib/api';
import { findCompletedSessions, findMenusLite, findUncompletedSessions, type SessionRow } from './monitoring.api';
import { MonitoringAppHeader } from './monitoring-app-header';
import { InputsToggle, SessionInputsTable } from './session-inputs-table';
import { formatTime, inputsAsText } from './table-export';
import { TableExportButtons } from './table-export-buttons';
import { usePagedRows } from './use-paged-rows';

type SessionListKind = 'completed' | 'uncompleted';

const COPY: Record<SessionListKind, { title: string; description: string; empty: string }> = {
  completed: { title: 'Recent Completed Sessions', description: 'Sessions the app brought to an end.', empty: 'No completed sessions yet' },
  uncompleted: { title: 'Uncompleted Sessions', description: 'Sessions the dialer abandoned, and the menu where they stopped.', empty: 'No uncompleted sessions yet' },
};

/** Sorted by the second column (MOBILE) ascending, as the spec's table does; ties keep the newest first. */
export const sortByMobile = (rows: SessionRow[]) => [...rows].sort((a, b) => a.mobile.localeCompare(b.mobile, undefined, { numeric: true }));

/**
 * Recent Completed Sessions (/app/completesession/{id}) and Uncompleted Sessions (/app/uncompletedsession/{id}):
 * ID, MOBILE, NETWORK, DATE (and STOPPED AT for abandoned ones), a plus button per row for the inputs.
 */
export function SessionListPage({ kind }: { kind: SessionListKind }) {
  const { id = '' } = useParams();
  const copy = COPY[kind];
  const sessions = useQuery({
    queryKey: ['monitoring', kind, id],
    queryFn: async (): Promise<SessionRow[]> => {
      const reply = await (kind === 'completed' ? findCompletedSessions(id) : findUncompletedSessions(id));
      if (isOk(reply) && Array.isArray(reply.data)) return reply.data;
      // Spec section 8: these errors are only logged.
      console.error(`Loading ${kind} sessions failed`, reply.message ?? reply);
      return [];
    },
  });
  const menus = useQuery({
    queryKey: ['monitoring', 'menus-lite', id],
    queryFn: async () => {
      const reply = await findMenusLite(id);
      if (!isOk(reply) || !Array.isArray(reply.data)) throw new Error(reply.message || 'Failed to fetch menus');
      return reply.data;
    },
    enabled: kind === 'uncompleted',
    retry: false,
  });
  const menuNames = useMemo(() => new Map((menus.data ?? []).map((m) => [m.uniqueId, m.userDefinedName || m.uniqueId])), [menus.data]);
  const stopMenu = (row: SessionRow) => (row.lastMenu ? (menuNames.get(row.lastMenu) ?? row.lastMenu) : 'Before the first menu');

  const rows = useMemo(() => sortByMobile(sessions.data ?? []), [sessions.data]);
  const { page, setPage, total, pageRows } = usePagedRows(rows);
  const [openId, setOpenId] = useState<number | null>(null);
  const isUncompleted = kind === 'uncompleted';
  const columns = isUncompleted ? 6 : 5;
  // On a phone the table keeps MOBILE and ACTIONS; the other columns fold into a line under the number.
  const isWide = useMediaQuery('(min-width: 48em)', true);

  const getTable = () => ({
    headers: ['ID', 'MOBILE', 'NETWORK', 'DATE', ...(isUncompleted ? ['STOPPED AT'] : []), 'INPUTS'],
    rows: rows.map((r) => [r.sessionId, r.mobile, r.network, formatTime(r.createdAt), ...(isUncompleted ? [stopMenu(r)] : []), inputsAsText(r.inputs)]),
  });

  return (
    <Stack gap="lg">
      <MonitoringAppHeader appId={id} screen={kind} title={copy.title} description={copy.description} />
      <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }}>
        <Group justify="space-between" mb="sm">
          <Text size="sm" c="dimmed" data-testid="session-count">
            {sessions.isPending ? 'Loading…' : `${rows.length} ${rows.length === 1 ? 'session' : 'sessions'}`}
          </Text>
          <TableExportButtons fileName={`${kind}-sessions-${id}`} getTable={getTable} disabled={rows.length === 0} />
        </Group>
        <Table.ScrollContainer minWidth={isWide ? (isUncompleted ? 720 : 600) : 0}>
          <Table striped highlightOnHover verticalSpacing="sm" data-testid="session-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th visibleFrom="sm">ID</Table.Th>
                <Table.Th aria-sort="ascending">MOBILE</Table.Th>
                <Table.Th visibleFrom="sm">NETWORK</Table.Th>
                <Table.Th visibleFrom="sm">DATE</Table.Th>
                {isUncompleted && <Table.Th visibleFrom="sm">STOPPED AT</Table.Th>}
                <Table.Th w={90}>ACTIONS</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {!sessions.isPending && rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={columns}>
                    <Text c="dimmed" ta="center" py="md">
                      {copy.empty}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {pageRows.map((row) => {
                const isOpen = openId === row.id;
                return (
                  <Fragment key={row.id}>
                    <Table.Tr data-testid="session-row">
                      <Table.Td ff="monospace" fz="sm" visibleFrom="sm">
                        {row.sessionId}
                      </Table.Td>
                      <Table.Td>
                        {row.mobile}
                        <Text hiddenFrom="sm" size="xs" c="dimmed" data-testid="session-row-details">
                          {row.network} · {formatTime(row.createdAt)}
                          {isUncompleted && ` · stopped at ${stopMenu(row)}`}
                          <br />
                          <Text span ff="monospace" fz="xs">
                            {row.sessionId}
                          </Text>
                        </Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">{row.network}</Table.Td>
                      <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                        {formatTime(row.createdAt)}
                      </Table.Td>
                      {isUncompleted && (
                        <Table.Td visibleFrom="sm" data-testid="stop-menu">
                          {stopMenu(row)}
                        </Table.Td>
                      )}
                      <Table.Td>
                        <InputsToggle isOpen={isOpen} of={row.sessionId} onToggle={() => setOpenId(isOpen ? null : row.id)} />
                      </Table.Td>
                    </Table.Tr>
                    {isOpen && (
                      <Table.Tr>
                        <Table.Td colSpan={columns} bg="gray.0">
                          <SessionInputsTable inputs={row.inputs} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {total > 1 && <Pagination total={total} value={page} onChange={setPage} mt="md" size="sm" />}
      </Paper>
    </Stack>
  );
}
