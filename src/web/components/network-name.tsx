import { Text } from '@mantine/core';
import { describeNetwork } from '../../shared/mobile-networks';

/** A session's network as people name it (`MTN`), with the code the gateway sent on hover (`MTN Ghana, network code 62001`). */
export function NetworkName({ network }: { network: string }) {
  const label = describeNetwork(network);
  return (
    <Text
      span
      inherit
      title={label.detail}
      data-testid="network-name"
      data-network-code={label.code || undefined}
      style={{ textDecoration: 'underline dotted', textUnderlineOffset: 3 }}
    >
      {label.name}
    </Text>
  );
}
