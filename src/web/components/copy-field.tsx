import { ActionIcon, TextInput, Tooltip } from '@mantine/core';
import { showToast } from '../lib/toast';
import { IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export const COPY_FAILED = 'Failed to copy to clipboard';

export async function copyToClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ color: 'teal', message: 'Copied', autoClose: 1500 });
  } catch {
    showToast({ color: 'red', message: COPY_FAILED });
  }
}

/** A read-only value with a copy button (an app's Test Url and Production Url, a new API key). */
export function CopyField({ label, value, description }: { label: string; value: string; description?: ReactNode }) {
  return (
    <TextInput
      label={label}
      description={description}
      value={value}
      readOnly
      onFocus={(event) => event.currentTarget.select()}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
      rightSectionWidth={40}
      rightSection={
        <Tooltip label={`Copy ${label}`} withArrow>
          <ActionIcon variant="subtle" onClick={() => void copyToClipboard(value)} aria-label={`Copy ${label}`}>
            <IconCopy size={16} />
          </ActionIcon>
        </Tooltip>
      }
    />
  );
}
