import { and, eq, gt, or } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client';
import { shortcodePurchases } from '../../db/schema';
import { getRedisChannel, SUBSCRIBER_OPTIONS } from '../redis';
import type { ShortcodeRoute, ShortcodeRouteTable } from './caches';
import type { LinkedAppEnv } from '../../shared/api/shortcodes.schema';

/** Expired purchases still answered as "expired" (not "unknown") for this long after their expiry. */
const EXPIRED_KEPT_MS = 90 * 24 * 60 * 60 * 1000;
/** A dialled string is read up to this many `*`-separated parts (deep-dial input included). */
export const MAX_DIAL_PARTS = 20;

const routeKey = (providerKey: string, dialString: string) => `${providerKey}\n${dialString}`;

/** `*920*34*5#` -> ['920', '34', '5']; `920` (a gateway's bare service code) -> ['920']. */
export function splitDialled(dialled: string): string[] {
  const body = dialled.trim().replace(/^\*+/, '').replace(/#+$/, '');
  return body === '' ? [] : body.split('*', MAX_DIAL_PARTS);
}

export function createShortcodeRouteTable(db: Db, options: { redis?: Redis; now: () => Date }): ShortcodeRouteTable {
  let table: Map<string, ShortcodeRoute> | undefined;
  let loading: Promise<Map<string, ShortcodeRoute>> | undefined;
  // Bumped by every invalidation: a load that started before one is used for the hop that asked, never kept.
  let generation = 0;

  async function load(): Promise<Map<string, ShortcodeRoute>> {
    const since = new Date(options.now().getTime() - EXPIRED_KEPT_MS);
    const rows = await db
      .select({
        id: shortcodePurchases.id,
        providerKey: shortcodePurchases.providerKey,
        dialString: shortcodePurchases.dialString,
        status: shortcodePurchases.status,
        appId: shortcodePurchases.appId,
        linkedAppEnv: shortcodePurchases.linkedAppEnv,
        expiryDate: shortcodePurchases.expiryDate,
      })
      .from(shortcodePurchases)
      .where(
        or(
          eq(shortcodePurchases.status, 'active'),
          and(eq(shortcodePurchases.status, 'expired'), gt(shortcodePurchases.expiryDate, since)),
        ),
      );
    const map = new Map<string, ShortcodeRoute>();
    // Active purchases win over expired ones of the same dial string (a new holder after an old one).
    for (const row of rows.sort((a, b) => Number(a.status === 'active') - Number(b.status === 'active'))) {
      map.set(routeKey(row.providerKey, row.dialString), {
        purchaseId: row.id,
        appId: row.appId,
        linkedAppEnv: row.appId ? (row.linkedAppEnv as LinkedAppEnv | null) : null,
        expiresAt: row.status === 'active' && row.expiryDate ? row.expiryDate.getTime() : 0,
      });
    }
    return map;
  }

  async function getTable(): Promise<Map<string, ShortcodeRoute>> {
    if (table) return table;
    if (!loading) {
      const started = generation;
      loading = load().then(
        (map) => {
          if (generation === started) table = map;
          loading = undefined;
          return map;
        },
        (err: unknown) => {
          loading = undefined;
          throw err;
        },
      );
    }
    return loading;
  }

  function drop(): void {
    generation++;
    table = undefined;
    loading = undefined;
  }

  // Under REDIS_KEY_PREFIX: another installation's connections on the same Redis do not drop this table.
  const channel = options.redis ? getRedisChannel(options.redis, 'shortcodes:invalidate') : '';
  const subscriber = options.redis?.duplicate(SUBSCRIBER_OPTIONS);
  if (subscriber) {
    subscriber.on('error', () => {});
    // On every (re)connection: a subscription asked for while Redis was down was refused, never sent.
    subscriber.on('ready', () => void subscriber.subscribe(channel).catch(() => {}));
    subscriber.on('message', drop);
  }

  return {
    async findRoute(providerKey, dialled) {
      const map = table ?? (await getTable());
      const parts = splitDialled(dialled);
      for (let n = parts.length; n > 0; n--) {
        const dialString = `*${parts.slice(0, n).join('*')}#`;
        const route = map.get(routeKey(providerKey, dialString));
        if (route) return { dialString, route, rest: parts.slice(n) };
      }
      return null;
    },
    invalidate() {
      drop();
      if (options.redis) void options.redis.publish(channel, '1').catch(() => {});
    },
    async close() {
      subscriber?.disconnect();
    },
  };
}
