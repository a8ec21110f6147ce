import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { App } from '../../../shared/api/apps.schema';
import { isOk } from '../../lib/api';
import { APPS_QUERY_KEY, deleteApp, findApps, isNetworkFailure } from './apps.api';

export const DELETE_APP_QUESTION = 'Are you sure you want to delete this app?';

/** GET /api/getAllApps; a non-'00' reply becomes the query's error with the server's message. */
export function useApps() {
  return useQuery({
    queryKey: APPS_QUERY_KEY,
    queryFn: async (): Promise<App[]> => {
      const reply = await findApps();
      if (isOk(reply) && Array.isArray(reply.data)) return reply.data;
      throw new Error(isNetworkFailure(reply) ? 'An error occurred while loading the apps. Check your connection and try again.' : reply.message || 'The apps could not be loaded.');
    },
  });
}

/** Asks the spec's question, then GET /deleteApp/{appId}; toasts the outcome and refreshes the lists. */
export function useDeleteAppConfirm(): (app: Pick<App, 'appId' | 'appName'>) => void {
  const queryClient = useQueryClient();
  return (app) =>
    modals.openConfirmModal({
      title: `Delete ${app.appName}`,
      centered: true,
      children: DELETE_APP_QUESTION,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        const reply = await deleteApp(app.appId);
        if (isOk(reply)) {
          notifications.show({ color: 'teal', title: 'App deleted', message: `${app.appName} was deleted.` });
          await queryClient.invalidateQueries({ queryKey: APPS_QUERY_KEY });
        } else {
          notifications.show({
            color: 'red',
            title: 'App not deleted',
            message: isNetworkFailure(reply) ? 'An error occurred while deleting the app.' : reply.message || 'The app could not be deleted.',
          });
        }
      },
    });
}
