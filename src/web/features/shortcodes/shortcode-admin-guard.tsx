import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { getRoles } from '../../../shared/roles';
import { useCurrentUser } from '../console/use-current-user';
import { BUY_PATH } from './shortcodes.api';

/**
 * The providers and the catalogue are admins' screens (the server refuses their calls to anyone else): another
 * user who opens one is taken to Buy ShortCode Extension instead.
 */
export function ShortCodeAdminGuard({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  if (user && !getRoles(user).isAdmin) return <Navigate to={BUY_PATH} replace />;
  return children;
}
