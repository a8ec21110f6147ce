import type { FastifyBaseLogger } from 'fastify';
import type { BackgroundTasks } from './background';
import type { Config } from './config';
import type { Database, Db } from '../db/client';
import type { Mailer } from '../integrations/mail/mailer';
import type { GatewayAccessCache, ShortcodeRouteTable, VersionCache } from './core/caches';

/** What services need, built once by buildApp and passed explicitly (services never import Fastify). */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Injected so tests can move time (reset-token expiry). */
  now: () => Date;
  /** Work a reply does not wait for (the reset mail); settled before the database closes. */
  background: BackgroundTasks;
  /** Compiled app versions for the runtime; deploys, rollbacks and deletes invalidate them. */
  versions: VersionCache;
  /** Which app each purchased shortcode extension reaches; every change to a purchase invalidates it. */
  shortcodeRoutes: ShortcodeRouteTable;
  /** The key two-factor secrets are sealed with (features/auth/two-factor-key.ts), read on first use. */
  getTwoFactorKey: () => Buffer;
  /** Who may send traffic to each app's and provider's gateway URL; a key rotated or a list changed invalidates it. */
  gatewayAccess: GatewayAccessCache;
}
