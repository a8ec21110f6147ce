import { useQuery } from '@tanstack/react-query';
import type { SessionUser } from '../../shared/api/auth.schema';
import { canBuildApps } from '../../shared/roles';
import { getToken, getStoredUser, updateStoredUser } from './session';
import { getCurrentUser } from '../../shared/api/auth.calls';
import { call, queryKey } from './call';

/**
 * The signed-in user: the stored copy at once, then refreshed from GET /api/auth/me when the console opens,
 * so a role given or taken away since login shows in the sidebar. A 401 there fires the helper's
 * unauthorized event, which the layout turns into a redirect to /login.
 */
export function useCurrentUser(): SessionUser | null {
  return useCurrentUserQuery().data ?? null;
}

/**
 * Whether the user has been read from the server since the console opened, rather than only from storage: a
 * screen that turns away users without a role waits for it, as an admin may have just given the role.
 */
export function useIsCurrentUserChecked(): boolean {
  return useCurrentUserQuery().dataUpdatedAt > 0;
}

function useCurrentUserQuery() {
  return useQuery({
    queryKey: queryKey(getCurrentUser),
    queryFn: async (): Promise<SessionUser | null> => {
      const reply = await call(getCurrentUser);
      if (reply.status === '00' && reply.data) {
        updateStoredUser(reply.data);
        return reply.data;
      }
      return getStoredUser();
    },
    initialData: () => getStoredUser() ?? undefined,
    initialDataUpdatedAt: 0,
    staleTime: 5 * 60_000,
    enabled: !!getToken(),
  });
}

export function getFirstName(user: Pick<SessionUser, 'fullName'> | null): string {
  return user?.fullName.trim().split(/\s+/)[0] ?? '';
}

/**
 * Whether the signed-in user builds apps (creates, clones, imports them): everyone but a merchant user who is
 * not a Developer (docs/merchants.md). The server refuses them too; screens say so instead of offering the buttons.
 */
export function useCanBuildApps(): boolean {
  const user = useCurrentUser();
  return !user || canBuildApps(user);
}
