import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { type Audience, isInAudience } from '../../shared/roles';
import { useCurrentUser, useIsCurrentUserChecked } from '../lib/use-current-user';

interface RoleGuardProps {
  audience: Audience | Audience[];
  /** Where a user outside the audience is taken instead. */
  redirectTo?: string;
  children: ReactNode;
}

/**
 * A screen for an audience (the server refuses its calls to anyone else, so this only decides what to show): a
 * user outside it who opens one is taken to `redirectTo`. The stored user may be older than a role an admin has
 * just given (WhatsApp bots), so until the console has read the user again nothing shows, and the decision is
 * taken on the fresh one.
 */
export function RoleGuard({ audience, redirectTo = '/get-started', children }: RoleGuardProps) {
  const user = useCurrentUser();
  const isChecked = useIsCurrentUserChecked();
  const audiences = Array.isArray(audience) ? audience : [audience];
  if (user && !audiences.some((a) => isInAudience(a, user))) return isChecked ? <Navigate to={redirectTo} replace /> : null;
  return children;
}
