import { Alert, Badge, Button, Drawer, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { showToast } from '../../lib/toast';
import { IconDeviceMobile, IconEye, IconHistory, IconListDetails } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AppVersionInfo } from '../../../shared/api/menus.schema';
import { describeSummary, nameVersion } from '../../../shared/app';
import { versionEmulatorPath, versionViewPath } from '../../lib/paths';
import { VersionChangesModal } from './version-changes-modal';
import { isNetworkFailure, isOk } from '../../lib/api';
import { formatMoment } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { rollbackVersion } from '../../../shared/api/menus.calls';
import { call } from '../../lib/call';
import { useAppVersions } from './use-menus';

interface AppVersionsDrawerProps {
  appId: string;
  opened: boolean;
  onClose: () => void;
  /** A bot's versions run in its chat simulator, not the USSD emulator: no "Try in emulator". */
  isBot?: boolean;
}

/**
 * Deployed versions, newest first: number, name and note, when and who, live badge, warnings, what changed since
 * the one before; each opens read-only, shows its Changes side by side, runs in the emulator, or is rolled back to
 * (with a confirmation naming it).
 */
export function AppVersionsDrawer({ appId, opened, onClose, isBot = false }: AppVersionsDrawerProps) {
  const { data, error, isPending } = useAppVersions(appId, opened);
  const queryClient = useQueryClient();
  const live = data?.find((v) => v.isLive);
  const [changesOf, setChangesOf] = useState<AppVersionInfo | null>(null);

  const confirmRollback = (target: AppVersionInfo) =>
    modals.openConfirmModal({
      title: `Roll back to ${nameVersion(target.version, target.name)}?`,
      centered: true,
      children: (
        <Text size="sm">
          The live app will serve the menus of {nameVersion(target.version, target.name)} again, as a new version
          {live ? ` ${live.version + 1}` : ''}. Your draft menus in the designer are not changed.
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
      size="lg"
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
            <Stack gap={6}>
              <Group gap={6}>
                <Text fw={700}>Version {v.version}</Text>
                {v.name && (
                  <Text fw={700} style={{ overflowWrap: 'anywhere' }} data-testid="version-name">
                    · {v.name}
                  </Text>
                )}
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
              {v.note && (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="version-note">
                  {v.note}
                </Text>
              )}
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {formatMoment(v.createdAt)} · {v.createdBy || 'a deleted user'}
              </Text>
              <Text size="xs" c="dimmed" data-testid="version-summary">
                {v.menuCount} menu{v.menuCount === 1 ? '' : 's'}
                {v.rolledBackFrom !== null ? ` · restores version ${v.rolledBackFrom}` : ''}
                {v.changes ? ` · ${describeSummary(v.changes)}` : ''}
              </Text>
              <Group gap={6} mt={4}>
                <Button
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconListDetails size={14} />}
                  onClick={() => setChangesOf(v)}
                  aria-label={`Changes in version ${v.version}`}
                >
                  Changes
                </Button>
                <Button
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconEye size={14} />}
                  component={Link}
                  to={versionViewPath(appId, v.version)}
                  aria-label={`Open version ${v.version}`}
                >
                  Open
                </Button>
                {!isBot && (
                  <Button
                    size="compact-sm"
                    variant="default"
                    leftSection={<IconDeviceMobile size={14} />}
                    component={Link}
                    to={versionEmulatorPath(appId, v.version)}
                    aria-label={`Try version ${v.version} in the emulator`}
                  >
                    Try in emulator
                  </Button>
                )}
                {!v.isLive && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    color="orange"
                    onClick={() => confirmRollback(v)}
                    aria-label={`Roll back to version ${v.version}`}
                  >
                    Roll back
                  </Button>
                )}
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
      <VersionChangesModal
        appId={appId}
        target={changesOf && { version: changesOf.version, name: changesOf.name }}
        onClose={() => setChangesOf(null)}
      />
    </Drawer>
  );
}
