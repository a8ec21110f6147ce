import { ACTION_HOP_REFUSAL, isActionHop } from '../../plugins/action-hops';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as calls from '../../../shared/api/shortcodes.calls';
import { SHORTCODE_MESSAGES } from '../../../shared/api/shortcodes.schema';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { done, getOrigin, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { GATEWAY_ROUTE_OPTIONS, readGatewayKey, toGatewayRequest, sendGatewayReply } from '../runtime/runtime.routes';
import type { Runtime } from '../runtime/runtime.service';
import { createExtension, deleteExtension, findAllExtensions, findAvailableExtensions } from './extensions.service';
import { deleteProvider, findProviders, registerProvider, rotateProviderKey, updateProviderAccess } from './providers.service';
import { buyShortcode, connectApp, findMyPurchases, getPurchase, provisionShortcode, renewShortcode } from './purchases.service';
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
  const tags = ['shortcodes'];
  // The catalogue and free provisioning are separate permissions of the role table (src/shared/roles.ts).
  const catalogueManagers = { tags, onRequest: guard('shortcode.manage') };
  const catalogueReaders = { tags, onRequest: guard('shortcode.manage', 'shortcode.provision') };
  const provisioners = { tags, onRequest: guard('shortcode.provision') };
  const signedIn = { tags, onRequest: guard() };

  registerCall(app, calls.registerProvider, {
    ...catalogueManagers,
    handler: async (req) => ok('Provider registered', await registerProvider(ctx, getSignedInUser(req), req.body, getOrigin(ctx, req))),
  });

  registerCall(app, calls.findProviders, {
    ...catalogueReaders,
    handler: async (req) => {
      const providers = await findProviders(ctx, getOrigin(ctx, req));
      return ok(providers.length ? 'OK' : SHORTCODE_MESSAGES.noProviders, providers);
    },
  });

  registerCall(app, calls.rotateProviderKey, {
    ...catalogueManagers,
    handler: async (req) =>
      ok('Provider key replaced', await rotateProviderKey(ctx, getSignedInUser(req), req.params.uuid, getOrigin(ctx, req))),
  });

  registerCall(app, calls.updateProviderAccess, {
    ...catalogueManagers,
    handler: async (req) =>
      ok('Provider access saved', await updateProviderAccess(ctx, getSignedInUser(req), req.params.uuid, req.body, getOrigin(ctx, req))),
  });

  registerCall(app, calls.deleteProvider, {
    ...catalogueManagers,
    handler: async (req) => {
      await deleteProvider(ctx, getSignedInUser(req), req.params.uuid);
      return done('Provider deleted');
    },
  });

  registerCall(app, calls.createExtension, {
    ...catalogueManagers,
    handler: async (req) => ok('Extension created', await createExtension(ctx, getSignedInUser(req), req.body)),
  });

  registerCall(app, calls.findCatalogue, {
    ...catalogueReaders,
    handler: async () => ok('OK', await findAllExtensions(ctx)),
  });

  registerCall(app, calls.deleteExtension, {
    ...catalogueManagers,
    handler: async (req) => {
      await deleteExtension(ctx, getSignedInUser(req), req.params.uuid);
      return done('Extension deleted');
    },
  });

  registerCall(app, calls.provisionExtension, {
    ...provisioners,
    handler: async (req) => ok(SHORTCODE_MESSAGES.provisioned, await provisionShortcode(ctx, getSignedInUser(req), req.body)),
  });

  registerCall(app, calls.findAvailableExtensions, {
    ...signedIn,
    handler: async (req) => ok('OK', await findAvailableExtensions(ctx, req.params.country)),
  });

  registerCall(app, calls.buyShortcode, {
    ...signedIn,
    handler: async (req) => buyShortcode(ctx, getSignedInUser(req), req.body),
  });

  registerCall(app, calls.renewShortcode, {
    ...signedIn,
    handler: async (req) => renewShortcode(ctx, getSignedInUser(req), req.body),
  });

  registerCall(app, calls.findPurchases, {
    ...signedIn,
    handler: async (req) => ok('OK', await findMyPurchases(ctx, getSignedInUser(req))),
  });

  registerCall(app, calls.getPurchase, {
    ...signedIn,
    handler: async (req) => ok('OK', await getPurchase(ctx, getSignedInUser(req), req.params.uuid)),
  });

  registerCall(app, calls.connectApp, {
    ...signedIn,
    handler: async (req) => ok(SHORTCODE_MESSAGES.connected, await connectApp(ctx, getSignedInUser(req), req.body)),
  });
}
