import { useQuery } from '@tanstack/react-query';
import type { Webhook, WebhookDelivery } from '../../../shared/api/webhooks.schema';
import { readData } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { findWebhookDeliveries, getWebhook } from './webhooks.api';

export function useWebhook(appId: string) {
  return useQuery({
    queryKey: queryKeys.webhook(appId),
    queryFn: async (): Promise<Webhook> => readData(await getWebhook(appId), 'The webhook could not be loaded.'),
  });
}

/** The newest deliveries; polled every 3 s while one is still on its way, so its answer shows when it comes. */
export function useWebhookDeliveries(appId: string) {
  return useQuery({
    queryKey: queryKeys.webhookDeliveries(appId),
    queryFn: async (): Promise<WebhookDelivery[]> => readData(await findWebhookDeliveries(appId), 'The deliveries could not be loaded.'),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending' || d.status === 'sending') ? 3000 : false),
  });
}
