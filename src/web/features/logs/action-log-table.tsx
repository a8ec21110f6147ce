import { ActionIcon, Badge, Code, Paper, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { formatTime } from '../../lib/table-export';
import { formatLogData } from './action-log-terminal';
import type { LogEntry } from './logs.api';

const LEVEL_COLOURS: Record<string, string> = { system: 'blue', debug: 'gray', info: 'teal', error: 'red' };

const COLUMNS: DataTableColumn<LogEntry>[] = [
  { header: 'Time', cellProps: { style: { whiteSpace: 'nowrap' } }, render: (log) => formatTime(log.time) },
  {
    header: 'Level',
    render: (log) => (
      <Badge variant="light" color={LEVEL_COLOURS[log.logLevel] ?? 'gray'}>
        {log.logLevel}
      </Badge>
    ),
  },
  { header: 'Plugin:Action:Menu', cellProps: { ff: 'monospace', fz: 'xs' }, render: (log) => log.pluginActionMenu },
  { header: 'Message', cellProps: { style: { wordBreak: 'break-word' } }, render: (log) => log.message },
  {
    header: 'Details',
    width: 80,
    render: (_, { isOpen, toggle }) => (
      <ActionIcon variant="subtle" aria-label={isOpen ? 'Hide details' : 'Show details'} aria-expanded={isOpen} onClick={toggle}>
        {isOpen ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
      </ActionIcon>
    ),
  },
];

/** Table View: Time, Level, Plugin:Action:Menu, Message, Details; paged, with copy and CSV of the loaded rows. */
export function ActionLogTable({ logs, appId }: { logs: LogEntry[]; appId: string }) {
  const getTable = () => ({
    headers: ['Time', 'Level', 'Plugin:Action:Menu', 'Message', 'Details'],
    rows: logs.map((log) => [
      log.time,
      log.logLevel,
      log.pluginActionMenu,
      log.message,
      log.data === null || log.data === undefined ? '' : JSON.stringify(log.data),
    ]),
  });
  return (
    <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }}>
      <DataTable
        rows={logs}
        columns={COLUMNS}
        getRowKey={(log) => log.id}
        summary={
          <Text size="sm" c="dimmed">
            Ordered by level (system, debug, info, error), then by time.
          </Text>
        }
        exportButtons={{ fileName: `logs-${appId}`, getTable, disabled: logs.length === 0 }}
        minWidth={720}
        verticalSpacing="xs"
        testId="log-table"
        emptyText="No logs found"
        renderDetails={(log) => (
          <Code block data-testid="log-details">
            {formatLogData(log.data) || 'No details'}
          </Code>
        )}
      />
    </Paper>
  );
}
