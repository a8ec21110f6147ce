import { Badge, Button, Code, Group, Stack, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { showToast } from '../../lib/toast';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiKey } from '../../../shared/api/api-keys.schema';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { failureText, isOk } from '../../lib/api';
import { formatMoment } from '../../lib/format';
import { ApiKeyCreateDialog } from './api-key-create-dialog';
import { findApiKeys, revokeApiKey } from '../../../shared/api/api-keys.calls';
import { call, callQuery, queryKey } from '../../lib/call';

/**
 * A badge's own width can shrink to an ellipsis ('WR…') in a narrow card: its cells keep room for it, and the
 * dates wrap instead.
 */
const BADGE_CELL = { minWidth: 96 } as const;

/** Account Settings, API keys: the account's keys (name, scope, prefix, created, last used), Create key and Revoke. */
export function ApiKeyListPanel() {
  const queryClient = useQueryClient();
  const [isCreating, setCreating] = useState(false);
  const { data: keys, error, refetch } = useQuery(callQuery(findApiKeys, {}, 'The API keys could not be loaded.'));

  function confirmRevoke(key: ApiKey) {
    modals.openConfirmModal({
      title: `Revoke ${key.name}`,
      centered: true,
      children: `Calls with ${key.prefix}… will be refused from now on. This cannot be undone.`,
      labels: { confirm: 'Revoke', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        const reply = await call(revokeApiKey, { body: { uuid: key.uuid } });
        if (!isOk(reply)) {
          showToast({ color: 'red', title: 'Not revoked', message: failureText(reply, 'The key could not be revoked.') });
          return;
        }
        showToast({ color: 'teal', title: 'Key revoked', message: `${key.name} no longer works.` });
        await queryClient.invalidateQueries({ queryKey: queryKey(findApiKeys) });
      },
    });
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Text size="sm" c="dimmed" maw={440}>
          Keys let a script or a CI job call the API as your account, with <Code>Authorization: Bearer dfk_…</Code>. Create one key per
          place that uses it, so each can be revoked alone.
        </Text>
        <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
          Create key
        </Button>
      </Group>
      {error && <LoadErrorAlert title="API keys not loaded" message={error.message} onRetry={() => void refetch()} />}
      {keys && keys.length === 0 && (
        <Stack align="center" gap={4} py="lg">
          <IconKey size={28} color="var(--mantine-color-gray-5)" />
          <Text fw={600}>No API keys yet</Text>
          <Text size="sm" c="dimmed">
            Create a key to deploy from CI or read your apps from a script.
          </Text>
        </Stack>
      )}
      {keys && keys.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" aria-label="API keys" data-testid="api-key-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name and key</Table.Th>
                <Table.Th>Scope</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.map((key) => (
                <Table.Tr key={key.uuid} c={key.revokedAt ? 'dimmed' : undefined}>
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {key.name}
                    </Text>
                    <Code fz="xs">{key.prefix}…</Code>
                  </Table.Td>
                  <Table.Td style={BADGE_CELL}>
                    <Badge variant="light" color={key.scope === 'write' ? 'orange' : 'blue'}>
                      {key.scope}
                    </Badge>
                  </Table.Td>
                  <Table.Td fz="sm">{formatMoment(key.createdAt)}</Table.Td>
                  <Table.Td fz="sm">{formatMoment(key.lastUsedAt)}</Table.Td>
                  <Table.Td ta="right" style={BADGE_CELL}>
                    {key.revokedAt ? (
                      <Text size="sm" c="dimmed" fw={600}>
                        Revoked
                      </Text>
                    ) : (
                      <Button size="xs" variant="light" color="red" onClick={() => confirmRevoke(key)} aria-label={`Revoke ${key.name}`}>
                        Revoke
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ApiKeyCreateDialog opened={isCreating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
