import { Alert, Badge, Button, Drawer, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { showToast } from '../../lib/toast';
import { IconHistory } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { AppVersionInfo } from '../../../shared/api/menus.schema';
import { isNetworkFailure, isOk } from '../../lib/api';
import { formatMoment } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { rollbackVersion } from '../../../shared/api/menus.calls';
import { call } from '../../lib/call';
import { useAppVersions } from './use-menus';

/** Deployed versions, newest first: number, time, who, live badge, warnings; Roll back with confirmation. */
export function AppVersionsDrawer({ appId, opened, onClose }: { appId: string; opened: boolean; onClose: () => void }) {
  const { data, error, isPending } = useAppVersions(appId, opened);
  const queryClient = useQueryClient();
  const live = data?.find((v) => v.isLive);

  const confirmRollback = (target: AppVersionInfo) =>
    modals.openConfirmModal({
      title: `Roll back to version ${target.version}?`,
      centered: true,
      children: (
        <Text size="sm">
          The live app will serve the menus of version {target.version} again, as a new version{live ? ` ${live.version + 1}` : ''}. Your
          draft menus in the designer are not changed.
        </Text>
      ),
      labels: { confirm: 'Roll back', cancel: 'Cancel' },
      confirmProps: { color: 'orange' },
      onConfirm: async () => {
        const reply = await call(rollbackVersion, { body: { appId, version: target.version } });
        if (isOk(reply)) {
          showToast({ color: 'teal', title: 'Rolled back', message: reply.message || `Version ${target.version} is live again.` });
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: queryKeys.appVersions(appId) }),
            queryClient.invalidateQueries({ queryKey: queryKeys.app(appId) }),
          ]);
        } else {
          showToast({
            color: 'red',
            title: 'Not rolled back',
            message: isNetworkFailure(reply)
              ? 'An error occurred while rolling back.'
              : reply.message || 'The version could not be rolled back.',
          });
        }
      },
    });

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="md"
      title={
        <Group gap={8}>
          <IconHistory size={20} />
          <Text fw={700}>Versions</Text>
        </Group>
      }
    >
      {isPending && (
        <Stack>
          <Skeleton height={90} radius="md" />
          <Skeleton height={90} radius="md" />
        </Stack>
      )}
      {error && <Alert color="red">{error.message}</Alert>}
      {data && data.length === 0 && (
        <Text c="dimmed" size="sm" ta="center" py="xl">
          Nothing deployed yet. Deploy to create version 1.
        </Text>
      )}
      <Stack gap="sm" data-testid="version-list">
        {data?.map((v) => (
          <Paper
            key={v.version}
            withBorder
            radius="md"
            p="md"
            data-testid="version-row"
            data-version={v.version}
            bg={v.isLive ? 'teal.0' : undefined}
          >
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={4} style={{ minWidth: 0 }}>
                <Group gap={6}>
                  <Text fw={700}>Version {v.version}</Text>
                  {v.isLive && (
                    <Badge color="teal" size="sm">
                      Live
                    </Badge>
                  )}
                  {v.warnings.length > 0 && (
                    <Badge color="yellow" variant="light" size="sm">
                      {v.warnings.length} warning{v.warnings.length > 1 ? 's' : ''}
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {formatMoment(v.createdAt)} · {v.createdBy || 'unknown'}
                </Text>
                <Text size="xs" c="dimmed">
                  {v.menuCount} menu{v.menuCount === 1 ? '' : 's'}
                  {v.rolledBackFrom !== null && ` · rolled back to version ${v.rolledBackFrom}`}
                </Text>
              </Stack>
              {!v.isLive && (
                <Button
                  size="xs"
                  variant="light"
                  color="orange"
                  style={{ flexShrink: 0 }}
                  onClick={() => confirmRollback(v)}
                  aria-label={`Roll back to version ${v.version}`}
                >
                  Roll back
                </Button>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>
    </Drawer>
  );
}
