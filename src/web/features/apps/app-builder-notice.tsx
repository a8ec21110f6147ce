import { IconLock } from '@tabler/icons-react';
import { APP_MESSAGES } from '../../../shared/api/apps.schema';
import { InfoNotice } from '../../components/info-notice';

/**
 * Why a merchant user who is not a Developer has no Create App form, Clone or Import: their company's developers
 * build its apps (docs/merchants.md). The same words as the server's refusal.
 */
export function AppBuilderNotice({ children }: { children?: React.ReactNode }) {
  return (
    <InfoNotice icon={IconLock} title="Apps are built by your company's developers" data-testid="app-builder-notice">
      {APP_MESSAGES.notAppBuilder}.{children ? <> {children}</> : null}
    </InfoNotice>
  );
}
