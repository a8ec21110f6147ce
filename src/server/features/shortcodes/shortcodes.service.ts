import { LRUCache } from 'lru-cache';
import type { FormattedReply, GatewayRequest } from '../../../channels';
import type { AppContext } from '../../context';
import { authorizeProviderGatewayRequest } from '../../core/gateway-access';
import type { RouteDecision, Runtime } from '../runtime/runtime.service';

/** What a caller hears when the shortcode dialled reaches no app: the gateway's own end screen, never an HTTP error. */
export const PROVIDER_TRAFFIC_TEXTS = {
  unknown: 'This shortcode is not in service. Please check the code and dial again.',
  notConnected: 'This shortcode is not connected to a service yet. Please try again later.',
  expired: 'This shortcode has expired. Please contact the business that gave it to you.',
} as const;

type Refusal = keyof typeof PROVIDER_TRAFFIC_TEXTS;

/** A refused dial string is logged once a minute per provider, string and reason: a handset redialling cannot flood the log. */
const refusalsLogged = new LRUCache<string, true>({ max: 1000, ttl: 60_000 });

function refuse(ctx: AppContext, providerKey: string, dialled: string, reason: Refusal, purchaseId?: string): RouteDecision {
  const key = `${providerKey}\n${dialled}\n${reason}`;
  if (!refusalsLogged.has(key)) {
    refusalsLogged.set(key, true);
    ctx.log.warn({ providerId: providerKey, dialled: dialled.slice(0, 100), reason, purchaseId }, 'shortcode traffic reached no app');
  }
  return { refusal: PROVIDER_TRAFFIC_TEXTS[reason] };
}

/** Which app a new session dialled on a provider's shortcode reaches: the purchase of the longest matching prefix. */
export async function routeShortcodeDial(ctx: AppContext, providerKey: string, dialled: string): Promise<RouteDecision> {
  const match = await ctx.shortcodeRoutes.findRoute(providerKey, dialled);
  if (!match) return refuse(ctx, providerKey, dialled, 'unknown');
  const { route } = match;
  if (route.expiresAt <= ctx.now().getTime()) return refuse(ctx, providerKey, dialled, 'expired', route.purchaseId);
  if (!route.appId) return refuse(ctx, providerKey, dialled, 'notConnected', route.purchaseId);
  return { appId: route.appId, environment: route.linkedAppEnv === 'production' ? 'live' : 'test', rest: match.rest };
}

/**
 * One request to `/ussd/provider/{providerId}[/{key}]`, in any gateway's format, its access checked first
 * (docs/shortcodes.md, "Provider keys"): its session is kept under the provider
 * (`provider/mtngh`), so its later hops reach the same app whether or not they carry the dial string.
 */
export async function handleProviderRequest(
  ctx: AppContext,
  runtime: Runtime,
  providerId: string,
  req: GatewayRequest,
  origin: { key: string | undefined; address: string; gateway?: string },
): Promise<FormattedReply | null> {
  const providerKey = providerId.toLowerCase();
  // A forged hop (no or a wrong key, an address off the list) is refused first: no session, nothing counted.
  return runtime.handleRoutedRequest(
    `provider/${providerKey}`,
    req,
    origin.gateway,
    (dialled) => routeShortcodeDial(ctx, providerKey, dialled),
    () => authorizeProviderGatewayRequest(ctx, providerKey, origin),
  );
}
