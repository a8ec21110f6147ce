import { Group, Pagination, Stack, Text } from '@mantine/core';
import { usePagedRows } from '../../lib/use-paged-rows';
import { type ShortCodeColumn, ShortCodeTable } from './shortcode-table';

interface ShortCodePagedTableProps<T> {
  rows: T[];
  columns: ShortCodeColumn<T>[];
  getRowKey: (row: T) => string;
  label: string;
  testId: string;
  /** What a row is called in the count ('messages', 'mails'). */
  noun: string;
}

/**
 * {@link ShortCodeTable} ten rows a page (as the monitoring screens page theirs) with the count above: for lists
 * that grow (the SMS and mail outboxes) and must still fold on a phone.
 */
export function ShortCodePagedTable<T>({ rows, columns, getRowKey, label, testId, noun }: ShortCodePagedTableProps<T>) {
  const { page, setPage, total, pageRows, pageStart } = usePagedRows(rows);
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" data-testid={`${testId}-count`}>
        {total > 1 ? `${pageStart + 1}-${pageStart + pageRows.length} of ${rows.length} ${noun}` : `${rows.length} ${noun}`}
      </Text>
      <ShortCodeTable rows={pageRows} columns={columns} getRowKey={getRowKey} label={label} testId={testId} />
      {total > 1 && (
        <Group justify="center">
          <Pagination total={total} value={page} onChange={setPage} size="sm" aria-label={`${label} pages`} />
        </Group>
      )}
    </Stack>
  );
}
