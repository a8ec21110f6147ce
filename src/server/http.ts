import type { FastifyRequest } from 'fastify';
import type { AppContext } from './context';

/** The console's public origin: PUBLIC_URL when set, else the request's own scheme and host. */
export function getOrigin(ctx: AppContext, request: FastifyRequest): string {
  return ctx.config.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
}

export const ok = <T>(message: string, data: T) => ({ status: '00' as const, message, data });
