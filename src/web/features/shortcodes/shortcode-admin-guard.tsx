import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { type Audience, isInAudience } from '../../../shared/roles';
import { useCurrentUser } from '../console/use-current-user';
import { BUY_PATH } from './shortcodes.api';

/**
 * The providers and the catalogue are admins' screens, for the roles the role table gives them to (the server
 * refuses their calls to anyone else): another user who opens one is taken to Buy ShortCode Extension instead.
 */
export function ShortCodeAdminGuard({ audiences, children }: { audiences: Audience[]; children: ReactNode }) {
  const user = useCurrentUser();
  if (user && !audiences.some((a) => isInAudience(a, user))) return <Navigate to={BUY_PATH} replace />;
  return children;
}
