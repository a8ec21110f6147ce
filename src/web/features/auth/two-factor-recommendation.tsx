import { Anchor } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { InfoNotice } from '../../components/info-notice';
import { useTwoFactorStatus } from './two-factor-panel';

/**
 * The advice merchant users and accounts that take payments get on the home page, until they turn two-factor on
 * or dismiss it (kept dismissed in this browser).
 */
export function TwoFactorRecommendation() {
  const { data: status } = useTwoFactorStatus();
  const [isDismissed, setDismissed] = useLocalStorage({ key: 'dialflow.twoFactorAdviceDismissed', defaultValue: false });
  if (!status?.recommended || status.enabled || isDismissed) return null;
  return (
    <InfoNotice
      icon={IconShieldLock}
      title="Protect the money your account moves"
      closeButtonLabel="Dismiss"
      onClose={() => setDismissed(true)}
      data-testid="two-factor-recommendation"
    >
      Turn on two-factor sign-in so a leaked password alone cannot open your account.{' '}
      <Anchor component={Link} to="/account-profile?tab=two-factor" fw={600}>
        Set it up in Account Settings
      </Anchor>
    </InfoNotice>
  );
}
