import type { FastifyRequest } from 'fastify';
import type { AppContext } from './context';

/**
 * The origin of the gateway URLs an app's settings show: PUBLIC_URL when set, else the address the browser
 * used. The answer goes only back to the caller, is never stored or mailed, and so a forged Host header can
 * only mislead its own sender. Anything stored or mailed uses getPublicOrigin (config.ts) instead.
 */
export function getOrigin(ctx: AppContext, request: FastifyRequest): string {
  return ctx.config.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
}

export const ok = <T>(message: string, data: T) => ({ status: '00' as const, message, data });

/** A call that worked and returns nothing but its message ('Menu deleted'). */
export const done = (message: string) => ({ status: '00' as const, message });
