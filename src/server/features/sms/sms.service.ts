import { and, desc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { apps, contacts, smsMessages, smsReplies } from '../../../db/schema';
import { createAfricasTalkingSmsProvider } from '../../../integrations/sms/africastalking-sms';
import { createOutboxSmsProvider, type SmsProvider } from '../../../integrations/sms/sms-provider';
import { invalid, toErrorMessage } from '../../../shared/errors';
import { isSmsSender, SMS_SENDER_MESSAGE } from '../../../shared/sms-sender';
import { hasAdminPermission } from '../../../shared/roles';
import type { Db } from '../../../db/client';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { normalizeMsisdn, toE164 } from '../../core/msisdn';
import { checkConsent } from '../../core/consent';
import { createPeriodicTask, type PeriodicTask } from '../../periodic-task';
import type { AuthUser } from '../../core/auth-user';
import { getMonitoredApp } from '../../core/app-access';
import type { SmsMessage } from '../../../shared/api/sms.schema';

export type SmsMessageRow = typeof smsMessages.$inferSelect;

/** Six concatenated GSM-7 segments of 153 characters. */
export const SMS_MAX_LENGTH = 918;

export interface QueueSmsRequest {
  appId: string | null;
  ownerId: string | null;
  sessionId?: string;
  sender: string;
  recipient: string;
  message: string;
}

/** The configured provider; buildApp makes the one the dispatcher and tests share (ctx.smsProvider). */
export function createSmsProvider(config: Config): SmsProvider {
  return config.SMS_PROVIDER === 'africastalking'
    ? createAfricasTalkingSmsProvider({
        username: requireKey(config.AT_USERNAME, 'AT_USERNAME'),
        apiKey: requireKey(config.AT_API_KEY, 'AT_API_KEY'),
        baseUrl: config.AT_SMS_URL,
      })
    : createOutboxSmsProvider();
}

function requireKey(value: string | undefined, key: string): string {
  // loadConfig already refuses this at boot; createConfig (tests, tools) skips that check.
  if (!value) throw new Error(`${key} is required for the chosen SMS provider`);
  return value;
}

function checkSender(sender: string): string {
  if (isSmsSender(sender)) return sender.trim();
  throw invalid(SMS_SENDER_MESSAGE, { field: 'smsSender' });
}

/**
 * Queues one SMS: validates it and inserts a QUEUED row; the dispatcher delivers it outside the hop.
 * With `keepInOutbox` (a featured template's test run) the row is kept in the local outbox as sent, whatever
 * SMS_PROVIDER says: the dispatcher never sees it, so nothing leaves the machine. `db`: a transaction the row is
 * written in (a campaign's message is marked sent in the same one).
 * @example `await queueSms(ctx, { appId, ownerId, sessionId, sender: 'Dialflow', recipient: '+233201234567', message: 'Paid' })`
 */
export async function queueSms(
  ctx: AppContext,
  request: QueueSmsRequest,
  options: { keepInOutbox?: boolean; db?: Db } = {},
): Promise<{ id: string }> {
  const recipient = normalizeMsisdn(request.recipient);
  if (!recipient) throw invalid('The SMS recipient must be a phone number of 7 to 15 digits, with an optional +', { field: 'mobile' });
  const sender = checkSender(request.sender);
  if (request.message.trim() === '') throw invalid('The SMS message is empty', { field: 'smsMessage' });
  if (request.message.length > SMS_MAX_LENGTH)
    throw invalid(`The SMS message cannot be longer than ${SMS_MAX_LENGTH} characters (6 parts)`, { field: 'smsMessage' });
  const [row] = await (options.db ?? ctx.db)
    .insert(smsMessages)
    .values({
      appId: request.appId,
      ownerId: request.ownerId,
      sessionId: request.sessionId ?? '',
      sender,
      recipient,
      message: request.message,
      ...(options.keepInOutbox ? { status: 'SENT', provider: 'outbox', sentAt: ctx.now() } : { provider: ctx.config.SMS_PROVIDER }),
      nextAttemptAt: ctx.now(),
      createdAt: ctx.now(),
    })
    .returning({ id: smsMessages.id });
  return { id: row!.id };
}

/**
 * An app's SMS to a number and the account's contact for it (docs/contacts.md, "Consent"): refused, with the
 * reason, when the contact opted out of SMS; otherwise the number in E.164 form, for the contact's `sms` seen
 * (null: no phone number, no contact). An SMS an app sends in a session answers the person's own session, so a
 * number that never opted in is not refused here (sends that come first ask checkConsent, which wants an opt in).
 */
export async function checkSmsConsent(ctx: AppContext, sms: { appId: string; ownerId: string; recipient: string }): Promise<string | null> {
  const [app] = await ctx.db.select({ country: apps.country }).from(apps).where(eq(apps.id, sms.appId));
  const msisdn = toE164(sms.recipient, app?.country);
  if (!msisdn) return null;
  const [contact] = await ctx.db
    .select({ consent: contacts.consent })
    .from(contacts)
    .where(and(eq(contacts.ownerId, sms.ownerId), eq(contacts.msisdn, msisdn)));
  if (contact?.consent.sms?.status === 'out') {
    const check = checkConsent({ msisdn, consent: contact.consent }, 'sms');
    throw invalid(check.allowed ? 'Opted out of SMS' : check.reason, { field: 'mobile' });
  }
  return msisdn;
}

/**
 * The outbox: an app's messages (whoever reads its sessions: getMonitoredApp), or all of the user's (an admin with
 * `tenantSession.read`: everyone's; the messages went to callers), newest first.
 */
export async function findSmsMessages(ctx: AppContext, user: AuthUser, query: { appId?: string; limit?: number }): Promise<SmsMessage[]> {
  const filters: SQL[] = [];
  if (query.appId) {
    await getMonitoredApp(ctx, user, query.appId);
    filters.push(eq(smsMessages.appId, query.appId));
  } else if (!hasAdminPermission(user, 'tenantSession.read')) {
    filters.push(eq(smsMessages.ownerId, user.id));
  }
  const replies = sql<number>`(select count(*)::int from ${smsReplies} r where r.sms_message_id = ${smsMessages.id})`;
  const rows = await ctx.db
    .select({ message: smsMessages, appName: apps.appName, replies })
    .from(smsMessages)
    .leftJoin(apps, eq(apps.id, smsMessages.appId))
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(desc(smsMessages.createdAt), desc(smsMessages.id))
    .limit(query.limit ?? 100);
  return rows.map((row) => toSmsMessage(row.message, row.appName, Number(row.replies)));
}

function toSmsMessage(row: SmsMessageRow, appName: string | null, replies: number): SmsMessage {
  return {
    id: row.id,
    appId: row.appId,
    appName,
    sessionId: row.sessionId,
    sender: row.sender,
    recipient: row.recipient,
    message: row.message,
    status: row.status as SmsMessage['status'],
    provider: row.provider,
    providerMessageId: row.providerMessageId,
    attempts: row.attempts,
    lastError: row.lastError,
    // Only a queued message has a next attempt; on a finished one the column is the last lease.
    nextAttemptAt: row.status === 'QUEUED' ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    deliveryStatus: row.deliveryStatus as SmsMessage['deliveryStatus'],
    deliveryError: row.deliveryError,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    replies,
  };
}

export interface SmsDispatcherOptions {
  /** Poll period; 0 disables the timer (tests call runOnce). */
  intervalMs?: number;
  batchSize?: number;
  maxAttempts?: number;
  /**
   * The messages a batch sent or failed for good, for what shows them (a campaign's live screens); called after the
   * batch's rows are written. A failure here is logged and changes nothing sent.
   */
  onSettled?: (smsIds: string[]) => Promise<void>;
  /** First retry delay; doubled per attempt, capped at an hour. */
  baseDelayMs?: number;
  /** How long a claimed row is reserved for this process before another may pick it up (crash safety). */
  leaseMs?: number;
}

export interface SmsDispatchReport {
  sent: number;
  retried: number;
  failed: number;
}

export type SmsDispatcher = PeriodicTask<SmsDispatchReport>;

/** Delay before attempt n+1 after n failed attempts: base, 2x base, 4x base, ... at most an hour. */
export function getRetryDelayMs(attempts: number, baseDelayMs: number): number {
  return Math.min(baseDelayMs * 2 ** Math.max(0, attempts - 1), 60 * 60 * 1000);
}

/**
 * Delivers queued SMS outside the hop. Each run claims due rows in one statement (`UPDATE ... WHERE id IN
 * (SELECT ... FOR UPDATE SKIP LOCKED)`), which counts the attempt and pushes `next_attempt_at` forward as a lease,
 * so several processes (or a crash mid-send) never deliver a row twice at once. Then it sends and marks SENT,
 * or schedules a retry with exponential backoff, or marks FAILED after `maxAttempts` or a permanent error.
 */
export function createSmsDispatcher(ctx: AppContext, provider: SmsProvider, options: SmsDispatcherOptions = {}): SmsDispatcher {
  const intervalMs = options.intervalMs ?? 2000;
  const batchSize = options.batchSize ?? 20;
  const maxAttempts = options.maxAttempts ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 30_000;
  const leaseMs = options.leaseMs ?? 5 * 60_000;

  async function claim(): Promise<SmsMessageRow[]> {
    const now = ctx.now();
    const due = ctx.db
      .select({ id: smsMessages.id })
      .from(smsMessages)
      .where(and(eq(smsMessages.status, 'QUEUED'), lte(smsMessages.nextAttemptAt, now)))
      .orderBy(smsMessages.nextAttemptAt)
      .limit(batchSize)
      .for('update', { skipLocked: true });
    return ctx.db
      .update(smsMessages)
      .set({ attempts: sql`${smsMessages.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + leaseMs), provider: provider.kind })
      .where(and(inArray(smsMessages.id, due), eq(smsMessages.status, 'QUEUED')))
      .returning();
  }

  async function deliver(row: SmsMessageRow, report: SmsDispatchReport, settled: string[]): Promise<void> {
    const result = await provider.send({ from: row.sender, to: row.recipient, message: row.message }).catch((err: unknown) => ({
      status: 'FAILED' as const,
      providerMessageId: null,
      error: toErrorMessage(err),
      retryable: true,
    }));
    if (result.status === 'SENT') {
      await ctx.db
        .update(smsMessages)
        .set({ status: 'SENT', providerMessageId: result.providerMessageId, sentAt: ctx.now(), lastError: null })
        .where(eq(smsMessages.id, row.id));
      report.sent++;
      settled.push(row.id);
      if (provider.kind === 'outbox')
        ctx.log.info({ sms: { id: row.id, to: row.recipient, from: row.sender, message: row.message } }, 'SMS kept in the local outbox');
      return;
    }
    const isFinal = !result.retryable || row.attempts >= maxAttempts;
    await ctx.db
      .update(smsMessages)
      .set({
        status: isFinal ? 'FAILED' : 'QUEUED',
        providerMessageId: result.providerMessageId,
        lastError: result.error.slice(0, 1000),
        nextAttemptAt: new Date(ctx.now().getTime() + (isFinal ? 0 : getRetryDelayMs(row.attempts, baseDelayMs))),
      })
      .where(eq(smsMessages.id, row.id));
    if (isFinal) {
      report.failed++;
      settled.push(row.id);
      ctx.log.warn({ smsId: row.id, attempts: row.attempts, error: result.error }, 'SMS could not be delivered');
    } else {
      report.retried++;
    }
  }

  async function run(): Promise<SmsDispatchReport> {
    const report: SmsDispatchReport = { sent: 0, retried: 0, failed: 0 };
    for (;;) {
      const rows = await claim();
      const settled: string[] = [];
      await Promise.all(rows.map((row) => deliver(row, report, settled)));
      // Told a batch at a time: a long drain shows as it goes, and a batch's ids stay few.
      if (settled.length > 0 && options.onSettled)
        await options.onSettled(settled).catch((err: unknown) => ctx.log.warn({ err }, 'the settled SMS could not be told'));
      if (rows.length < batchSize) return report;
    }
  }

  return createPeriodicTask('SMS dispatcher', run, { intervalMs, log: ctx.log });
}
