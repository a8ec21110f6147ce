import type { FastifyBaseLogger } from 'fastify';
import type { BackgroundTasks } from './background';
import type { Config } from './config';
import type { Database, Db } from '../db/client';
import type { Mailer } from '../integrations/mail/mailer';
import type { SettlementHandlers } from './core/settlements';
import type { SmsProvider } from '../integrations/sms/sms-provider';
import type { PlanStandings, UsageTallies, GatewayAccessCache, VersionCache, ShortcodeRouteTable } from './core/caches';
import type { PaymentProviders } from './core/payment-providers';
import type { MediaStore } from './features/media/media-store';
import type { MediaUploads } from './features/media/media-uploads';
import type { FetchFile } from '../actions/restapi';

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
  /**
   * What a settled payment does for what it paid for, by transaction type (core/settlements.ts): the
   * features that sell give their handlers here, so payments never imports them.
   */
  settlements: SettlementHandlers;
  /** SMS_PROVIDER's provider: the dispatcher sends queued SMS through it. */
  smsProvider: SmsProvider;
  /** PAYMENT_PROVIDER's provider and the sandbox (featured templates' test runs, the sandbox checkout page). */
  paymentProviders: PaymentProviders;
  /** Each app owner's plan and period as the runtime admits sessions and SMS (features/billing/plan-limits.ts). */
  planStandings: PlanStandings;
  /** Where media files' bytes live: MEDIA_STORE's back end (features/media/media-store.ts). */
  mediaStore: MediaStore;
  /** The files this process is receiving, bounded per account and in bytes (features/media/media-uploads.ts). */
  mediaUploads: MediaUploads;
  /**
   * A file by its https address, through the REST action's guarded outbound path (address rules, redirects, size,
   * time): what a bot sends by address is fetched with it (features/bots/whatsapp-media.ts).
   */
  fetchFile: FetchFile;
  /** The key media links are signed with (features/media/media-links.ts), read on first use. */
  getMediaUrlKey: () => Buffer;
  /** This process's counts of live sessions and SMS, flushed to the table on a timer and at close (usage-tallies.ts). */
  usageTallies: UsageTallies;
}
