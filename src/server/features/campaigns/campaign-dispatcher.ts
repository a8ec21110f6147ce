/**
 * Sends campaigns (docs/campaigns.md, "Sending"), in every process at once. Each run:
 * 1. ends leases: a message claimed but not handed to a provider goes back to the queue; one handed over (`sending`)
 *    whose process stopped is marked `unknown` and never sent again (a duplicate is worse than a gap that is shown);
 * 2. starts the campaigns due, one statement each: the campaign turns `running` and its contacts become its messages
 *    in the same transaction, so two processes never start one twice and a crash leaves it unstarted;
 * 3. puts WhatsApp messages that failed after they were sent (the status webhook) on SMS, where the campaign allows it;
 * 4. claims, per sender (a WhatsApp number, the SMS provider), what its pace allows across every process, and sends:
 *    a message at a time to the same person, consent read again just before each send;
 * 5. marks `done` the campaigns with nothing left to send.
 */
import { and, eq, gt, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { campaignMessages, campaignPacing, campaigns, contacts } from '../../../db/schema';
import { CAMPAIGN_MESSAGES, type CampaignChannels, type CampaignStatus } from '../../../shared/api/campaigns.schema';
import { AppError, toErrorMessage } from '../../../shared/errors';
import { isInSendWindow } from '../../../shared/send-window';
import { toDailyLimit } from '../../../integrations/whatsapp/cloud-limits';
import type { RenderedTemplate } from '../../../shared/whatsapp-templates';
import type { AppContext } from '../../context';
import { checkConsent } from '../../core/consent';
import { setPendingEntry } from '../../core/whatsapp-windows';
import { createPeriodicTask, type PeriodicTask } from '../../periodic-task';
import { fillContactFields } from '../bots/bot-conversations.service';
import { readTemplateToSend } from '../bots/whatsapp-templates.service';
import { queueSms, SMS_MAX_LENGTH } from '../sms/sms.service';
import { toAudienceConditions, toChannelChoice } from './audiences.service';
import type { CampaignEvents } from './campaign-events';
import { readDial, toSmsText } from './campaign-results';
import type { CampaignRow } from './campaign-rows';
import { findCampaignLink } from './campaigns.service';

type MessageRow = typeof campaignMessages.$inferSelect;
type ContactRow = typeof contacts.$inferSelect;

/**
 * What sending needs besides the database: a WhatsApp number's template send through its connector, recorded as the
 * bot's message (buildApp hands the WhatsApp connectors' own).
 */
export interface CampaignParts {
  sendTemplate(
    link: { id: string; appId: string; connector: string },
    to: string,
    template: RenderedTemplate,
    ownerId: string,
  ): Promise<Array<{ providerMessageId: string }>>;
}

export interface CampaignDispatchReport {
  started: number;
  sent: number;
  failed: number;
  fellBack: number;
  retried: number;
  skipped: number;
}

export interface CampaignDispatcherOptions {
  intervalMs?: number;
  /** Messages one claim takes at most per sender. */
  batchSize?: number;
  /** How long a claimed or sending message is this process's before another may act on it. */
  leaseMs?: number;
  /** Sends in flight at once in this process. */
  concurrency?: number;
  /** Contacts of an audience made messages in one statement. */
  loadBatch?: number;
  /** Where the campaigns a run changed are told (the console's live screens); none in tests that do not listen. */
  events?: CampaignEvents;
}

export type CampaignDispatcher = PeriodicTask<CampaignDispatchReport>;

const DAY_MS = 86_400_000;
/** A refusal that says "later": Meta's rate limits (130429 the number's, 131056 one person's) and its own errors. */
const RETRY_LATER = /\((130429|131056|131000|131016)\)/;
const MAX_ATTEMPTS = 5;
/** How long a campaign that may fall back to SMS waits for a WhatsApp message's outcome before it is done. */
export const FALLBACK_WAIT_MS = 10 * 60_000;
/** Why a contact of the audience gets nothing, when the campaign starts. */
export const SKIPPED_OPTED_OUT = "Opted out of the campaign's channels";
export const SKIPPED_NO_CONSENT = "Never opted in to the campaign's channels";
/** The reason a message handed to a provider by a process that stopped is shown with. */
export const UNKNOWN_REASON =
  'The process sending it stopped before the provider answered: it may or may not have gone, and is not sent again';

export function createCampaignDispatcher(
  ctx: AppContext,
  parts: CampaignParts,
  options: CampaignDispatcherOptions = {},
): CampaignDispatcher {
  const batchSize = options.batchSize ?? 100;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const concurrency = options.concurrency ?? 8;
  const loadBatch = options.loadBatch ?? 5000;
  const dispatchIntervalMs = options.intervalMs ?? ctx.config.CAMPAIGN_DISPATCH_INTERVAL_MS;
  const { config } = ctx;
  /** The campaigns this run changed (started, loaded, sent from, fell back, paused, finished): told at its end. */
  let touched = new Set<string>();

  async function endLeases(now: Date): Promise<void> {
    await ctx.db
      .update(campaignMessages)
      .set({ status: 'queued', nextAttemptAt: now })
      .where(and(eq(campaignMessages.status, 'claimed'), lte(campaignMessages.nextAttemptAt, now)));
    const lost = await ctx.db
      .update(campaignMessages)
      .set({ status: 'unknown', reason: UNKNOWN_REASON })
      .where(and(eq(campaignMessages.status, 'sending'), lte(campaignMessages.nextAttemptAt, now)))
      .returning({ id: campaignMessages.id, campaignId: campaignMessages.campaignId });
    if (lost.length > 0) ctx.log.warn({ messages: lost.length }, 'campaign messages a stopped process was sending are marked unknown');
    for (const { campaignId } of lost) touched.add(campaignId);
  }

  /** Starts one due campaign: it turns running (taken FOR UPDATE SKIP LOCKED: one process starts it); its audience loads next. */
  async function startOne(now: Date): Promise<string | null> {
    return ctx.db.transaction(async (tx) => {
      const [due] = await tx
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(and(eq(campaigns.status, 'scheduled'), lte(campaigns.startAt, now)))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return null;
      await tx
        .update(campaigns)
        .set({ status: 'running', startedAt: now, audienceSize: 0, loadedUntil: null, loadedAt: null, updatedAt: now })
        .where(eq(campaigns.id, due.id));
      ctx.log.info({ campaignId: due.id }, 'a campaign started');
      return due.id;
    });
  }

  /**
   * Makes the next `loadBatch` contacts of a running campaign's audience its messages, in number order from where the
   * last batch stopped: `queued` with their channel, or `skipped` with why. A batch at a time, so a large audience
   * never holds the database (on PGlite, every tenant's) in one long statement, and sending starts with the first
   * batch. The campaign's row is taken FOR UPDATE SKIP LOCKED, so one process loads it at a time; the batch and the
   * cursor commit together, so a crash repeats nothing and skips nothing.
   */
  async function loadOne(campaignId: string, now: Date): Promise<void> {
    await ctx.db.transaction(async (tx) => {
      const [campaign] = await tx
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, 'running'), isNull(campaigns.loadedAt)))
        .for('update', { skipLocked: true });
      if (!campaign) return;
      const conditions = toAudienceConditions(campaign.ownerId, campaign.filter, now);
      if (campaign.loadedUntil !== null) conditions.push(gt(contacts.msisdn, campaign.loadedUntil));
      const choice = toChannelChoice(campaign.channels as CampaignChannels);
      const loaded = (await tx.execute(sql`
        insert into ${campaignMessages} (campaign_id, owner_id, msisdn, channel, status, reason, next_attempt_at, created_at)
        select ${campaign.id}, ${campaign.ownerId}, msisdn,
          case when choice in ('whatsapp', 'sms') then choice end,
          case when choice in ('whatsapp', 'sms') then 'queued' else 'skipped' end,
          case choice when 'opted_out' then ${SKIPPED_OPTED_OUT} when 'no_consent' then ${SKIPPED_NO_CONSENT} end,
          ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
        from (select ${contacts.msisdn} as msisdn, ${choice} as choice from ${contacts} where ${and(...conditions)}
          order by ${contacts.msisdn} limit ${loadBatch}) chosen
        on conflict do nothing
        returning msisdn`)) as unknown as { rows: Array<{ msisdn: string }> };
      const numbers = loaded.rows.map((r) => r.msisdn).sort();
      const size = (campaign.audienceSize ?? 0) + numbers.length;
      const done = numbers.length < loadBatch;
      const grown = size > config.CAMPAIGN_AUDIENCE_MAX;
      await tx
        .update(campaigns)
        .set({
          audienceSize: size,
          loadedUntil: numbers.at(-1) ?? campaign.loadedUntil,
          ...(done ? { loadedAt: now } : {}),
          ...(grown
            ? {
                status: 'paused',
                pausedReason: `The audience grew to more than ${config.CAMPAIGN_AUDIENCE_MAX} contacts, more than a campaign may send to`,
              }
            : {}),
          updatedAt: now,
        })
        .where(eq(campaigns.id, campaign.id));
      if (done) ctx.log.info({ campaignId: campaign.id, contacts: size }, "a campaign's audience is loaded");
    });
  }

  /** WhatsApp messages the status webhook said failed go by SMS, while their campaign runs and allows it. */
  async function fallBack(now: Date): Promise<number> {
    const moved = (await ctx.db.execute(sql`
      update ${campaignMessages} m set channel = 'sms', status = 'queued', next_attempt_at = ${now.toISOString()}::timestamptz,
        fell_back_at = ${now.toISOString()}::timestamptz,
        reason = 'WhatsApp: ' || coalesce(nullif(w.failure_reason, ''), 'failed')
      from ${campaigns} c, whatsapp_messages w
      where m.campaign_id = c.id and c.status = 'running' and c.channels = 'whatsapp_then_sms'
        and m.channel = 'whatsapp' and m.status = 'sent' and m.fell_back_at is null
        and w.link_id = c.link_id::text and w.provider_message_id = m.provider_message_id and w.status = 'failed'
      returning m.campaign_id`)) as unknown as { rows: Array<{ campaign_id: string }> };
    for (const row of moved.rows) touched.add(row.campaign_id);
    return moved.rows.length;
  }

  /**
   * Claims up to what a sender's pace allows now, across every process (the pacing row under an advisory lock):
   * one message every `intervalMs`, and for a WhatsApp number at most `daily` a day. `share`: how many running
   * campaigns send through this sender now; each takes its part of the room, so one campaign (one account's, on the
   * shared SMS provider) cannot take it all run after run.
   */
  async function claim(
    campaign: CampaignRow,
    channel: 'whatsapp' | 'sms',
    pace: { key: string; intervalMs: number; daily: number | null; share: number },
    now: Date,
  ) {
    const { key, intervalMs, daily } = pace;
    return ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`campaign-pacing:${key}`}))`);
      const [stored] = await tx.select().from(campaignPacing).where(eq(campaignPacing.key, key));
      // A sender idle for a while may send at most a second's worth and a run's interval (or one message, when slower
      // than that) at once: runs a little more than an interval apart then keep the whole pace.
      const nextAt = Math.max(stored?.nextAt.getTime() ?? 0, now.getTime() - Math.max(1000 + dispatchIntervalMs, intervalMs));
      let room = Math.floor((now.getTime() - nextAt) / intervalMs);
      const dayFresh = !stored?.dayStart || now.getTime() - stored.dayStart.getTime() >= DAY_MS;
      const dayStart = dayFresh ? now : stored!.dayStart!;
      const dayCount = dayFresh ? 0 : stored!.dayCount;
      if (daily !== null) room = Math.min(room, daily - dayCount);
      room = Math.min(Math.ceil(room / pace.share), batchSize);

      if (room <= 0) return [];
      const m = campaignMessages;
      // Chosen first, then claimed by id: an UPDATE ... WHERE id IN (SELECT ... LIMIT n) may run its subquery more
      // than once and take more than n rows.
      const due = await tx
        .select({ id: m.id })
        .from(m)
        .where(
          and(
            eq(m.campaignId, campaign.id),
            eq(m.status, 'queued'),
            eq(m.channel, channel),
            lte(m.nextAttemptAt, now),
            // One message at a time to the same person, whichever of the account's campaigns it belongs to.
            sql`not exists (select 1 from ${m} o where o.owner_id = ${m.ownerId} and o.msisdn = ${m.msisdn}
              and o.status in ('claimed', 'sending') and o.id <> ${m.id})`,
          ),
        )
        .orderBy(m.nextAttemptAt)
        .limit(room)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      const rows = await tx
        .update(m)
        .set({ status: 'claimed', attempts: sql`${m.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + leaseMs) })
        .where(
          and(
            inArray(
              m.id,
              due.map((d) => d.id),
            ),
            eq(m.status, 'queued'),
          ),
        )
        .returning();
      if (rows.length > 0) {
        const values = {
          nextAt: new Date(nextAt + rows.length * intervalMs),
          dayStart,
          dayCount: dayCount + rows.length,
        };
        await tx
          .insert(campaignPacing)
          .values({ key, ...values })
          .onConflictDoUpdate({ target: campaignPacing.key, set: values });
      }
      return rows;
    });
  }

  /**
   * Moves a claimed message on (to `sending`, or `sent`), if it is still claimed and its campaign still runs: false
   * when a pause, a cancel or another process came first.
   */
  async function moveClaimed(db: Pick<Db, 'update'>, row: MessageRow, set: Partial<MessageRow>): Promise<boolean> {
    const moved = await db
      .update(campaignMessages)
      .set(set)
      .where(
        and(
          eq(campaignMessages.id, row.id),
          eq(campaignMessages.status, 'claimed'),
          sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${row.campaignId} and ${campaigns.status} = 'running')`,
        ),
      )
      .returning({ id: campaignMessages.id });
    return moved.length > 0;
  }

  async function settle(row: MessageRow, set: Partial<MessageRow>): Promise<void> {
    await ctx.db.update(campaignMessages).set(set).where(eq(campaignMessages.id, row.id));
  }

  /**
   * A contact who opted out since the campaign started (or was deleted) gets nothing more from it: not this channel,
   * nor the other.
   */
  async function skip(row: MessageRow, reason: string, report: CampaignDispatchReport) {
    report.skipped++;
    return settle(row, { status: 'skipped', reason });
  }

  /** A message that did not go: again later (a rate limit), by SMS (allowed and opted in), or failed with why. */
  async function refuse(campaign: CampaignRow, row: MessageRow, reason: string, retryable: boolean, report: CampaignDispatchReport) {
    const now = ctx.now();
    if (retryable && row.attempts < MAX_ATTEMPTS) {
      report.retried++;
      return settle(row, { status: 'queued', reason, nextAttemptAt: new Date(now.getTime() + 30_000 * 2 ** (row.attempts - 1)) });
    }
    if (row.channel === 'whatsapp' && campaign.channels === 'whatsapp_then_sms') {
      report.fellBack++;
      return settle(row, { channel: 'sms', status: 'queued', reason: `WhatsApp: ${reason}`, fellBackAt: now, nextAttemptAt: now });
    }
    report.failed++;
    return settle(row, { status: 'failed', reason });
  }

  async function sendWhatsApp(
    campaign: CampaignRow,
    link: { id: string; appId: string; connector: string },
    row: MessageRow,
    contact: ContactRow | undefined,
    report: CampaignDispatchReport,
  ) {
    const consent = contact
      ? checkConsent(contact, 'whatsapp')
      : { allowed: false as const, reason: `${row.msisdn} is no longer a contact` };
    if (!consent.allowed) return skip(row, consent.reason, report);
    const template = campaign.template!;
    let rendered: RenderedTemplate;
    try {
      rendered = await readTemplateToSend(ctx, {
        linkId: link.id,
        name: template.name,
        language: template.language,
        values: fillContactFields(template.variables, contact!),
      });
    } catch (err) {
      // A database gone fails the run: the message stays claimed and its lease puts it back.
      if (!(err instanceof AppError)) throw err;
      // A template no longer sendable (gone, not APPROVED: readTemplateToSend names `template.name`) pauses the
      // campaign; a contact without a value the template needs (renderTemplate's words) fails alone.
      const reason = toErrorMessage(err);
      if (err.extra?.field !== 'template.name') return refuse(campaign, row, reason, false, report);
      await pauseFor(campaign, reason);
      return settle(row, { status: 'queued', attempts: row.attempts - 1 });
    }
    // Marked `sending` and the reply's entry menu set together: a database gone in between leaves the message claimed,
    // never `unknown` without the provider having had it.
    const handing = await ctx.db.transaction(async (tx) => {
      if (!(await moveClaimed(tx, row, { status: 'sending', nextAttemptAt: new Date(ctx.now().getTime() + leaseMs) }))) return false;
      if (campaign.entryMenuId) await setPendingEntry(tx, link.id, row.msisdn, campaign.entryMenuId, ctx.now());
      return true;
    });
    if (!handing) return;
    let sent: Array<{ providerMessageId: string }>;
    try {
      sent = await parts.sendTemplate(link, row.msisdn.slice(1), rendered, campaign.ownerId);
    } catch (err) {
      const reason = toErrorMessage(err) || 'The provider refused the message';
      const retryable = (err instanceof AppError && err.kind === 'upstream') || RETRY_LATER.test(reason);
      return refuse(campaign, row, reason, retryable, report);
    }
    // The provider has it: a database gone now fails the run and leaves it `sending`, and its lease marks it `unknown`,
    // never refused (a fall back would send it twice) nor sent again.
    await settle(row, { status: 'sent', providerMessageId: sent[0]?.providerMessageId ?? null, sentAt: ctx.now(), reason: null });
    report.sent++;
  }

  async function sendSms(
    campaign: CampaignRow,
    dial: string,
    row: MessageRow,
    contact: ContactRow | undefined,
    report: CampaignDispatchReport,
  ) {
    const consent = contact ? checkConsent(contact, 'sms') : { allowed: false as const, reason: `${row.msisdn} is no longer a contact` };
    if (!consent.allowed) return skip(row, consent.reason, report);
    // The message is marked sent (if its campaign still runs) and its SMS joins the outbox in one transaction: a
    // process that stops anywhere in it leaves neither, so the SMS is queued exactly once; the SMS dispatcher then
    // delivers it with its own retries.
    const message = toSmsText(ctx, campaign.smsText ?? '', dial);
    // Scheduling checked the length; a dial string made longer since cannot be sent: the campaign waits for its owner.
    if (message.length > SMS_MAX_LENGTH) {
      await pauseFor(campaign, CAMPAIGN_MESSAGES.smsTooLongAsSent);
      return settle(row, { status: 'queued', attempts: row.attempts - 1 });
    }
    const queued = await ctx.db.transaction(async (tx) => {
      if (!(await moveClaimed(tx, row, { status: 'sent', sentAt: ctx.now() }))) return false;
      const sms = await queueSms(
        ctx,
        {
          appId: campaign.ussdAppId,
          ownerId: campaign.ownerId,
          sessionId: `campaign:${campaign.id}`,
          sender: campaign.smsSender,
          recipient: row.msisdn,
          message,
        },
        { db: tx },
      );
      await tx.update(campaignMessages).set({ smsMessageId: sms.id }).where(eq(campaignMessages.id, row.id));
      return true;
    });
    if (!queued) return;
    report.sent++;
  }

  async function pauseFor(campaign: CampaignRow, reason: string): Promise<void> {
    touched.add(campaign.id);
    await ctx.db
      .update(campaigns)
      .set({ status: 'paused', pausedReason: reason, updatedAt: ctx.now() })
      .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, 'running')));
    await ctx.db
      .update(campaignMessages)
      .set({ status: 'queued' })
      .where(and(eq(campaignMessages.campaignId, campaign.id), eq(campaignMessages.status, 'claimed')));
    ctx.log.warn({ campaignId: campaign.id, reason }, 'a campaign paused itself');
  }

  /** Claims and sends batch after batch while a claim comes back full: a pace above a batch a run is kept. */
  async function inBatches(next: () => Promise<MessageRow[]>, send: (rows: MessageRow[]) => Promise<void>): Promise<void> {
    for (;;) {
      const rows = await next();
      if (rows.length > 0) await send(rows);
      if (rows.length < batchSize) return;
    }
  }

  /** Runs `work` on each item, `concurrency` at a time. */
  async function inTurns<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
    let next = 0;
    const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    });
    await Promise.all(lanes);
  }

  async function readContacts(ownerId: string, rows: MessageRow[]): Promise<Map<string, ContactRow>> {
    if (rows.length === 0) return new Map();
    const found = await ctx.db
      .select()
      .from(contacts)
      .where(
        and(
          eq(contacts.ownerId, ownerId),
          inArray(
            contacts.msisdn,
            rows.map((r) => r.msisdn),
          ),
        ),
      );
    return new Map(found.map((c) => [c.msisdn, c]));
  }

  async function sendCampaign(campaign: CampaignRow, shares: Map<string, number>, report: CampaignDispatchReport): Promise<void> {
    const now = ctx.now();
    if (!isInSendWindow(campaign, now)) return;
    if (campaign.channels !== 'sms') {
      const link = await findCampaignLink(ctx, campaign);
      if (!link) {
        await pauseFor(campaign, CAMPAIGN_MESSAGES.numberGone);
        return;
      }
      const linked = link.connector === 'baileys';
      const intervalMs = linked ? 60_000 / config.CAMPAIGN_LINKED_DEVICE_PER_MINUTE : 1000 / config.CAMPAIGN_WHATSAPP_PER_SECOND;
      const key = `whatsapp:${link.id}`;
      // Meta's messaging limit for the number's business when it told one (null: unlimited), else the setting.
      const told = toDailyLimit(link.messagingLimit);
      const daily = told === undefined ? config.CAMPAIGN_WHATSAPP_DAILY_LIMIT : told;
      const pace = { key, intervalMs, daily, share: shares.get(key) ?? 1 };
      await inBatches(
        () => claim(campaign, 'whatsapp', pace, ctx.now()),
        async (rows) => {
          const people = await readContacts(campaign.ownerId, rows);
          await inTurns(rows, (row) => sendWhatsApp(campaign, link, row, people.get(row.msisdn), report));
        },
      );
    }
    if (campaign.channels !== 'whatsapp') {
      const dial = await readDial(ctx, campaign);
      const key = `sms:${config.SMS_PROVIDER}`;
      const pace = { key, intervalMs: 1000 / config.CAMPAIGN_SMS_PER_SECOND, daily: null, share: shares.get(key) ?? 1 };
      await inBatches(
        () => claim(campaign, 'sms', pace, ctx.now()),
        async (rows) => {
          const people = await readContacts(campaign.ownerId, rows);
          await inTurns(rows, (row) => sendSms(campaign, dial, row, people.get(row.msisdn), report));
        },
      );
    }
  }

  /**
   * Marks done the running campaigns with nothing left to send. One that may fall back to SMS also waits, up to
   * FALLBACK_WAIT_MS after each WhatsApp message, for WhatsApp to say it was delivered, read or failed: a failure
   * reported by the status webhook still goes by SMS.
   */
  async function finish(now: Date): Promise<void> {
    const waitSince = new Date(now.getTime() - FALLBACK_WAIT_MS).toISOString();
    const finished = await ctx.db
      .update(campaigns)
      .set({ status: 'done', finishedAt: now, updatedAt: now })
      .where(
        and(
          eq(campaigns.status, 'running'),
          isNotNull(campaigns.loadedAt),
          sql`not exists (select 1 from ${campaignMessages} where ${campaignMessages.campaignId} = ${campaigns.id}
            and ${campaignMessages.status} in ('queued', 'claimed', 'sending'))`,
          sql`(${campaigns.channels} <> 'whatsapp_then_sms' or not exists (
            select 1 from ${campaignMessages} m
            left join whatsapp_messages w on w.link_id = ${campaigns.linkId}::text and w.provider_message_id = m.provider_message_id
            where m.campaign_id = ${campaigns.id} and m.channel = 'whatsapp' and m.status = 'sent'
              and m.sent_at > ${waitSince}::timestamptz and coalesce(w.status, 'sent') = 'sent'))`,
        ),
      )
      .returning({ id: campaigns.id });
    for (const { id } of finished) touched.add(id);
  }

  /** Tells each changed campaign's account, so its open screens read it again (nothing when nobody listens). */
  async function tell(): Promise<void> {
    if (!options.events || touched.size === 0) return;
    const changed = await ctx.db
      .select({ id: campaigns.id, ownerId: campaigns.ownerId, status: campaigns.status })
      .from(campaigns)
      .where(inArray(campaigns.id, [...touched]));
    for (const row of changed)
      options.events.publish(row.ownerId, { type: 'campaign_changed', campaignId: row.id, status: row.status as CampaignStatus });
  }

  async function run(): Promise<CampaignDispatchReport> {
    const report: CampaignDispatchReport = { started: 0, sent: 0, failed: 0, fellBack: 0, retried: 0, skipped: 0 };
    const now = ctx.now();
    touched = new Set();
    await endLeases(now);
    for (let id = await startOne(now); id; id = await startOne(now)) {
      report.started++;
      touched.add(id);
    }
    const loading = await ctx.db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.status, 'running'), isNull(campaigns.loadedAt)));
    for (const { id } of loading) {
      touched.add(id);
      await loadOne(id, now);
    }
    report.fellBack += await fallBack(now);
    const running = await ctx.db.select().from(campaigns).where(eq(campaigns.status, 'running'));
    // How many of the running campaigns share each sender (a WhatsApp number, the SMS provider).
    const shares = new Map<string, number>();
    const share = (key: string) => shares.set(key, (shares.get(key) ?? 0) + 1);
    for (const campaign of running) {
      if (campaign.channels !== 'sms' && campaign.linkId) share(`whatsapp:${campaign.linkId}`);
      if (campaign.channels !== 'whatsapp') share(`sms:${config.SMS_PROVIDER}`);
    }
    // One campaign's failure (a bug its data trips, a refusal nobody foresaw) is logged and never holds back the
    // others, another account's included; a database gone fails them all, and finish() then fails the run.
    for (const campaign of running) {
      const before = report.sent + report.failed + report.skipped + report.retried;
      await sendCampaign(campaign, shares, report).catch((err: unknown) =>
        ctx.log.error({ err, campaignId: campaign.id }, 'a campaign could not send in this run'),
      );
      if (report.sent + report.failed + report.skipped + report.retried !== before) touched.add(campaign.id);
    }
    await finish(ctx.now());
    await tell();
    return report;
  }

  return createPeriodicTask('campaign dispatcher', run, {
    intervalMs: options.intervalMs ?? config.CAMPAIGN_DISPATCH_INTERVAL_MS,
    log: ctx.log,
  });
}
