import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { downloadCsv, downloadExcel, toTsv, type ExportTable } from './table-export';

interface TableExportButtonsProps {
  fileName: string;
  /** Built on click, so a large table is only serialised when asked. */
  getTable: () => ExportTable;
  withExcel?: boolean;
  disabled?: boolean;
}

/** Copy (tab-separated, toast 'Copied'), CSV and, where the spec asks, Excel (SpreadsheetML .xls). */
export function TableExportButtons({ fileName, getTable, withExcel = false, disabled = false }: TableExportButtonsProps) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(toTsv(getTable()));
      notifications.show({ message: 'Copied', color: 'teal' });
    } catch {
      notifications.show({ message: 'Could not copy to the clipboard', color: 'red' });
    }
  }
  return (
    <Group gap="xs">
      <Button size="xs" variant="default" leftSection={<IconCopy size={14} />} onClick={copy} disabled={disabled}>
        Copy
      </Button>
      <Button size="xs" variant="default" leftSection={<IconFileTypeCsv size={14} />} onClick={() => downloadCsv(fileName, getTable())} disabled={disabled}>
        CSV
      </Button>
      {withExcel && (
        <Button size="xs" variant="default" leftSection={<IconFileSpreadsheet size={14} />} onClick={() => downloadExcel(fileName, getTable())} disabled={disabled}>
          Excel
        </Button>
      )}
    </Group>
  );
}
