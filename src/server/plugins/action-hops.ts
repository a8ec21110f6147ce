import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACTION_HOP_HEADER } from '../../actions/net/outbound-headers';
import { notAllowed } from '../../shared/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers a request an action or a webhook sent with a refusal of its own (a gateway's end screen). */
    refusesActionHopsItself?: boolean;
  }
}

/** The sentence a request from one of our own actions or webhooks gets, as an end screen or an error's message. */
export const ACTION_HOP_REFUSAL = 'This service cannot be reached from a REST action or a webhook.';

/** True for a request one of our restapi actions or webhooks sent (actions/net/outbound-headers.ts). */
export function isActionHop(req: FastifyRequest): boolean {
  return req.headers[ACTION_HOP_HEADER] !== undefined;
}

/**
 * Refuses every request our own actions and webhooks send, but to the paths actions may call (the demo bank):
 * the address guard keeps them off this server's address, and this catches one that came back another way (a
 * redirector or proxy of the builder's that keeps headers, another of our processes). Gateway URLs answer
 * with their end screen instead (`refusesActionHopsItself`), so a looping action fails and its session ends
 * cleanly. A forged header only refuses its own sender.
 */
export function registerActionHopGuard(app: FastifyInstance, isPathAllowed: (pathname: string) => boolean): void {
  app.addHook('onRequest', async (req) => {
    if (!isActionHop(req) || req.routeOptions.config?.refusesActionHopsItself) return;
    if (isPathAllowed(new URL(req.url, 'http://localhost').pathname)) return;
    throw notAllowed(ACTION_HOP_REFUSAL);
  });
}
