import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler, RouteOptions } from 'fastify';
import { invalid } from '../../shared/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Gateway traffic: the channel adapters read the raw request and clean it themselves (NUL dropped, lone
     * surrogates replaced), so the hot path skips this guard.
     */
    isGatewayTraffic?: boolean;
  }
}

export const NUL_MESSAGE = 'Text may not contain the NUL character (\\u0000).';

/** Depth and size bounds keep the walk cheap; the body limit (1 MB) bounds it anyway. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || typeof value !== 'object' || value === null) return false;
  // A raw body (a media upload, a provider's callback) is bytes, not text: walking it would cost a step per byte.
  if (ArrayBuffer.isView(value)) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}

const refuseNul: preValidationAsyncHookHandler = async function refuseNul(request: FastifyRequest) {
  if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) throw invalid(NUL_MESSAGE);
};

/**
 * No text the server stores may carry NUL: PostgreSQL's text and jsonb refuse it, which used to surface as a
 * 500 from whichever query met it first. Every route but gateway traffic refuses it up front with a 400. Must
 * be registered before the routes (it hooks each route as it is declared).
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.isGatewayTraffic) return;
    const existing = route.preValidation;
    route.preValidation = existing ? [refuseNul, ...(Array.isArray(existing) ? existing : [existing])] : [refuseNul];
  });
}
