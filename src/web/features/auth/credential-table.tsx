import { Table, type TableTdProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadErrorAlert } from '../../components/load-error-alert';

export interface CredentialColumn<T> {
  /** Empty for the actions column. */
  header: string;
  cellProps?: TableTdProps;
  render: (credential: T) => ReactNode;
}

interface CredentialTableProps<T extends { uuid: string }> {
  credentials: T[] | undefined;
  error: Error | null;
  /** The load error's title ('API keys not loaded'). */
  errorTitle: string;
  onRetry: () => void;
  /** Shown when the account has none. */
  empty: ReactNode;
  columns: CredentialColumn<T>[];
  /** The table's accessible name. */
  label: string;
  testId: string;
  minWidth: number;
  verticalSpacing: 'xs' | 'sm';
  /** A credential that no longer works is dimmed. */
  isDimmed?: (credential: T) => boolean;
}

/**
 * Account Settings' lists of credentials one can revoke (API keys, remembered devices): the load error, the
 * empty note, then a table with the revoke button in its last column.
 */
export function CredentialTable<T extends { uuid: string }>({
  credentials,
  error,
  errorTitle,
  onRetry,
  empty,
  columns,
  label,
  testId,
  minWidth,
  verticalSpacing,
  isDimmed,
}: CredentialTableProps<T>) {
  return (
    <>
      {error && <LoadErrorAlert title={errorTitle} message={error.message} onRetry={onRetry} />}
      {credentials && credentials.length === 0 && empty}
      {credentials && credentials.length > 0 && (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table verticalSpacing={verticalSpacing} aria-label={label} data-testid={testId}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column, index) => (
                  <Table.Th key={column.header || index}>{column.header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {credentials.map((credential) => (
                <Table.Tr key={credential.uuid} c={isDimmed?.(credential) ? 'dimmed' : undefined}>
                  {columns.map((column, index) => (
                    <Table.Td key={column.header || index} {...column.cellProps}>
                      {column.render(credential)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
