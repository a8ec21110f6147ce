import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { GatewaySource } from '../../core/gateway-access';

/** What a caller hears when their number, or the unauthenticated source the dial came through, started too many sessions lately. */
export const GATEWAY_LIMIT_TEXTS = {
  caller: 'Too many sessions have been started from this number. Please try again later.',
  source: 'This service is busy. Please try again in a few minutes.',
} as const;

/**
 * Asked before each new session on a gateway URL, before the plan's allowance is counted: null admits it, a
 * sentence ends it on the gateway's end screen. A refused session is never counted against the plan.
 */
export type AdmitGatewaySession = (check: { appId: string; msisdn: string; source: GatewaySource }) => Promise<string | null>;

/**
 * Limits on new sessions per calling number per app (a minute's and an hour's), and per source address per URL
 * for traffic that proved nothing (docs/security.md, "Gateway URLs"), so a forger cannot spend a tenant's month.
 * Counted with @fastify/rate-limit's store, in Redis when REDIS_URL is set (shared by every process) else in this
 * process. A session is counted when it is asked for, admitted or not: a check before and a count after would let
 * a burst of parallel dials all pass. A Redis blink admits (the store's error is skipped): real callers matter
 * more than the limit for the few seconds it lasts.
 */
export function createGatewayLimits(app: FastifyInstance, config: Config): AdmitGatewaySession {
  const counter = (name: string, max: number, timeWindow: number) => {
    const count = app.createRateLimit({
      max,
      timeWindow,
      skipOnError: true,
      keyGenerator: (req) => `${name}:${(req as unknown as { limitKey: string }).limitKey}`,
    });
    // The limiter reads only the key and the route's options off a request: a bare one carries both.
    return async (limitKey: string) => {
      const result = await count({ limitKey, routeOptions: { config: {} } } as unknown as FastifyRequest);
      return result.isAllowed || !result.isExceeded;
    };
  };
  const perCallerMinute = counter('gw-caller-m', config.GATEWAY_CALLER_SESSIONS_PER_MINUTE, 60_000);
  const perCallerHour = counter('gw-caller-h', config.GATEWAY_CALLER_SESSIONS_PER_HOUR, 3_600_000);
  const perSourceMinute = counter('gw-source-m', config.GATEWAY_SOURCE_SESSIONS_PER_MINUTE, 60_000);

  return async ({ appId, msisdn, source }) => {
    // Numbers are hashed so the limiter's keys (in Redis) hold none.
    const caller = `${appId}:${createHash('sha256').update(msisdn).digest('base64url')}`;
    // Every limit is counted (a refused minute still fills the hour), then the first that is over refuses.
    const [minute, hour, fromSource] = await Promise.all([
      perCallerMinute(caller),
      perCallerHour(caller),
      source.isAuthenticated ? true : perSourceMinute(`${source.scope}:${source.address}`),
    ]);
    if (!minute || !hour) return GATEWAY_LIMIT_TEXTS.caller;
    return fromSource ? null : GATEWAY_LIMIT_TEXTS.source;
  };
}
