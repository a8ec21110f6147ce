import { AppShell, Box, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { UNAUTHORIZED_EVENT } from '../../lib/api';
import { LOGIN_PATH, useLoginPath, withReturnPath } from '../../lib/return-path';
import { clearSession, getToken } from '../../lib/session';
import { TwoFactorRequiredPage } from '../auth/two-factor-required-page';
import { useTwoFactorStatus } from '../auth/two-factor-panel';
import { ConsoleHeader } from './console-header';
import { ConsoleSidebar } from './console-sidebar';
import { useCurrentUser } from '../../lib/use-current-user';
import { getRoles } from '../../../shared/roles';
import { INBOX_PATH } from '../inbox/inbox.api';

/**
 * Sends the user to /login when the server says the token is no longer valid (the API helper's unauthorized
 * event: back to this page after signing in again) or when another tab logs out (the token disappears from
 * local storage).
 */
function useSignedOutRedirect() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    function handleUnauthorized() {
      clearSession();
      queryClient.clear();
      showToast({
        id: 'session-expired',
        color: 'orange',
        title: 'Signed out',
        message: 'Your session has ended. Please log in again.',
      });
      const { pathname, search, hash } = window.location;
      void navigate(withReturnPath(LOGIN_PATH, `${pathname}${search}${hash}`), { replace: true });
    }
    function handleStorage(event: StorageEvent) {
      if ((event.key === 'token' || event.key === null) && !getToken()) {
        queryClient.clear();
        void navigate(LOGIN_PATH, { replace: true });
      }
    }
    window.addEventListener(UNAUTHORIZED_EVENT, handleUnauthorized);
    window.addEventListener('storage', handleStorage);
    return () => {
      window.removeEventListener(UNAUTHORIZED_EVENT, handleUnauthorized);
      window.removeEventListener('storage', handleStorage);
    };
  }, [navigate, queryClient]);
}

/** The screens an inbox agent sees (docs/inbox.md, "Agents"). */
const AGENT_PATHS = new Set([INBOX_PATH, '/account-profile']);

/**
 * The signed-in console: top bar, the role's sidebar, and the page. Without a stored token it goes to /login,
 * which comes back to the page asked for once the user has signed in.
 */
export function ConsoleLayout() {
  const [isNavbarOpened, navbar] = useDisclosure(false);
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const { data: twoFactor } = useTwoFactorStatus(!!getToken());
  const loginPath = useLoginPath();
  useSignedOutRedirect();

  // The phone drawer closes whenever the page changes, whatever way the user got there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input
  useEffect(() => navbar.close(), [pathname]);

  if (!getToken()) return <Navigate to={loginPath} replace />;
  // An inbox agent's console is the inbox and their own profile (the server refuses them everything else).
  if (user && getRoles(user).isAgent && !AGENT_PATHS.has(pathname)) return <Navigate to={INBOX_PATH} replace />;
  // An admin who must enrol sees only the enrolment (the server refuses the console's calls until then).
  if (twoFactor?.required && !twoFactor.enabled && user) return <TwoFactorRequiredPage email={user.email} />;

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 288, breakpoint: 'sm', collapsed: { mobile: !isNavbarOpened } }} padding={0}>
      <AppShell.Header>
        <ConsoleHeader user={user} isNavbarOpened={isNavbarOpened} onToggleNavbar={navbar.toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Sidebar">
        <AppShell.Section grow component={ScrollArea} scrollbarSize={6}>
          <ConsoleSidebar user={user} onNavigate={navbar.close} />
        </AppShell.Section>
        <AppShell.Section pt="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
          <Text size="xs" c="dimmed" px="sm" truncate>
            {user ? `Signed in as ${user.email}` : ''}
          </Text>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main bg="gray.0">
        <Box p={{ base: 'md', sm: 'xl' }} maw={1280} mx="auto">
          <Outlet />
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
