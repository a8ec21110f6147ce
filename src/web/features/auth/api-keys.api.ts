import type { ApiKey, CreateApiKeyBody } from '../../../shared/api/api-keys.schema';
import { api } from '../../lib/api';

export const findApiKeys = () => api<ApiKey[]>('/api/apiKeys');

/** The reply's `key` is the key itself, given this once. */
export const createApiKey = (body: CreateApiKeyBody) => api<ApiKey>('/api/apiKey/create', { body });

export const revokeApiKey = (uuid: string) => api<ApiKey>('/api/apiKey/revoke', { body: { uuid } });
