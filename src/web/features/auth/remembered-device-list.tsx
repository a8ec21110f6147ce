import { Button, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { RememberedDevice } from '../../../shared/api/two-factor.schema';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { formatMoment } from '../../lib/format';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { findRememberedDevices, revokeRememberedDevice } from '../../../shared/api/two-factor.calls';
import { call, callQuery, queryKey } from '../../lib/call';

/** A User-Agent cut to what a person recognises: the browser and the system, when they can be read. */
function describeDevice(label: string): string {
  const browser = /(Edg|Firefox|Chrome|Safari)\/[\d.]+/.exec(label)?.[1]?.replace('Edg', 'Edge');
  const system = /(Windows|Android|iPhone|iPad|Mac OS X|Linux)/.exec(label)?.[1]?.replace('Mac OS X', 'macOS');
  return browser || system ? [browser, system].filter(Boolean).join(' on ') : label;
}

/** Devices trusted for 30 days: each can be forgotten, and then asks for a code at its next sign-in. */
export function RememberedDeviceList() {
  const confirmCall = useConfirmedCall(queryKey(findRememberedDevices));
  const {
    data: devices,
    error,
    refetch,
  } = useQuery({
    ...callQuery(findRememberedDevices, {}, 'The remembered devices could not be loaded.'),
  });

  function confirmRevoke(device: RememberedDevice) {
    confirmCall({
      title: 'Forget this device',
      question: `${describeDevice(device.label)} will be asked for a code at its next sign-in.`,
      confirmLabel: 'Forget',
      done: { title: 'Device forgotten', message: 'It will be asked for a code at its next sign-in.' },
      refused: { title: 'Not forgotten', message: 'The device could not be forgotten.' },
      call: () => call(revokeRememberedDevice, { body: { uuid: device.uuid } }),
    });
  }

  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        Remembered devices
      </Title>
      {error && <LoadErrorAlert title="Devices not loaded" message={error.message} onRetry={() => void refetch()} />}
      {devices && devices.length === 0 && (
        <Text size="sm" c="dimmed">
          No device is trusted. Tick "Trust this device for 30 days" when you sign in to skip the code on that device.
        </Text>
      )}
      {devices && devices.length > 0 && (
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="xs" aria-label="Remembered devices" data-testid="remembered-devices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Device</Table.Th>
                <Table.Th>Trusted</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {devices.map((device) => (
                <Table.Tr key={device.uuid}>
                  <Table.Td fz="sm" title={device.label}>
                    {describeDevice(device.label)}
                  </Table.Td>
                  <Table.Td fz="sm">{formatMoment(device.createdAt)}</Table.Td>
                  <Table.Td fz="sm">{formatMoment(device.lastUsedAt)}</Table.Td>
                  <Table.Td ta="right">
                    <Button size="xs" variant="light" color="red" onClick={() => confirmRevoke(device)}>
                      Forget
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
