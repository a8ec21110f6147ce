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
