import { modals } from '@mantine/modals';
import { showToast } from '../../lib/toast';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { App } from '../../../shared/api/apps.schema';
import { isNetworkFailure, isNotFound, isOk } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { deleteApp, findApps, getApp } from '../../../shared/api/apps.calls';
import { call } from '../../lib/call';

export const DELETE_APP_QUESTION = 'Are you sure you want to delete this app?';

/** GET /api/getAllApps; a non-'00' reply becomes the query's error with the server's message. */
export function useApps() {
  return useQuery({
    queryKey: queryKeys.apps,
    queryFn: async (): Promise<App[]> => {
      const reply = await call(findApps);
      if (isOk(reply) && Array.isArray(reply.data)) return reply.data;
      throw new Error(
        isNetworkFailure(reply)
          ? 'An error occurred while loading the apps. Check your connection and try again.'
          : reply.message || 'The apps could not be loaded.',
      );
    },
  });
}

/** The app answered 404 ('04'): it does not exist, was deleted, or is another account's. */
export class AppNotFoundError extends Error {}

/**
 * GET /api/getAppByAppId/{appId}: the one query for an app by id, shared by every screen of the app (and by
 * AppScreenGuard, which shows 'App not found' in their place). A 404 is an AppNotFoundError and is not retried.
 */
export function useApp(appId: string) {
  return useQuery({
    queryKey: queryKeys.app(appId),
    queryFn: async (): Promise<App> => {
      const reply = await call(getApp, { params: { appId } });
      if (isOk(reply) && reply.data) return reply.data;
      if (isNotFound(reply)) throw new AppNotFoundError(reply.message || 'App not found');
      throw new Error(
        isNetworkFailure(reply)
          ? 'An error occurred while loading the app. Check your connection and try again.'
          : reply.message || 'The app could not be loaded.',
      );
    },
    retry: (count, err) => !(err instanceof AppNotFoundError) && count < 1,
  });
}

/** Asks first, then GET /deleteApp/{appId}; toasts the outcome and refreshes the lists. */
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
        const reply = await call(deleteApp, { params: { appId: app.appId } });
        if (isOk(reply)) {
          showToast({ color: 'teal', title: 'App deleted', message: `${app.appName} was deleted.` });
          await queryClient.invalidateQueries({ queryKey: queryKeys.apps });
        } else {
          showToast({
            color: 'red',
            title: 'App not deleted',
            message: isNetworkFailure(reply)
              ? 'An error occurred while deleting the app.'
              : reply.message || 'The app could not be deleted.',
          });
        }
      },
    });
}
