import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeySchema, createApiKeyBodySchema, createApiKeyReplySchema, revokeApiKeyBodySchema } from '../../../shared/api/api-keys.schema';
import { envelopeSchema } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as apiKeysService from './api-keys.service';

/** The account's API keys (docs/api-keys.md): a signed-in session manages them; a key cannot. */
export function registerApiKeysRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['api keys'];

  r.get('/api/apiKeys', {
    schema: { tags, response: { 200: envelopeSchema(z.array(apiKeySchema)) } },
    onRequest: guard(),
    handler: async (req) => ok('OK', await apiKeysService.findApiKeys(ctx, getSignedInUser(req))),
  });

  r.post('/api/apiKey/create', {
    schema: {
      tags,
      summary: 'A new key; the reply carries it this once',
      body: createApiKeyBodySchema,
      response: { 200: createApiKeyReplySchema },
    },
    onRequest: guard(),
    handler: async (req) => {
      const { apiKey, key } = await apiKeysService.createApiKey(ctx, getSignedInUser(req), req.body);
      return { ...ok('API key created: copy it now, it will not be shown again', apiKey), key };
    },
  });

  r.post('/api/apiKey/revoke', {
    schema: { tags, body: revokeApiKeyBodySchema, response: { 200: envelopeSchema(apiKeySchema) } },
    onRequest: guard(),
    handler: async (req) => ok('API key revoked', await apiKeysService.revokeApiKey(ctx, getSignedInUser(req), req.body.uuid)),
  });
}
