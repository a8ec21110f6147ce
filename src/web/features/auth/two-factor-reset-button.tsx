import { Button } from '@mantine/core';
import { IconShieldOff } from '@tabler/icons-react';
import { getPermissionScope } from '../../../shared/roles';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { getTwoFactorStatus, resetTwoFactor } from '../../../shared/api/two-factor.calls';
import { call, queryKey } from '../../lib/call';
import { useCurrentUser } from '../../lib/use-current-user';

/** Whether the signed-in user may reset other users' two-factor (ADMIN and super admins; the server decides). */
export function useCanResetTwoFactor(): boolean {
  const user = useCurrentUser();
  return !!user && !!getPermissionScope(user, 'twoFactor.reset');
}

/**
 * Turns off another user's two-factor sign-in when they lost their phone: asked first, audited by the server,
 * and the user is told by mail. An admin is asked to enrol again at their next sign-in.
 */
export function useTwoFactorResetConfirm(): (user: { uuid: string; fullName: string }) => void {
  const confirmCall = useConfirmedCall(queryKey(getTwoFactorStatus));
  return ({ uuid, fullName }) =>
    confirmCall({
      title: `Reset ${fullName}'s two-factor sign-in`,
      question: `${fullName} will sign in with the password alone (an admin is asked to set up two-factor again), and is told by mail. Do this only when you know it is them asking.`,
      confirmLabel: 'Reset two-factor',
      done: { title: 'Two-factor reset', message: 'The user signs in with the password alone.' },
      refused: { title: 'Not reset', message: 'Two-factor sign-in could not be reset.' },
      call: () => call(resetTwoFactor, { body: { userUuid: uuid } }),
    });
}

export function TwoFactorResetButton({ userUuid, name }: { userUuid: string; name: string }) {
  const confirmReset = useTwoFactorResetConfirm();
  return (
    <Button
      variant="light"
      color="orange"
      size="xs"
      leftSection={<IconShieldOff size={16} />}
      onClick={() => confirmReset({ uuid: userUuid, fullName: name })}
    >
      Reset two-factor
    </Button>
  );
}
