import { ACTION_HOP_REFUSAL, isActionHop } from '../../plugins/action-hops';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import {
  buyShortCodeBodySchema,
  checkoutReplySchema,
  connectAppBodySchema,
  countryParamsSchema,
  createShortCodeBodySchema,
  extensionSchema,
  providerSchema,
  provisionShortCodeBodySchema,
  purchaseSchema,
  registerProviderBodySchema,
  renewShortCodeBodySchema,
  SHORTCODE_MESSAGES,
  updateProviderAccessBodySchema,
  uuidParamsSchema,
} from '../../../shared/api/shortcodes.schema';
import type { AppContext } from '../../context';
import { done, getOrigin, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { GATEWAY_ROUTE_OPTIONS, readGatewayKey, toGatewayRequest, sendGatewayReply } from '../runtime/runtime.routes';
import type { Runtime } from '../runtime/runtime.service';
import { createExtension, deleteExtension, findAllExtensions, findAvailableExtensions } from './extensions.service';
import { deleteProvider, findProviders, registerProvider, rotateProviderKey, updateProviderAccess } from './providers.service';
import { buyShortCode, connectApp, findMyPurchases, getPurchase, provisionShortCode, renewShortCode } from './purchases.service';
import { handleProviderRequest } from './shortcodes.service';

/**
 * The provider URL that receives a shared shortcode's traffic (gateway processes). The key in the path is what
 * every aggregator can be given; the bare URL is for a key in a header, an allow-listed address, or a legacy
 * provider.
 */
export function registerShortcodeProviderRoutes(app: FastifyInstance, ctx: AppContext, runtime: Runtime): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const url of ['/ussd/provider/:providerId', '/ussd/provider/:providerId/:key'])
    r.route({
      ...GATEWAY_ROUTE_OPTIONS,
      url,
      schema: {
        tags: ['runtime'],
        summary:
          "A shared shortcode's traffic, any gateway format: each new session goes to the app connected to the longest purchased prefix of the dialled string",
        params: z.object({ providerId: z.string().min(1).max(40), key: z.string().max(200).optional() }),
        querystring: z.object({ gateway: z.string().max(40).optional() }).passthrough(),
      },
      handler: async (req, reply) => {
        if (isActionHop(req))
          return sendGatewayReply(reply, runtime.refuseHop(toGatewayRequest(req), req.query.gateway, ACTION_HOP_REFUSAL));
        const origin = { key: readGatewayKey(req, req.params.key), address: req.ip, gateway: req.query.gateway };
        return sendGatewayReply(reply, await handleProviderRequest(ctx, runtime, req.params.providerId, toGatewayRequest(req), origin));
      },
    });
}

/**
 * Shortcodes (docs/shortcodes.md), the console's calls: providers and the catalogue for admins; buying,
 * renewing, listing and connecting for everyone signed in. buildApp runs the timer that ends purchases and mails
 * expiry reminders.
 */
export function registerShortcodesRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['shortcodes'];
  // The catalogue and free provisioning are separate permissions of the role table (src/shared/roles.ts).
  const catalogueManagers = guard('shortcode.manage');
  const catalogueReaders = guard('shortcode.manage', 'shortcode.provision');
  const provisioners = guard('shortcode.provision');
  const signedIn = guard();

  r.post('/api/registerProvider', {
    schema: { tags, body: registerProviderBodySchema, response: { 200: envelopeSchema(providerSchema) } },
    onRequest: catalogueManagers,
    handler: async (req) => ok('Provider registered', await registerProvider(ctx, getSignedInUser(req), req.body, getOrigin(ctx, req))),
  });

  r.get('/api/getAllProviders', {
    schema: { tags, response: { 200: envelopeSchema(z.array(providerSchema)) } },
    onRequest: catalogueReaders,
    handler: async (req) => {
      const providers = await findProviders(ctx, getOrigin(ctx, req));
      return ok(providers.length ? 'OK' : SHORTCODE_MESSAGES.noProviders, providers);
    },
  });

  r.post('/api/rotateProviderKey/:uuid', {
    schema: { tags, params: uuidParamsSchema, response: { 200: envelopeSchema(providerSchema) } },
    onRequest: catalogueManagers,
    handler: async (req) =>
      ok('Provider key replaced', await rotateProviderKey(ctx, getSignedInUser(req), req.params.uuid, getOrigin(ctx, req))),
  });

  r.post('/api/updateProviderAccess/:uuid', {
    schema: { tags, params: uuidParamsSchema, body: updateProviderAccessBodySchema, response: { 200: envelopeSchema(providerSchema) } },
    onRequest: catalogueManagers,
    handler: async (req) =>
      ok('Provider access saved', await updateProviderAccess(ctx, getSignedInUser(req), req.params.uuid, req.body, getOrigin(ctx, req))),
  });

  r.get('/api/deleteProvider/:uuid', {
    schema: { tags, params: uuidParamsSchema, response: { 200: messageSchema } },
    onRequest: catalogueManagers,
    handler: async (req) => {
      await deleteProvider(ctx, getSignedInUser(req), req.params.uuid);
      return done('Provider deleted');
    },
  });

  r.post('/api/subscription/createShortCode', {
    schema: { tags, body: createShortCodeBodySchema, response: { 200: envelopeSchema(extensionSchema) } },
    onRequest: catalogueManagers,
    handler: async (req) => ok('Extension created', await createExtension(ctx, getSignedInUser(req), req.body)),
  });

  r.get('/api/getAllAvailableShortCodes', {
    schema: { tags, response: { 200: envelopeSchema(z.array(extensionSchema)) } },
    onRequest: catalogueReaders,
    handler: async () => ok('OK', await findAllExtensions(ctx)),
  });

  r.get('/api/deleteShortCode/:uuid', {
    schema: { tags, params: uuidParamsSchema, response: { 200: messageSchema } },
    onRequest: catalogueManagers,
    handler: async (req) => {
      await deleteExtension(ctx, getSignedInUser(req), req.params.uuid);
      return done('Extension deleted');
    },
  });

  r.post('/api/subscription/provisionShortCode', {
    schema: { tags, body: provisionShortCodeBodySchema, response: { 200: envelopeSchema(purchaseSchema) } },
    onRequest: provisioners,
    handler: async (req) => ok(SHORTCODE_MESSAGES.provisioned, await provisionShortCode(ctx, getSignedInUser(req), req.body)),
  });

  r.get('/api/getAvailableShortCodes/:country', {
    schema: { tags, params: countryParamsSchema, response: { 200: envelopeSchema(z.array(extensionSchema)) } },
    onRequest: signedIn,
    handler: async (req) => ok('OK', await findAvailableExtensions(ctx, req.params.country)),
  });

  r.post('/api/subscription/buyshortcode', {
    schema: { tags, body: buyShortCodeBodySchema, response: { 200: checkoutReplySchema } },
    onRequest: signedIn,
    handler: async (req) => buyShortCode(ctx, getSignedInUser(req), req.body),
  });

  r.post('/api/subscription/renewShortcode', {
    schema: { tags, body: renewShortCodeBodySchema, response: { 200: checkoutReplySchema } },
    onRequest: signedIn,
    handler: async (req) => renewShortCode(ctx, getSignedInUser(req), req.body),
  });

  r.get('/api/myPurchasedShortCodes', {
    schema: { tags, response: { 200: envelopeSchema(z.array(purchaseSchema)) } },
    onRequest: signedIn,
    handler: async (req) => ok('OK', await findMyPurchases(ctx, getSignedInUser(req))),
  });

  r.get('/api/getShortCodeByUuid/:uuid', {
    schema: { tags, params: uuidParamsSchema, response: { 200: envelopeSchema(purchaseSchema) } },
    onRequest: signedIn,
    handler: async (req) => ok('OK', await getPurchase(ctx, getSignedInUser(req), req.params.uuid)),
  });

  // The trailing slash is the product's path.
  r.post('/api/connectAppToShortCode/', {
    schema: { tags, body: connectAppBodySchema, response: { 200: envelopeSchema(purchaseSchema) } },
    onRequest: signedIn,
    handler: async (req) => ok(SHORTCODE_MESSAGES.connected, await connectApp(ctx, getSignedInUser(req), req.body)),
  });
}
