import { modals } from '@mantine/modals';
import { showToast } from './toast';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { type ApiReply, failureText, isOk } from './api';

export interface ConfirmedCall {
  title: string;
  question: string;
  /** The red button's label; 'Delete' unless said. */
  confirmLabel?: string;
  /** The toast when the call succeeds: its title, and its message when the server sends none. */
  done: { title: string; message: string };
  /** The toast when the server refuses: its title, and its message when the server gives no reason. */
  refused: { title: string; message: string };
  call: () => Promise<ApiReply>;
  onDone?: () => void;
}

/**
 * Asks first, then makes a call that cannot be undone (a delete, an unassign); a toast with the server's message
 * either way, and the queries below `queryKey` reload.
 */
export function useConfirmedCall(queryKey: QueryKey): (confirm: ConfirmedCall) => void {
  const queryClient = useQueryClient();
  return ({ title, question, confirmLabel = 'Delete', done, refused, call, onDone }) =>
    modals.openConfirmModal({
      title,
      centered: true,
      children: question,
      labels: { confirm: confirmLabel, cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        const reply = await call();
        if (isOk(reply)) {
          showToast({ color: 'teal', title: done.title, message: reply.message || done.message });
          onDone?.();
        } else showToast({ color: 'red', title: refused.title, message: failureText(reply, refused.message), autoClose: 8000 });
        await queryClient.invalidateQueries({ queryKey });
      },
    });
}

/** An account that signs in, as the admin and merchant-user lists show it. */
interface SignInAccount {
  uuid: string;
  fullName: string;
  email: string;
}

/**
 * Asks before deleting an account that signs in (an admin, a merchant's user); `noun` names it in the question
 * and the refusal, `remove` is the delete call.
 */
export function useAccountDeleteConfirm(
  queryKey: QueryKey,
  noun: string,
  remove: (uuid: string) => Promise<ApiReply>,
): (account: SignInAccount) => void {
  const confirm = useConfirmedCall(queryKey);
  return (account) =>
    confirm({
      title: `Delete ${account.fullName}`,
      question: `Are you sure you want to delete the ${noun} ${account.fullName} (${account.email})? They will no longer be able to sign in.`,
      done: { title: 'Deleted', message: 'Deleted' },
      refused: { title: `Failed to delete ${noun}`, message: `Failed to delete ${noun}` },
      call: () => remove(account.uuid),
    });
}
