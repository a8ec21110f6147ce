import { Button, Group, Stack, Switch, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { showToast } from '../../lib/toast';
import { IconKey } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { App } from '../../../shared/api/apps.schema';
import { type ApiReply, failureText, isOk } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { removeAppGatewayKey, rotateAppGatewayKey } from '../../../shared/api/apps.calls';
import { call } from '../../lib/call';

/**
 * The app's gateway key (docs/runtime.md, "Gateway keys"): off by default; on, both URLs above end in it and a
 * request without it is refused. Replacing it stops the old key at once, so it asks first.
 */
export function AppGatewayKeyField({ app }: { app: App }) {
  const queryClient = useQueryClient();
  const [isBusy, setBusy] = useState(false);

  async function run(call: () => Promise<ApiReply<App>>, done: string) {
    setBusy(true);
    const reply = await call();
    setBusy(false);
    if (!isOk(reply)) {
      showToast({
        color: 'red',
        title: 'Gateway key not changed',
        message: failureText(reply, 'The gateway key could not be changed.'),
      });
      return;
    }
    showToast({ color: 'teal', title: done, message: 'Give your USSD provider the new URLs.' });
    await queryClient.invalidateQueries({ queryKey: queryKeys.app(app.appId) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.apps });
  }

  const confirmRotate = () =>
    modals.openConfirmModal({
      title: 'Replace the gateway key',
      centered: true,
      children: 'The old key stops working at once: your provider must be given the new URLs before its traffic reaches this app again.',
      labels: { confirm: 'Replace key', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => void run(() => call(rotateAppGatewayKey, { params: { appId: app.appId } }), 'Gateway key replaced'),
    });

  return (
    <Stack gap="xs">
      <Switch
        label="Require a gateway key"
        description="Your provider then sends the key at the end of the URL (or in an X-Dialflow-Key header); requests without it are refused before a session starts."
        checked={app.hasGatewayKey}
        disabled={isBusy}
        onChange={(e) =>
          void (e.currentTarget.checked
            ? run(() => call(rotateAppGatewayKey, { params: { appId: app.appId } }), 'Gateway key turned on')
            : run(() => call(removeAppGatewayKey, { params: { appId: app.appId } }), 'Gateway key turned off'))
        }
        name="requireGatewayKey"
      />
      {app.hasGatewayKey && (
        <Group gap="sm" wrap="wrap">
          <Text size="sm" c="dimmed">
            The URLs above include the key. Update them at your provider after replacing it.
          </Text>
          <Button size="xs" variant="light" color="red" leftSection={<IconKey size={14} />} onClick={confirmRotate} loading={isBusy}>
            Replace key
          </Button>
        </Group>
      )}
    </Stack>
  );
}
