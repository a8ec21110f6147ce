import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FormattedReply } from '../../../channels';
import type { Runtime } from './runtime.service';
import type { AppContext } from '../../context';
import type { Guard } from '../../plugins/guard';
import { checkEmulatorAccess } from '../../core/app-access';
import { getEmulatorCaller } from './emulator-caller';
import { ACTION_HOP_REFUSAL, isActionHop } from '../../plugins/action-hops';
import { authorizeAppGatewayRequest, GATEWAY_KEY_HEADER } from '../../core/gateway-access';
import { ENVIRONMENTS } from '../../../shared/environment';
import { sendEmulatorRequest } from '../../../shared/api/emulator.calls';
import { registerCall } from '../../core/register-call';

const gatewayQuery = z.object({ gateway: z.string().max(40).optional() }).passthrough();

/** A request as the gateway adapters read it. */
export function toGatewayRequest(req: FastifyRequest) {
  return { method: req.method, query: req.query, body: req.body ?? {}, contentType: String(req.headers['content-type'] ?? '') };
}

/** The key a gateway request presents: the last part of its URL, else the `X-Dialflow-Key` header. */
export function readGatewayKey(req: FastifyRequest, inPath: string | undefined): string | undefined {
  const header = req.headers[GATEWAY_KEY_HEADER];
  return inPath ?? (typeof header === 'string' ? header : undefined);
}

/** A gateway's reply in its own format, or an empty 200 (an end-of-session notification). */
export function sendGatewayReply(reply: FastifyReply, formatted: FormattedReply | null) {
  if (!formatted) return reply.code(200).type('text/plain; charset=utf-8').send('');
  return reply.code(200).type(formatted.contentType).send(formatted.body);
}

/**
 * The runtime's URLs (docs/gateway-formats.md). Gateway replies are in each gateway's own format, so these
 * routes declare their inputs but answer with the adapter's body rather than the envelope; errors (an
 * unreadable request, an unknown app) still get the envelope with 400 or 404.
 */
/**
 * What every gateway URL (an app's, a shortcode provider's) is declared with. Gateway traffic is thousands of hops a
 * second: no access-log lines per request (the events record every hop; warnings and errors are still logged).
 * Adapters clean what gateways send (input guard) and gateways read no security headers. A hop sent by one of our
 * own actions or webhooks gets the end screen (plugins/action-hops.ts): hops never chain.
 */
export const GATEWAY_ROUTE_OPTIONS = {
  method: ['GET', 'POST', 'PUT'],
  logLevel: 'warn',
  config: { isGatewayTraffic: true, refusesActionHopsItself: true },
  helmet: false,
} as const satisfies Pick<RouteOptions, 'method' | 'logLevel' | 'config'> & { helmet: false };

export function registerRuntimeRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, runtime: Runtime): void {
  const signedIn = guard();
  const r = app.withTypeProvider<ZodTypeProvider>();

  // The key in the path is the form every gateway can be given (most only take a callback URL).
  for (const url of ['/ussd/:appId/:environment', '/ussd/:appId/:environment/:key']) {
    r.route({
      ...GATEWAY_ROUTE_OPTIONS,
      url,
      schema: {
        tags: ['runtime'],
        summary: 'Gateway traffic: test runs the draft, live the last deployed version. ?gateway= forces an adapter.',
        params: z.object({ appId: z.string().min(1).max(64), environment: z.enum(ENVIRONMENTS), key: z.string().max(200).optional() }),
        querystring: gatewayQuery,
      },
      handler: async (req, reply) => {
        if (isActionHop(req))
          return sendGatewayReply(reply, runtime.refuseHop(toGatewayRequest(req), req.query.gateway, ACTION_HOP_REFUSAL));
        const { appId, environment, key } = req.params;
        const authorize = () => authorizeAppGatewayRequest(ctx, appId, { key: readGatewayKey(req, key), address: req.ip });
        return sendGatewayReply(
          reply,
          await runtime.handleRequest(appId, environment, toGatewayRequest(req), req.query.gateway, null, authorize),
        );
      },
    });
  }

  registerCall(app, sendEmulatorRequest, {
    logLevel: 'warn',
    tags: ['runtime'],
    summary: "The console emulator's channel (its own JSON format); runs the draft, or ?version=N (owners only).",
    // Signed-out visitors (featured templates only) are limited per address; the limit runs after sign-in is
    // checked, so a signed-in user is never counted and a bad token is still a 401.
    config: {
      rateLimit: {
        max: ctx.config.EMULATOR_RATE_LIMIT,
        timeWindow: '1 minute',
        hook: 'preHandler' as const,
        allowList: (req: FastifyRequest) => !!req.user,
      },
    },
    // Signed in: the caller's own apps and the templates. Signed out: the featured templates only.
    preHandler: async (req, reply) => {
      if (req.headers.authorization) await signedIn.call(app, req, reply);
    },
    handler: async (req, reply) => {
      const { version } = req.query;
      await checkEmulatorAccess(ctx, req.user, req.params.appId, version !== undefined);
      const caller = getEmulatorCaller(req, reply);
      return sendGatewayReply(
        reply,
        await runtime.handleRequest(req.params.appId, 'test', toGatewayRequest(req), 'emulator', caller, undefined, version),
      );
    },
  });
}
