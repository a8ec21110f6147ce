import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { type Audience, isInAudience } from '../../../shared/roles';
import { useCurrentUser, useIsCurrentUserChecked } from '../console/use-current-user';

/**
 * The merchant, admin and bot screens are for their audience (the server refuses their calls to anyone else): a
 * user outside it who opens one is taken to Get Started instead. The stored user may be older than a role an
 * admin has just given (WhatsApp bots), so until the console has read the user again nothing shows, and the
 * decision is taken on the fresh one.
 */
export function MerchantAudienceGuard({ audience, children }: { audience: Audience | Audience[]; children: ReactNode }) {
  const user = useCurrentUser();
  const isChecked = useIsCurrentUserChecked();
  const audiences = Array.isArray(audience) ? audience : [audience];
  if (user && !audiences.some((a) => isInAudience(a, user))) return isChecked ? <Navigate to="/get-started" replace /> : null;
  return children;
}
