import { Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiKey } from '../../../shared/api/api-keys.schema';
import { formatMoment } from '../../lib/format';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { ApiKeyCreateDialog } from './api-key-create-dialog';
import { type CredentialColumn, CredentialTable } from './credential-table';
import { findApiKeys, revokeApiKey } from '../../../shared/api/api-keys.calls';
import { call, callQuery, queryKey } from '../../lib/call';

/**
 * A badge's own width can shrink to an ellipsis ('WR…') in a narrow card: its cells keep room for it, and the
 * dates wrap instead.
 */
const BADGE_CELL = { minWidth: 96 } as const;

/** Account Settings, API keys: the account's keys (name, scope, prefix, created, last used), Create key and Revoke. */
export function ApiKeyListPanel() {
  const confirmCall = useConfirmedCall(queryKey(findApiKeys));
  const [isCreating, setCreating] = useState(false);
  const { data: keys, error, refetch } = useQuery(callQuery(findApiKeys, {}, 'The API keys could not be loaded.'));

  function confirmRevoke(key: ApiKey) {
    confirmCall({
      title: `Revoke ${key.name}`,
      question: `Calls with ${key.prefix}… will be refused from now on. This cannot be undone.`,
      confirmLabel: 'Revoke',
      done: { title: 'Key revoked', message: `${key.name} no longer works.` },
      refused: { title: 'Not revoked', message: 'The key could not be revoked.' },
      call: () => call(revokeApiKey, { body: { uuid: key.uuid } }),
    });
  }

  const columns: CredentialColumn<ApiKey>[] = [
    {
      header: 'Name and key',
      render: (key) => (
        <>
          <Text fw={600} size="sm">
            {key.name}
          </Text>
          <Code fz="xs">{key.prefix}…</Code>
        </>
      ),
    },
    {
      header: 'Scope',
      cellProps: { style: BADGE_CELL },
      render: (key) => (
        <Badge variant="light" color={key.scope === 'write' ? 'orange' : 'blue'}>
          {key.scope}
        </Badge>
      ),
    },
    { header: 'Created', cellProps: { fz: 'sm' }, render: (key) => formatMoment(key.createdAt) },
    { header: 'Last used', cellProps: { fz: 'sm' }, render: (key) => formatMoment(key.lastUsedAt) },
    {
      header: '',
      cellProps: { ta: 'right', style: BADGE_CELL },
      render: (key) =>
        key.revokedAt ? (
          <Text size="sm" c="dimmed" fw={600}>
            Revoked
          </Text>
        ) : (
          <Button size="xs" variant="light" color="red" onClick={() => confirmRevoke(key)} aria-label={`Revoke ${key.name}`}>
            Revoke
          </Button>
        ),
    },
  ];

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
      <CredentialTable
        credentials={keys}
        error={error}
        errorTitle="API keys not loaded"
        onRetry={() => void refetch()}
        empty={
          <Stack align="center" gap={4} py="lg">
            <IconKey size={28} color="var(--mantine-color-gray-5)" />
            <Text fw={600}>No API keys yet</Text>
            <Text size="sm" c="dimmed">
              Create a key to deploy from CI or read your apps from a script.
            </Text>
          </Stack>
        }
        columns={columns}
        label="API keys"
        testId="api-key-table"
        minWidth={560}
        verticalSpacing="sm"
        isDimmed={(key) => Boolean(key.revokedAt)}
      />
      <ApiKeyCreateDialog opened={isCreating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
