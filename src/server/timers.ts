import type { AddressRules } from '../actions/net/address-guard';
import type { AppContext } from './context';
import { createBillingTimer } from './features/billing/billing-timer';
import { USAGE_FLUSH_MS } from './features/billing/usage-tallies';
import { type CampaignDispatcher, type CampaignParts, createCampaignDispatcher } from './features/campaigns/campaign-dispatcher';
import { type CampaignEvents, createSmsNotice } from './features/campaigns/campaign-events';
import { createShortcodeTimer } from './features/shortcodes/shortcode-reminders';
import { createSmsDispatcher, type SmsDispatcher } from './features/sms/sms.service';
import { createWebhookDispatcher, type WebhookDispatcher } from './features/webhooks/webhook-dispatcher';
import { createPeriodicTask, type PeriodicTask } from './periodic-task';
import { sweepExpiredMedia } from './features/media/media.service';
import { findRetentionGroups } from './features/retention/retention-terms';
import { sweepExpiredRows, type RetentionSweep } from './features/retention/expiry';
import type { EventSinkStats } from './features/runtime/event-sink';
import { addDayPartitions } from '../db/partitions';

/**
 * The retention sweep runs again this soon while it is behind (its batches ran out before the expired rows did),
 * rather than after its interval, so a database that gains more rows a day than one sweep deletes catches up.
 */
const RETENTION_CATCH_UP_MS = 5000;
/** The days ahead's partitions are looked at hourly (DAYS_AHEAD days are made: a missed run or two changes nothing). */
const DAY_PARTITIONS_INTERVAL_MS = 3_600_000;
/** Event rows waiting past this many mean the hops' writer is behind: the sweep waits for it between batches. */
const SWEEP_BUSY_ROWS = 2000;

/**
 * The server's work on timers, the same in every MODE: gateway processes queue SMS and webhook deliveries and
 * count sessions, and any process may send, remind or settle, because each run claims its rows (a delivery goes
 * once, a reminder is mailed once, whichever process runs it). An interval of 0 leaves that timer off: tests run
 * it themselves (runOnce, deliverDue).
 */
export interface Timers {
  smsDispatcher: SmsDispatcher;
  webhookDispatcher: WebhookDispatcher;
  /** Sends campaigns (tests call runOnce). */
  campaignDispatcher: CampaignDispatcher;
  /** The media retention sweep (tests call runOnce). */
  mediaRetention: PeriodicTask<number>;
  /** The event rows' retention sweep (tests call runOnce). */
  dataRetention: PeriodicTask<RetentionSweep>;
  /** On PostgreSQL, the event tables' partitions of the days ahead (tests call runOnce); answers how many it made. */
  dayPartitions: PeriodicTask<number>;
  /** When the server is ready. */
  start(): void;
  /** Before the database closes: each timer's run in flight is awaited, then what this process counted is flushed. */
  stop(): Promise<void>;
}

/**
 * `rules`: the outbound address rules webhook deliveries are sent under (the console checks URLs with the same);
 * `parts.whatsapp`: how a campaign's templates are sent; `parts.campaignEvents`: where the campaigns a run changed
 * are told; `parts.eventStats`: the hops' event writer, whose backlog the retention sweep gives way to.
 */
export function createTimers(
  ctx: AppContext,
  rules: AddressRules,
  parts: { whatsapp: CampaignParts; campaignEvents: CampaignEvents; eventStats: () => EventSinkStats },
): Timers {
  const { config } = ctx;
  const smsDispatcher = createSmsDispatcher(ctx, ctx.smsProvider, {
    intervalMs: config.SMS_DISPATCH_INTERVAL_MS,
    onSettled: createSmsNotice(ctx, parts.campaignEvents),
  });
  const webhookDispatcher = createWebhookDispatcher(ctx, {
    intervalMs: config.WEBHOOK_DISPATCH_INTERVAL_MS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    rules,
  });
  // Every process sends campaigns: each claims its messages, under a pace shared by all (docs/campaigns.md).
  const campaignDispatcher = createCampaignDispatcher(ctx, parts.whatsapp, { events: parts.campaignEvents });
  const shortcodeTimer = createShortcodeTimer(ctx, { intervalMs: config.SHORTCODE_TIMER_INTERVAL_MS });
  const billingTimer = createBillingTimer(ctx, { intervalMs: config.BILLING_TIMER_INTERVAL_MS });
  // Every process that takes traffic counts sessions: its tallies go to the table every second and at close.
  const usageFlush = createPeriodicTask('usage flush', () => ctx.usageTallies.flush(), { intervalMs: USAGE_FLUSH_MS, log: ctx.log });
  // Media files past MEDIA_RETENTION_DAYS lose their bytes (docs/media.md); deletes are idempotent, so
  // processes sweeping at once do no harm.
  const mediaRetention = createPeriodicTask(
    'media retention',
    async () => sweepExpiredMedia(ctx, (await findRetentionGroups(ctx, ['media'])).get('media')),
    {
      intervalMs: config.MEDIA_RETENTION_INTERVAL_MS,
      log: ctx.log,
    },
  );
  // Rows past their account's retention go in bounded batches (features/retention/expiry.ts), at the hops' quiet
  // moments, and again soon while some are left.
  const isBusy = () => parts.eventStats().buffered > SWEEP_BUSY_ROWS;
  const dataRetention = createPeriodicTask('data retention', () => sweepExpiredRows(ctx, { isBusy }), {
    intervalMs: config.DATA_RETENTION_INTERVAL_MS,
    nextDelayMs: (sweep) => (sweep.isBehind ? Math.min(RETENTION_CATCH_UP_MS, config.DATA_RETENTION_INTERVAL_MS) : undefined),
    log: ctx.log,
  });
  // On PostgreSQL the event tables' days ahead get their partitions (db/partitions.ts), whatever the retention.
  const dayPartitions = createPeriodicTask('day partitions', () => addDayPartitions(ctx.db, ctx.now()), {
    intervalMs: ctx.database.kind === 'postgres' ? DAY_PARTITIONS_INTERVAL_MS : 0,
    log: ctx.log,
  });
  return {
    smsDispatcher,
    webhookDispatcher,
    campaignDispatcher,
    mediaRetention,
    dataRetention,
    dayPartitions,
    start() {
      dataRetention.start();
      dayPartitions.start();
      smsDispatcher.start();
      campaignDispatcher.start();
      webhookDispatcher.start();
      shortcodeTimer.start();
      billingTimer.start();
      usageFlush.start();
      mediaRetention.start();
    },
    async stop() {
      await campaignDispatcher.stop();
      await smsDispatcher.stop();
      // close, not stop: the dispatcher's connections go too.
      await webhookDispatcher.close();
      await shortcodeTimer.stop();
      await billingTimer.stop();
      await usageFlush.stop();
      await mediaRetention.stop();
      await dataRetention.stop();
      await dayPartitions.stop();
      await ctx.usageTallies.flush();
    },
  };
}
