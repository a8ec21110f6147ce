import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { type Audience, isInAudience } from '../../../shared/roles';
import { useCurrentUser } from '../console/use-current-user';

/**
 * The merchant and admin screens are for their audience (the server refuses their calls to anyone else): a
 * user outside it who opens one is taken to Get Started instead.
 */
export function MerchantAudienceGuard({ audience, children }: { audience: Audience | Audience[]; children: ReactNode }) {
  const user = useCurrentUser();
  const audiences = Array.isArray(audience) ? audience : [audience];
  if (user && !audiences.some((a) => isInAudience(a, user))) return <Navigate to="/get-started" replace />;
  return children;
}
