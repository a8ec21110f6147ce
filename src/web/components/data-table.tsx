import {
  Group,
  Pagination,
  Table,
  Text,
  type MantineBreakpoint,
  type MantineSpacing,
  type TableTdProps,
  type TableThProps,
} from '@mantine/core';
import { Fragment, useState, type ReactNode } from 'react';
import { usePagedRows } from '../lib/use-paged-rows';
import { TableExportButtons, type TableExportButtonsProps } from './table-export-buttons';

/** A row's details below it: whether they are open, and the switch (for the column that holds the button). */
export interface RowExpansion {
  isOpen: boolean;
  toggle: () => void;
}

export interface DataTableColumn<T> {
  header: string;
  /** Shown from this width up; on a phone the column folds into another cell (or goes). */
  visibleFrom?: MantineBreakpoint;
  width?: number;
  headerProps?: TableThProps;
  /** The cells' data-testid. */
  cellTestId?: string;
  cellProps?: TableTdProps | ((row: T) => TableTdProps);
  render: (row: T, expansion: RowExpansion) => ReactNode;
}

interface DataTableProps<T> {
  rows: T[];
  columns: DataTableColumn<T>[];
  /** A row's key, also what keeps its details open across pages; `index` counts from the first row of all pages. */
  getRowKey: (row: T, index: number) => string | number;
  /** The line beside the export buttons (a count, an order). */
  summary: ReactNode;
  /** Copy, CSV and (for a server-built file) Excel of the whole table, not only the page shown. */
  exportButtons: TableExportButtonsProps;
  minWidth: number;
  verticalSpacing?: MantineSpacing;
  testId: string;
  rowTestId?: string;
  /** The one row shown when there are no rows; none while null (the rows are loading, or the screen says it). */
  emptyText?: string | null;
  renderDetails?: (row: T) => ReactNode;
  detailsBackground?: string;
}

/** The monitoring screens' table: a summary with copy and CSV, ten rows a page, rows that open to show their details. */
export function DataTable<T>({
  rows,
  columns,
  getRowKey,
  summary,
  exportButtons,
  minWidth,
  verticalSpacing = 'sm',
  testId,
  rowTestId,
  emptyText = null,
  renderDetails,
  detailsBackground,
}: DataTableProps<T>) {
  const { page, setPage, total, pageRows, pageStart } = usePagedRows(rows);
  const [openKey, setOpenKey] = useState<string | number | null>(null);
  return (
    <>
      <Group justify="space-between" mb="sm">
        {summary}
        <TableExportButtons {...exportButtons} />
      </Group>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table striped highlightOnHover verticalSpacing={verticalSpacing} data-testid={testId}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.header} visibleFrom={column.visibleFrom} w={column.width} {...column.headerProps}>
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {emptyText !== null && rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Text c="dimmed" ta="center" py="md">
                    {emptyText}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {pageRows.map((row, i) => {
              const key = getRowKey(row, pageStart + i);
              const isOpen = openKey === key;
              const expansion = { isOpen, toggle: () => setOpenKey(isOpen ? null : key) };
              return (
                <Fragment key={key}>
                  <Table.Tr data-testid={rowTestId}>
                    {columns.map((column) => (
                      <Table.Td
                        key={column.header}
                        visibleFrom={column.visibleFrom}
                        data-testid={column.cellTestId}
                        {...(typeof column.cellProps === 'function' ? column.cellProps(row) : column.cellProps)}
                      >
                        {column.render(row, expansion)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                  {isOpen && renderDetails && (
                    <Table.Tr>
                      <Table.Td colSpan={columns.length} bg={detailsBackground}>
                        {renderDetails(row)}
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
    </>
  );
}
