import { ActionIcon, Badge, Code, Group, Pagination, Paper, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { formatLogData } from './action-log-terminal';
import type { LogEntry } from './monitoring.api';
import { formatTime } from './table-export';
import { TableExportButtons } from './table-export-buttons';
import { usePagedRows } from './use-paged-rows';

const LEVEL_COLOURS: Record<string, string> = { system: 'blue', debug: 'gray', info: 'teal', error: 'red' };

/** Table View: Time, Level, Plugin:Action:Menu, Message, Details; paged, with copy and CSV of the loaded rows. */
export function ActionLogTable({ logs, appId }: { logs: LogEntry[]; appId: string }) {
  const { page, setPage, total, pageRows } = usePagedRows(logs);
  const [openId, setOpenId] = useState<number | null>(null);
  const getTable = () => ({
    headers: ['Time', 'Level', 'Plugin:Action:Menu', 'Message', 'Details'],
    rows: logs.map((log) => [log.time, log.logLevel, log.pluginActionMenu, log.message, log.data === null || log.data === undefined ? '' : JSON.stringify(log.data)]),
  });
  return (
    <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }}>
      <Group justify="space-between" mb="sm">
        <Text size="sm" c="dimmed">
          Ordered by level: system, debug, info, error.
        </Text>
        <TableExportButtons fileName={`logs-${appId}`} getTable={getTable} disabled={logs.length === 0} />
      </Group>
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover data-testid="log-table" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>Level</Table.Th>
              <Table.Th>Plugin:Action:Menu</Table.Th>
              <Table.Th>Message</Table.Th>
              <Table.Th w={80}>Details</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pageRows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text c="dimmed" ta="center" py="md">
                    No logs found
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {pageRows.map((log) => {
              const isOpen = openId === log.id;
              return (
                <Fragment key={log.id}>
                  <Table.Tr>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(log.time)}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={LEVEL_COLOURS[log.logLevel] ?? 'gray'}>
                        {log.logLevel}
                      </Badge>
                    </Table.Td>
                    <Table.Td ff="monospace" fz="xs">
                      {log.pluginActionMenu}
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{log.message}</Table.Td>
                    <Table.Td>
                      <ActionIcon variant="subtle" aria-label={isOpen ? 'Hide details' : 'Show details'} aria-expanded={isOpen} onClick={() => setOpenId(isOpen ? null : log.id)}>
                        {isOpen ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                  {isOpen && (
                    <Table.Tr>
                      <Table.Td colSpan={5}>
                        <Code block data-testid="log-details">
                          {formatLogData(log.data) || 'No details'}
                        </Code>
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
  );
}
