import { Group, Pagination, Paper, Stack, Table, Text, type MantineBreakpoint, type TableTdProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePagedRows } from '../lib/use-paged-rows';

export interface ListColumn<T> {
  header: string;
  /** Shown from this width up; below it the column's content folds into the first column (its render shows it). */
  visibleFrom?: MantineBreakpoint;
  align?: 'center' | 'right';
  width?: number;
  cellProps?: TableTdProps;
  render: (row: T) => ReactNode;
}

interface ListTableProps<T> {
  rows: T[];
  columns: ListColumn<T>[];
  getRowKey: (row: T) => string;
  /** The table's accessible name. */
  label: string;
  testId: string;
  /** Marks each row (`data-row`), for tests and for finding a row by its value. */
  getRowMark?: (row: T) => string;
  /** A click anywhere on a row (a pointer's shortcut: the row's own control stays what the keyboard uses). */
  onRowClick?: (row: T) => void;
  /**
   * For lists that grow (the SMS and mail outboxes): ten rows a page (as the monitoring screens page theirs) with
   * the count above, in which a row is called this ('messages', 'mails').
   */
  pagedNoun?: string;
}

type ListTableRowsProps<T> = Omit<ListTableProps<T>, 'pagedNoun'>;

/**
 * The console's list table (shortcodes, merchants, admins, bots, billing, the outboxes): a bordered table whose
 * secondary columns fold into the first on a phone, so nothing scrolls sideways at 390 px. The monitoring
 * screens' table, with export and rows that open, is DataTable.
 */
export function ListTable<T>({ pagedNoun, ...props }: ListTableProps<T>) {
  return pagedNoun ? <PagedListTable {...props} noun={pagedNoun} /> : <ListTableRows {...props} />;
}

function PagedListTable<T>({ noun, rows, ...props }: ListTableRowsProps<T> & { noun: string }) {
  const { page, setPage, total, pageRows, pageStart } = usePagedRows(rows);
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" data-testid={`${props.testId}-count`}>
        {total > 1 ? `${pageStart + 1}-${pageStart + pageRows.length} of ${rows.length} ${noun}` : `${rows.length} ${noun}`}
      </Text>
      <ListTableRows rows={pageRows} {...props} />
      {total > 1 && (
        <Group justify="center">
          <Pagination total={total} value={page} onChange={setPage} size="sm" aria-label={`${props.label} pages`} />
        </Group>
      )}
    </Stack>
  );
}

function ListTableRows<T>({ rows, columns, getRowKey, label, testId, getRowMark, onRowClick }: ListTableRowsProps<T>) {
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
      <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label={label} data-testid={testId}>
        <Table.Thead bg="gray.0">
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.header} visibleFrom={column.visibleFrom} ta={column.align} w={column.width}>
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr
              key={getRowKey(row)}
              data-row={getRowMark?.(row)}
              onClick={onRowClick && (() => onRowClick(row))}
              style={onRowClick && { cursor: 'pointer' }}
            >
              {columns.map((column) => (
                <Table.Td key={column.header} visibleFrom={column.visibleFrom} ta={column.align} {...column.cellProps}>
                  {column.render(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
