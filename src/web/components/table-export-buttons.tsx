import { Button, Group } from '@mantine/core';
import { showToast } from '../lib/toast';
import { IconCopy, IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadCsv, toTsv, type ExportTable } from '../lib/table-export';

export type ExportFormat = 'csv' | 'xls';

export interface TableExportButtonsProps {
  fileName: string;
  /** Built on click, so a large table is only serialised when asked. Copy always uses it. */
  getTable: () => ExportTable;
  /** When set, CSV and Excel come from here (a file the server builds); without it, CSV is made from `getTable`. */
  download?: (format: ExportFormat) => Promise<void>;
  disabled?: boolean;
}

/** Copy (tab-separated, toast 'Copied'), CSV and, for server-built exports, Excel (SpreadsheetML .xls). */
export function TableExportButtons({ fileName, getTable, download, disabled = false }: TableExportButtonsProps) {
  const [pending, setPending] = useState<ExportFormat | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(toTsv(getTable()));
      showToast({ message: 'Copied', color: 'teal' });
    } catch {
      showToast({ message: 'Could not copy to the clipboard', color: 'red' });
    }
  }

  async function save(format: ExportFormat) {
    if (!download) return downloadCsv(fileName, getTable());
    setPending(format);
    try {
      await download(format);
    } finally {
      setPending(null);
    }
  }

  return (
    <Group gap="xs">
      <Button size="xs" variant="default" leftSection={<IconCopy size={14} />} onClick={copy} disabled={disabled}>
        Copy
      </Button>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconFileTypeCsv size={14} />}
        onClick={() => void save('csv')}
        loading={pending === 'csv'}
        disabled={disabled || (pending !== null && pending !== 'csv')}
      >
        CSV
      </Button>
      {download && (
        <Button
          size="xs"
          variant="default"
          leftSection={<IconFileSpreadsheet size={14} />}
          onClick={() => void save('xls')}
          loading={pending === 'xls'}
          disabled={disabled || (pending !== null && pending !== 'xls')}
        >
          Excel
        </Button>
      )}
    </Group>
  );
}
