/**
 * Headers of the HTTP requests the platform sends for builders (the restapi action, webhooks).
 *
 * Each request carries ACTION_HOP_HEADER. A request that comes back to the platform with it (straight, or
 * through a redirector or proxy that keeps headers) was made by one of our own actions or webhooks, and is
 * refused: a hop can never start another hop, so no chain of hops re-enters itself, however it is routed.
 *
 * Forwarding headers (`X-Forwarded-For`, `Forwarded`, `X-Real-IP`, ...) are never sent, whatever the builder
 * wrote: a server that trusts its proxies (ours behind TRUST_PROXY included) would otherwise take a builder's
 * value as the client's address, and per-address limits would count whoever the builder named.
 *
 * @example
 *   isForwardingHeader('x-forwarded-for') // true
 *   headers[ACTION_HOP_HEADER] = ACTION_HOP_MARK
 */
export const ACTION_HOP_HEADER = 'dialflow-hop';
/** The hop depth of a request an action or a webhook sends; any inbound request that carries one is refused. */
export const ACTION_HOP_MARK = '1';

const FORWARDING_HEADERS = new Set([
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'x-originating-ip',
  'client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
]);

/** True for a header (lower-case name) that claims where a request came from: a builder may not set it. */
export function isForwardingHeader(name: string): boolean {
  return FORWARDING_HEADERS.has(name) || name.startsWith('x-forwarded-');
}
