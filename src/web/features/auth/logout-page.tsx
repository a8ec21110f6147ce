import { Center, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import { clearSession } from '../../lib/session';
import { logoutUser } from '../../../shared/api/auth.calls';
import { call } from '../../lib/call';

/** The redirect after logout waits 1 second. */
export const LOGOUT_REDIRECT_MS = 1000;

/** Clears the session and, after 1 s, goes to /merchant/login for merchants, else /login. */
export function LogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Read before the session is cleared; the state initialiser runs once per mount.
  const [userType] = useState(() => localStorage.getItem('userType'));
  const isStarted = useRef(false);

  useEffect(() => {
    if (!isStarted.current) {
      isStarted.current = true;
      // The helper reads the token synchronously when it sends the request, so the session can be cleared
      // at once: the server revokes the token even though nothing local refers to it any more.
      void call(logoutUser);
      clearSession();
      queryClient.clear();
    }
    const timer = setTimeout(() => navigate(userType === 'merchant' ? '/merchant/login' : '/login', { replace: true }), LOGOUT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate, queryClient, userType]);

  return (
    <Center mih="100vh" bg="gray.0">
      <Stack align="center" gap="md" role="status" aria-live="polite">
        <BrandLogo size={36} />
        <Loader size="sm" />
        <Text c="dimmed">Logging out...</Text>
      </Stack>
    </Center>
  );
}
