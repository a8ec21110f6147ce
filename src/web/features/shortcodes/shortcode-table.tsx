import { Paper, Table, type MantineBreakpoint, type TableTdProps } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ShortCodeColumn<T> {
  header: string;
  /** Shown from this width up; below it the column's content folds into the first column (its render shows it). */
  visibleFrom?: MantineBreakpoint;
  align?: 'center' | 'right';
  width?: number;
  cellProps?: TableTdProps;
  render: (row: T) => ReactNode;
}

interface ShortCodeTableProps<T> {
  rows: T[];
  columns: ShortCodeColumn<T>[];
  getRowKey: (row: T) => string;
  /** The table's accessible name. */
  label: string;
  testId: string;
  /** Marks each row (`data-row`), for tests and for finding a row by its value. */
  getRowMark?: (row: T) => string;
  /** A click anywhere on a row (a pointer's shortcut: the row's own control stays what the keyboard uses). */
  onRowClick?: (row: T) => void;
}

/**
 * The shortcode screens' tables: a bordered table whose secondary columns fold into the first on a phone, so
 * nothing scrolls sideways at 390 px.
 */
export function ShortCodeTable<T>({ rows, columns, getRowKey, label, testId, getRowMark, onRowClick }: ShortCodeTableProps<T>) {
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
