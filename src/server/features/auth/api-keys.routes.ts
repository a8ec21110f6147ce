import type { FastifyInstance } from 'fastify';
import { createApiKey, findApiKeys, revokeApiKey } from '../../../shared/api/api-keys.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as apiKeysService from './api-keys.service';

/** The account's API keys (docs/api-keys.md): a signed-in session manages them; a key cannot. */
export function registerApiKeysRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['api keys'];

  registerCall(app, findApiKeys, {
    tags,
    onRequest: guard(),
    handler: async (req) => ok('OK', await apiKeysService.findApiKeys(ctx, getSignedInUser(req))),
  });

  registerCall(app, createApiKey, {
    tags,
    summary: 'A new key; the reply carries it this once',
    onRequest: guard(),
    handler: async (req) => {
      const { apiKey, key } = await apiKeysService.createApiKey(ctx, getSignedInUser(req), req.body);
      return { ...ok('API key created: copy it now, it will not be shown again', apiKey), key };
    },
  });

  registerCall(app, revokeApiKey, {
    tags,
    onRequest: guard(),
    handler: async (req) => ok('API key revoked', await apiKeysService.revokeApiKey(ctx, getSignedInUser(req), req.body.uuid)),
  });
}
