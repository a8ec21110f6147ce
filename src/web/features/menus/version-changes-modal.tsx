import { Alert, Modal, Skeleton, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { nameVersion } from '../../../shared/app';
import { useAppVersion } from './use-menus';
import { VersionDiffView } from './version-diff-view';

interface VersionChangesModalProps {
  appId: string;
  /** The version whose changes are shown, with its name; null: closed. */
  target: { version: number; name: string | null } | null;
  onClose: () => void;
}

/** A version's Changes: what changed since the version before it, side by side (GET /api/getAppVersion). */
export function VersionChangesModal({ appId, target, onClose }: VersionChangesModalProps) {
  const isPhone = useMediaQuery('(max-width: 48em)');
  const version = target?.version ?? 1;
  const details = useAppVersion(appId, version, undefined, target !== null);
  const since = details.data?.against;
  const title = target
    ? `What changed in ${nameVersion(target.version, target.name)}${since ? ` since version ${since}` : ' (the first version)'}`
    : '';
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title={title}
      size="xl"
      fullScreen={isPhone}
      closeButtonProps={{ 'aria-label': 'Close the changes' }}
    >
      {details.isPending && (
        <Stack>
          <Skeleton height={24} width="40%" />
          <Skeleton height={120} radius="md" />
        </Stack>
      )}
      {details.error && <Alert color="red">{details.error.message}</Alert>}
      {details.data && <VersionDiffView diff={details.data.diff} />}
    </Modal>
  );
}
