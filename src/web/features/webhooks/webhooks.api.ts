import type { SaveWebhookBody, Webhook, WebhookDelivery } from '../../../shared/api/webhooks.schema';
import { api } from '../../lib/api';

const base = (appId: string) => `/api/apps/${encodeURIComponent(appId)}/webhook`;

export const getWebhook = (appId: string) => api<Webhook>(base(appId));

export const saveWebhook = (appId: string, body: SaveWebhookBody) => api<Webhook>(base(appId), { body });

export const rotateWebhookSecret = (appId: string) => api<Webhook>(`${base(appId)}/rotate-secret`, { method: 'POST' });

export const sendTestEvent = (appId: string) => api<WebhookDelivery>(`${base(appId)}/test`, { method: 'POST' });

export const findWebhookDeliveries = (appId: string) => api<WebhookDelivery[]>(`${base(appId)}/deliveries?limit=50`);

export const redeliverWebhookDelivery = (appId: string, deliveryId: string) =>
  api<WebhookDelivery>(`${base(appId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, { method: 'POST' });
