import { ActionIcon, Table, Text } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import type { SessionMedia } from '../../../shared/api/monitoring.schema';
import { LocationPreview, MediaPreview } from '../../components/media-preview';

/**
 * The detail table under an expanded row: Input Field and Data pairs from the session's inputs. A bot's file or
 * location input shows as what it is (a thumbnail, a file chip, a pin), with its signed link, in place of its id.
 */
export function SessionInputsTable({ inputs, media = {} }: { inputs: Record<string, string>; media?: SessionMedia }) {
  const entries = Object.entries(inputs);
  if (entries.length === 0)
    return (
      <Text size="sm" c="dimmed" py="xs">
        No inputs were collected in this session.
      </Text>
    );
  return (
    <Table withTableBorder fz="sm" bg="white" data-testid="session-inputs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Input Field</Table.Th>
          <Table.Th>Data</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map(([field, value]) => (
          <Table.Tr key={field}>
            <Table.Td>{field}</Table.Td>
            <Table.Td style={{ wordBreak: 'break-word' }}>{toShownValue(value, media[field])}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The plus/minus button that opens a row's inputs; `of` names the row for screen readers. */
export function InputsToggle({ isOpen, of, onToggle }: { isOpen: boolean; of?: string; onToggle: () => void }) {
  const suffix = of ? ` of ${of}` : '';
  return (
    <ActionIcon
      variant="light"
      radius="xl"
      aria-label={`${isOpen ? 'Hide' : 'Show'} inputs${suffix}`}
      aria-expanded={isOpen}
      onClick={onToggle}
    >
      {isOpen ? <IconMinus size={16} /> : <IconPlus size={16} />}
    </ActionIcon>
  );
}

function toShownValue(value: string, received: SessionMedia[string] | undefined) {
  if (!received) return value;
  return 'mediaId' in received ? <MediaPreview media={received} /> : <LocationPreview location={received} />;
}
