import { Button, Table } from '@mantine/core';
import { IconChartBar, IconTable } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';

interface ChartTableProps {
  /** What the table holds, e.g. 'Sessions per hour by network'. */
  caption: string;
  /** The first column's header, then one per figure. */
  headers: string[];
  rows: (string | number)[][];
  testId: string;
  /** The chart the table stands in for. */
  children: ReactNode;
}

/**
 * A chart with its figures as a table behind a 'Show as table' switch: the text alternative a screen reader
 * reads (a drawing of bars says nothing), and the exact numbers for anyone who wants them.
 */
export function ChartTable({ caption, headers, rows, testId, children }: ChartTableProps) {
  const [isTableShown, setIsTableShown] = useState(false);
  const tableId = useId();
  return (
    <>
      <Button
        variant="subtle"
        size="compact-sm"
        mb="xs"
        leftSection={isTableShown ? <IconChartBar size={14} /> : <IconTable size={14} />}
        aria-expanded={isTableShown}
        aria-controls={isTableShown ? tableId : undefined}
        onClick={() => setIsTableShown((shown) => !shown)}
      >
        {isTableShown ? 'Show as chart' : 'Show as table'}
      </Button>
      {isTableShown ? (
        <Table.ScrollContainer minWidth={headers.length * 90}>
          <Table id={tableId} striped withTableBorder data-testid={testId} captionSide="top">
            <Table.Caption>{caption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {headers.map((header) => (
                  <Table.Th key={header} scope="col">
                    {header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(([label, ...figures]) => (
                <Table.Tr key={label}>
                  <Table.Th scope="row" fw={500}>
                    {label}
                  </Table.Th>
                  {figures.map((figure, i) => (
                    <Table.Td key={headers[i + 1]}>{figure}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        children
      )}
    </>
  );
}
