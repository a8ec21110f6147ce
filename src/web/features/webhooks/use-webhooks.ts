import { useQuery } from '@tanstack/react-query';
import { findWebhookDeliveries, getWebhook } from '../../../shared/api/webhooks.calls';
import { callQuery } from '../../lib/call';

export function useWebhook(appId: string) {
  return useQuery(callQuery(getWebhook, { params: { appId } }, 'The webhook could not be loaded.'));
}

/** The newest deliveries; polled every 3 s while one is still on its way, so its answer shows when it comes. */
export function useWebhookDeliveries(appId: string) {
  return useQuery({
    ...callQuery(findWebhookDeliveries, { params: { appId } }, 'The deliveries could not be loaded.'),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending' || d.status === 'sending') ? 3000 : false),
  });
}
