import { Button, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { RememberedDevice } from '../../../shared/api/two-factor.schema';
import { formatMoment } from '../../lib/format';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { findRememberedDevices, revokeRememberedDevice } from '../../../shared/api/two-factor.calls';
import { call, callQuery, queryKey } from '../../lib/call';
import { type CredentialColumn, CredentialTable } from './credential-table';

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

  const columns: CredentialColumn<RememberedDevice>[] = [
    { header: 'Device', cellProps: { fz: 'sm' }, render: (device) => <span title={device.label}>{describeDevice(device.label)}</span> },
    { header: 'Trusted', cellProps: { fz: 'sm' }, render: (device) => formatMoment(device.createdAt) },
    { header: 'Last used', cellProps: { fz: 'sm' }, render: (device) => formatMoment(device.lastUsedAt) },
    {
      header: '',
      cellProps: { ta: 'right' },
      render: (device) => (
        <Button size="xs" variant="light" color="red" onClick={() => confirmRevoke(device)}>
          Forget
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        Remembered devices
      </Title>
      <CredentialTable
        credentials={devices}
        error={error}
        errorTitle="Devices not loaded"
        onRetry={() => void refetch()}
        empty={
          <Text size="sm" c="dimmed">
            No device is trusted. Tick "Trust this device for 30 days" when you sign in to skip the code on that device.
          </Text>
        }
        columns={columns}
        label="Remembered devices"
        testId="remembered-devices"
        minWidth={480}
        verticalSpacing="xs"
      />
    </Stack>
  );
}
