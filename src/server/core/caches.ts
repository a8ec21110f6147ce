// The caches every request reaches through the context (context.ts): their shapes only, so the context and the
// core files that take it depend on no implementation. version-cache.ts, gateway-access.ts and
// shortcode-route-table.ts build the first three; billing builds the plan standings and usage tallies.
import type { OfficeHours } from '../../shared/office-hours';
import type { BlockList } from 'node:net';
import type { LRUCache } from 'lru-cache';
import type { subscriptions } from '../../db/schema';
import type { CompiledApp } from '../../engine';
import type { ConsentKeywords } from '../../shared/contact-consent';
import type { HandoffKeywords } from '../../shared/inbox';
import type { LinkedAppEnv } from '../../shared/api/shortcodes.schema';

/** A compiled app ready to run, or why it cannot run. */
export type LoadedApp =
  | {
      compiled: CompiledApp;
      appName: string;
      ownerId: string;
      isTemplate: boolean;
      /** The app's country (APP_COUNTRIES): a caller's national number is read in it (toE164). */
      country: string;
      /** Resume on redial's window in minutes, null when the app has it off (an app setting, not part of a version). */
      resumeWindowMinutes: number | null;
      /** A bot's own consent words and answers (docs/contacts.md, "Consent"), null for STOP and START only. */
      consentKeywords: ConsentKeywords | null;
      /** A bot's handoff words and answers (docs/inbox.md), null for none. */
      handoffKeywords: HandoffKeywords | null;
      /** When the app's agents answer a handoff (docs/inbox.md, "Office hours"), null for always. */
      officeHours: OfficeHours | null;
    }
  | { missing: 'app' | 'version' };

/**
 * Compiled app versions, parsed once (LiquidJS templates included) and kept until a deploy, rollback or
 * delete invalidates them. The draft is recompiled when the app's `updatedAt` moves (every menu change
 * touches it). With Redis, an invalidation reaches every process through pub/sub.
 */
export interface VersionCache {
  getLive(appId: string): Promise<LoadedApp>;
  getDraft(appId: string): Promise<LoadedApp>;
  /** Deployed version `number` (the emulator's "Try in emulator"); a version never changes, so it is kept as loaded. */
  getNumbered(appId: string, number: number): Promise<LoadedApp>;
  /** Drops the cached versions of an app here, and in every process when Redis is configured. */
  invalidate(appId: string): void;
  close(): Promise<void>;
}

/**
 * Who may send traffic to a gateway URL (docs/security.md, "Gateway URLs"): an app's test and production URLs,
 * and a shared shortcode provider's URL. A forged hop is refused before any session starts, so nothing runs,
 * is recorded or is counted against the tenant's plan.
 */
export interface GatewayAccessRule {
  /** The key the gateway must present (in the URL path or an `X-Dialflow-Key` header); null: none asked (an app with its key off). */
  key: string | null;
  /** Source addresses allowed; null: any. An allowed address is enough on its own, without the key. */
  sources: BlockList | null;
  /** A provider's legacy flag: a request with no key (and no allow-list) is still served. */
  acceptsUnauthenticated: boolean;
}

/**
 * The rules of apps and providers, read once and kept for a minute; a key rotated or a setting changed drops the
 * entry here and, with Redis, in every process (`invalidate`), so an old key stops working at once.
 */
export interface GatewayAccessCache {
  /** The app's rule, or null when there is no such app (the runtime answers 404 as before). */
  getAppRule(appId: string): Promise<GatewayAccessRule | null>;
  /** The provider's rule, or null when no provider has this id. */
  getProviderRule(providerKey: string): Promise<GatewayAccessRule | null>;
  invalidate(entry: `app/${string}` | `provider/${string}`): void;
  close(): Promise<void>;
}

/** How a purchased dial string routes: to an app, or why not. */
export interface ShortcodeRoute {
  purchaseId: string;
  /** null: bought but not connected (or its app was deleted). */
  appId: string | null;
  linkedAppEnv: LinkedAppEnv | null;
  /** Epoch ms; the route answers as expired from then, before the timer marks the purchase expired. */
  expiresAt: number;
}

export interface RouteMatch {
  /** The purchase's dial string that matched, `*920*34#`. */
  dialString: string;
  route: ShortcodeRoute;
  /** The parts dialled after it: `*920*34*5*7#` matched by `*920*34#` leaves ['5', '7']. */
  rest: string[];
}

/**
 * Every routable purchase (active ones, and those expired lately, so their callers hear "expired" rather than
 * "unknown") in one Map per process, keyed by provider and dial string: a hop costs one Map lookup per part of
 * what was dialled, whatever the number of purchases. Any change to a purchase that routing reads (activation,
 * renewal, connection, expiry) calls `invalidate`, which drops the Map here and, with Redis, in every process;
 * the next hop loads it again in one query.
 */
export interface ShortcodeRouteTable {
  /** The purchase of the longest prefix of `dialled` on the provider, or null when none matches. */
  findRoute(providerKey: string, dialled: string): Promise<RouteMatch | null>;
  invalidate(): void;
  close(): Promise<void>;
}

/** What the runtime needs of an app's owner to admit a session, cached: the plan and period, and whether limits apply. */
export interface OwnerStanding {
  exempt: boolean;
  email: string;
  fullName: string;
  row: Pick<typeof subscriptions.$inferSelect, 'plan' | 'periodEnd'> | undefined;
}

/**
 * Per process (ctx.planStandings, built once by buildApp). A change made here (a payment settled, an admin's
 * change) drops the owner's entry at once; a change made by another process is seen within the TTL. The state is
 * computed from the period and the clock on every use, so a lapse needs no invalidation.
 */
export type PlanStandings = LRUCache<string, OwnerStanding>;

export type UsageKind = 'sessions' | 'sms';

export interface UsageTallies {
  /**
   * Adds one to the owner's count of `kind` this month unless that reaches past `limit` (null: unlimited, still
   * counted): the new count, or null when the allowance is used up. In memory: no database work but the first
   * read of an owner's month.
   */
  count(ownerId: string, kind: UsageKind, limit: number | null): Promise<{ count: number; warnedPercent: number } | null>;
  /** Records that the warning for `percent` went out (the table says so already). */
  markWarned(ownerId: string, kind: UsageKind, percent: number): void;
  /** Writes what was counted here to the table; tallies with nothing new are dropped (re-read on next use). `ownerId`: only that owner's. */
  flush(ownerId?: string): Promise<void>;
}
