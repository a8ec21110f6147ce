import { modals } from '@mantine/modals';
import { showToast } from '../../lib/toast';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isNetworkFailure, isOk, replyMessage } from '../../lib/api';
import { call, queryKey } from '../../lib/call';
import { deleteCustomAction, findCustomActions, findCustomActionTemplates } from '../../../shared/api/custom-actions.calls';
import { CUSTOM_ACTION_FALLBACKS, type CustomActionListItem, type CustomActionTemplate } from './custom-actions.api';

/** The functions' list; its key is also the prefix of each function's and the templates'. */
export const CUSTOM_ACTIONS_KEY = queryKey(findCustomActions);

export const DELETE_CUSTOM_ACTION_QUESTION = 'Are you sure you want to delete this custom action?';

/**
 * GET /api/custom-actions: the list screen's and the designer's 'My Custom Functions' action. A non-'00' reply
 * becomes the query's error with the server's message ('Failed to fetch custom actions' when it gave none).
 */
export function useCustomActions() {
  return useQuery({
    queryKey: CUSTOM_ACTIONS_KEY,
    queryFn: async (): Promise<CustomActionListItem[]> => {
      const reply = await call(findCustomActions);
      if (isOk(reply) && Array.isArray(reply.data)) return reply.data;
      throw new Error(
        isNetworkFailure(reply)
          ? 'An error occurred while loading your custom actions. Check your connection and try again.'
          : replyMessage(reply, 'Failed to fetch custom actions'),
      );
    },
  });
}

/** GET /api/template/custom-actions; a failure toasts 'Failed to load templates' (or the server's message) once. */
export function useCustomActionTemplates() {
  return useQuery({
    queryKey: queryKey(findCustomActionTemplates),
    queryFn: async (): Promise<CustomActionTemplate[]> => {
      const reply = await call(findCustomActionTemplates);
      if (isOk(reply) && Array.isArray(reply.data)) return reply.data;
      const message = replyMessage(reply, CUSTOM_ACTION_FALLBACKS.templates);
      showToast({ id: 'custom-action-templates-failed', color: 'red', title: 'Templates', message });
      throw new Error(message);
    },
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Asks first, then GET /api/custom-action/delete/{uuid}; toasts the outcome and refreshes the list. */
export function useDeleteCustomActionConfirm(): (action: Pick<CustomActionListItem, 'uuid' | 'actionName'>) => void {
  const queryClient = useQueryClient();
  return (action) =>
    modals.openConfirmModal({
      title: `Delete ${action.actionName}`,
      centered: true,
      children: DELETE_CUSTOM_ACTION_QUESTION,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        const reply = await call(deleteCustomAction, { params: { uuid: action.uuid } });
        if (isOk(reply)) {
          showToast({ color: 'teal', title: 'Deleted', message: replyMessage(reply, `${action.actionName} was deleted.`) });
          await queryClient.invalidateQueries({ queryKey: CUSTOM_ACTIONS_KEY });
        } else {
          showToast({ color: 'red', title: 'Not deleted', message: replyMessage(reply, CUSTOM_ACTION_FALLBACKS.delete) });
        }
      },
    });
}
