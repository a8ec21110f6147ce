import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { normalizeIP } from '@fastify/rate-limit';
import type { Db } from '../../db/client';
import { apps, shortcodeProviders } from '../../db/schema';
import { notAllowed, notFound, unauthenticated } from '../../shared/errors';
import type { AppContext } from '../context';
import { getRedisChannel, SUBSCRIBER_OPTIONS } from '../redis';
import type { GatewayAccessCache, GatewayAccessRule } from './caches';

/**
 * Where a gateway request came from, as its URL's route read it: the URL (`app/{appId}`, `provider/{key}`), the
 * client's address, and whether it proved itself (a key, an allowed address, or an app's unguessable id).
 */
export interface GatewaySource {
  scope: string;
  address: string;
  isAuthenticated: boolean;
}

/** How a request stands: served (authenticated or not), or refused with 401 (no or a wrong key) or 403 (its address). */
export type GatewayAccess = { isAuthenticated: boolean } | { refused: 'unauthenticated' | 'forbidden' };

/** The header a gateway that can send one presents the key in (the URL path is the other way). */
export const GATEWAY_KEY_HEADER = 'x-dialflow-key';

/** A new gateway key: 256 random bits, base64url (43 characters, safe in a URL path). */
export const createGatewayKey = () => randomBytes(32).toString('base64url');

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compared through fixed-length digests, in constant time: neither the length nor a prefix of the key leaks. */
export function isSameKey(presented: string, key: string): boolean {
  return timingSafeEqual(digest(presented), digest(key));
}

/** `197.255.0.0/16`, `2c0f:fe38::/32`, or a bare address (one host): null when the text is none of these. */
export function parseSource(text: string): { address: string; prefix: number; type: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, ...extra] = text.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra.length > 0) return null;
  const bits = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return null;
  return { address, prefix, type: version === 4 ? 'ipv4' : 'ipv6' };
}

/** The allow-list as stored (CIDR texts already checked by parseSource), or null when empty. */
export function toSourceList(sources: readonly string[]): BlockList | null {
  if (sources.length === 0) return null;
  const list = new BlockList();
  for (const text of sources) {
    const source = parseSource(text);
    if (source) list.addSubnet(source.address, source.prefix, source.type);
  }
  return list;
}

/** Is `address` (as Fastify reads it, TRUST_PROXY applied) on the list? IPv4-mapped IPv6 counts as its IPv4. */
export function isSourceAllowed(list: BlockList, address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  return list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The rule applied to one request. An address off a non-empty allow-list is refused whatever it presents; a key
 * presented must be the right one; no key is served when the address is on the allow-list, or under the legacy
 * flag (unauthenticated: the per-address limit applies), or when no key is asked.
 */
export function checkGatewayAccess(rule: GatewayAccessRule, presented: string | undefined, address: string): GatewayAccess {
  if (rule.sources && !isSourceAllowed(rule.sources, address)) return { refused: 'forbidden' };
  if (presented !== undefined && presented !== '') {
    if (rule.key === null || !isSameKey(presented, rule.key)) return { refused: 'unauthenticated' };
    return { isAuthenticated: true };
  }
  if (rule.sources) return { isAuthenticated: true };
  if (rule.key === null) return { isAuthenticated: false };
  return rule.acceptsUnauthenticated ? { isAuthenticated: false } : { refused: 'unauthenticated' };
}

export function createGatewayAccessCache(db: Db, redis?: Redis): GatewayAccessCache {
  // Unknown ids are kept too (as null), so a flood of made-up ids is not a flood of queries.
  const rules = new LRUCache<string, { rule: GatewayAccessRule | null }>({ max: 20_000, ttl: 60_000 });
  // Under REDIS_KEY_PREFIX, as the route table's: another installation on the same Redis is not heard.
  const channel = redis ? getRedisChannel(redis, 'gateway-access:invalidate') : '';
  const subscriber = redis?.duplicate(SUBSCRIBER_OPTIONS);
  if (subscriber) {
    subscriber.on('error', () => {});
    // On every (re)connection: a subscription asked for while Redis was down was refused, never sent.
    subscriber.on('ready', () => void subscriber.subscribe(channel).catch(() => {}));
    subscriber.on('message', (_channel, entry: string) => rules.delete(entry));
  }

  async function read(entry: string, load: () => Promise<GatewayAccessRule | null>): Promise<GatewayAccessRule | null> {
    const cached = rules.get(entry);
    if (cached) return cached.rule;
    const rule = await load();
    rules.set(entry, { rule });
    return rule;
  }

  return {
    getAppRule: (appId) =>
      read(`app/${appId}`, async () => {
        const [row] = await db.select({ key: apps.gatewayKey }).from(apps).where(eq(apps.id, appId));
        return row ? { key: row.key, sources: null, acceptsUnauthenticated: false } : null;
      }),
    getProviderRule: (providerKey) =>
      read(`provider/${providerKey}`, async () => {
        const [row] = await db
          .select({
            key: shortcodeProviders.gatewayKey,
            sources: shortcodeProviders.allowedSources,
            acceptsUnauthenticated: shortcodeProviders.acceptsUnauthenticated,
          })
          .from(shortcodeProviders)
          .where(eq(shortcodeProviders.providerKey, providerKey));
        return row ? { key: row.key, sources: toSourceList(row.sources), acceptsUnauthenticated: row.acceptsUnauthenticated } : null;
      }),
    invalidate(entry) {
      rules.delete(entry);
      if (redis) void redis.publish(channel, entry).catch(() => {});
    },
    async close() {
      subscriber?.disconnect();
    },
  };
}

/** A refused gateway request is logged once a minute per URL and reason: a flood of forged hops cannot flood the log. */
const refusalsLogged = new LRUCache<string, true>({ max: 1000, ttl: 60_000 });

export const GATEWAY_ACCESS_MESSAGES = {
  unauthenticated: 'This gateway URL needs its key: in the URL or an X-Dialflow-Key header',
  forbidden: 'This gateway URL does not accept traffic from this address',
  providerNotFound: 'No provider has this id',
} as const;

/**
 * The access check of one gateway request (`scope`: `app/{appId}` or `provider/{providerKey}`): where it came from
 * when it is served, else AppError 401 (no or a wrong key) or 403 (an address off the allow-list), before any
 * session is looked up, started or counted.
 */
function authorizeGatewayRequest(ctx: AppContext, scope: string, rule: GatewayAccessRule, request: GatewayRequestOrigin): GatewaySource {
  const access = checkGatewayAccess(rule, request.key, request.address);
  if ('refused' in access) {
    const logKey = `${scope}\n${access.refused}`;
    if (!refusalsLogged.has(logKey)) {
      refusalsLogged.set(logKey, true);
      ctx.log.warn(
        { scope, reason: access.refused, address: request.address },
        'gateway traffic refused (repeats for a minute not logged)',
      );
    }
    throw access.refused === 'forbidden'
      ? notAllowed(GATEWAY_ACCESS_MESSAGES.forbidden)
      : unauthenticated(GATEWAY_ACCESS_MESSAGES.unauthenticated);
  }
  return { scope, address: normalizeIP(request.address), isAuthenticated: access.isAuthenticated };
}

type GatewayRequestOrigin = { key: string | undefined; address: string };

/**
 * `/ussd/{appId}/{test|live}[/{key}]`: an unknown app is let through, for the runtime's 404 as before. The app id
 * is 128 random bits in the path, a secret of its own: an app's traffic is never held to the per-source limit,
 * which would otherwise cap a busy app behind one aggregator's address.
 */
export async function authorizeAppGatewayRequest(ctx: AppContext, appId: string, request: GatewayRequestOrigin): Promise<GatewaySource> {
  const rule = await ctx.gatewayAccess.getAppRule(appId);
  const scope = `app/${appId}`;
  if (!rule) return { scope, address: normalizeIP(request.address), isAuthenticated: true };
  return { ...authorizeGatewayRequest(ctx, scope, rule, request), isAuthenticated: true };
}

/** `/ussd/provider/{providerId}[/{key}]`: an unknown provider is 404, as it has no key to check. */
export async function authorizeProviderGatewayRequest(
  ctx: AppContext,
  providerKey: string,
  request: GatewayRequestOrigin,
): Promise<GatewaySource> {
  const rule = await ctx.gatewayAccess.getProviderRule(providerKey);
  if (!rule) throw notFound(GATEWAY_ACCESS_MESSAGES.providerNotFound);
  return authorizeGatewayRequest(ctx, `provider/${providerKey}`, rule, request);
}
