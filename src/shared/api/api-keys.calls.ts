import { z } from 'zod';
import { apiKeySchema, createApiKeyBodySchema, createApiKeyReplySchema, revokeApiKeyBodySchema } from './api-keys.schema';
import { defineCall } from './contract';
import { envelopeSchema } from './envelope';

// The account's API keys (src/shared/api/contract.ts; docs/api-keys.md). Key: ['auth', 'api-keys'].

/** GET /api/apiKeys: the account's keys (never the keys themselves). */
export const findApiKeys = defineCall({
  method: 'GET',
  path: '/api/apiKeys',
  reply: envelopeSchema(z.array(apiKeySchema)),
  key: ['auth', 'api-keys'],
});

/** POST /api/apiKey/create: a new key; the reply's `key` is the key itself, given this once. */
export const createApiKey = defineCall({
  method: 'POST',
  path: '/api/apiKey/create',
  body: createApiKeyBodySchema,
  reply: createApiKeyReplySchema,
});

/** POST /api/apiKey/revoke: calls with the key are refused from now on. */
export const revokeApiKey = defineCall({
  method: 'POST',
  path: '/api/apiKey/revoke',
  body: revokeApiKeyBodySchema,
  reply: envelopeSchema(apiKeySchema),
});
