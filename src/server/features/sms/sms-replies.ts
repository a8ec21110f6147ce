/**
 * What comes back after an SMS (docs/runtime.md, "SMS replies and delivery reports"): the network's delivery report,
 * a person's reply, and an opt out the provider took for a sender id. A reply belongs to the account whose SMS went
 * to that number last (from the sender it was written to, where one did); a consent keyword in it (STOP, START)
 * changes that account's contact's SMS consent, as the same word does on WhatsApp.
 */
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { apps, smsMessages, smsReplies } from '../../../db/schema';
import { readConsentKeyword } from '../../../shared/contact-consent';
import { notFound } from '../../../shared/errors';
import type { SmsReply } from '../../../shared/api/sms.schema';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { changeConsent } from '../../core/contact-records';
import { toE164, toStoredForms } from '../../core/msisdn';

/** A delivery report in our words: which message (the provider's id) and what became of it. */
export interface DeliveryReport {
  provider: string;
  providerMessageId: string;
  status: 'submitted' | 'delivered' | 'failed';
  /** The provider's reason for a failure. */
  error: string | null;
}

/**
 * Records a delivery report on the message it names. A report never takes a final one back (a `submitted` or a
 * `failed` that arrives after `delivered` changes nothing), so reports may come in any order and more than once.
 * @returns whether it changed a message (false: no message of that provider has the id, or it was already final).
 */
export async function recordDeliveryReport(ctx: AppContext, report: DeliveryReport): Promise<boolean> {
  const final = report.status !== 'submitted';
  const rows = await ctx.db
    .update(smsMessages)
    .set({
      deliveryStatus: report.status,
      deliveryError: report.status === 'failed' ? (report.error ?? 'The network did not deliver it') : null,
      deliveredAt: report.status === 'delivered' ? ctx.now() : null,
    })
    .where(
      and(
        eq(smsMessages.provider, report.provider),
        eq(smsMessages.providerMessageId, report.providerMessageId),
        // A report only moves a message on: to `submitted` from nothing, to a final state from nothing or `submitted`.
        final ? sql`coalesce(${smsMessages.deliveryStatus}, 'submitted') = 'submitted'` : sql`${smsMessages.deliveryStatus} is null`,
      ),
    )
    .returning({ id: smsMessages.id });
  return rows.length > 0;
}

/** A person's SMS as it reached us. */
export interface IncomingSms {
  provider: string;
  /** The provider's id of it: a notification delivered twice is kept once. */
  providerMessageId: string;
  from: string;
  /** The shortcode or sender it was written to; '' when not known. */
  to: string;
  text: string;
}

/**
 * Keeps a person's SMS as a reply to the account that last wrote to them, and applies a consent keyword in it.
 * @returns the reply, or null when no account ever sent the number an SMS (nobody to give it to).
 */
export async function receiveSms(ctx: AppContext, sms: IncomingSms): Promise<SmsReply | null> {
  const msisdn = toE164(sms.from);
  if (!msisdn) return null;
  const last = await findLastSmsTo(ctx, msisdn, sms.to);
  if (!last) return null;
  return keepReply(ctx, { ...last, msisdn }, sms);
}

/**
 * The local outbox's stand-in for the network: the recipient of one of the account's outbox messages writes back.
 * Another account's message, or one a real provider sent, is not found.
 */
export async function replyFromOutbox(ctx: AppContext, user: AuthUser, smsId: string, text: string): Promise<SmsReply> {
  const [row] = await ctx.db
    .select({ id: smsMessages.id, recipient: smsMessages.recipient, country: apps.country })
    .from(smsMessages)
    .leftJoin(apps, eq(apps.id, smsMessages.appId))
    .where(and(eq(smsMessages.id, smsId), eq(smsMessages.ownerId, user.id), eq(smsMessages.provider, 'outbox')));
  const msisdn = row ? toE164(row.recipient, row.country) : null;
  if (!row || !msisdn) throw notFound('SMS not found in the outbox');
  return keepReply(
    ctx,
    { ownerId: user.id, smsMessageId: row.id, msisdn },
    { provider: 'outbox', providerMessageId: crypto.randomUUID(), from: msisdn, to: '', text },
  );
}

/**
 * The provider's notice that a person opted out of a sender id's bulk SMS: every account that sent them an SMS from
 * that sender (the provider's default sender counts as any) gets the contact's SMS consent set to out.
 * @returns how many accounts' contacts changed.
 */
export async function optOutOfSender(ctx: AppContext, provider: string, from: string, senderId: string): Promise<number> {
  const msisdn = toE164(from);
  if (!msisdn) return 0;
  const sent = await findSentTo(
    ctx,
    msisdn,
    and(eq(smsMessages.provider, provider), inArray(smsMessages.sender, [senderId, ''])) as SQL,
    [desc(smsMessages.createdAt)],
    1000,
  );
  const owners = new Set(sent.map((row) => row.ownerId!));
  const at = ctx.now().toISOString();
  let changed = 0;
  for (const ownerId of owners) {
    const consent = {
      status: 'out' as const,
      at,
      source: 'api' as const,
      detail: `the provider's opt-out for sender ${senderId || 'default'}`,
    };
    if (await changeConsent(ctx.db, { ownerId, msisdn }, 'sms', consent)) changed += 1;
  }
  return changed;
}

/** The account's replies, newest first (one number's when asked). */
export async function findSmsReplies(ctx: AppContext, user: AuthUser, query: { msisdn?: string; limit?: number }): Promise<SmsReply[]> {
  const msisdn = query.msisdn ? toE164(query.msisdn) : null;
  const rows = await ctx.db
    .select()
    .from(smsReplies)
    .where(and(eq(smsReplies.ownerId, user.id), query.msisdn ? eq(smsReplies.msisdn, msisdn ?? '') : undefined))
    .orderBy(desc(smsReplies.receivedAt), desc(smsReplies.id))
    .limit(query.limit ?? 100);
  return rows.map((row) => ({ ...toSmsReply(row), consent: null }));
}

/**
 * The SMS sent to the number: rows whose recipient, read with its app's country, is that number. A recipient is kept
 * as it was written (`0722123456`): the same digits are another country's number for an app elsewhere.
 */
async function findSentTo(ctx: AppContext, msisdn: string, where: SQL, order: SQL[], limit: number) {
  const rows = await ctx.db
    .select({ id: smsMessages.id, ownerId: smsMessages.ownerId, recipient: smsMessages.recipient, country: apps.country })
    .from(smsMessages)
    .leftJoin(apps, eq(apps.id, smsMessages.appId))
    .where(and(inArray(smsMessages.recipient, toStoredForms(msisdn)), sql`${smsMessages.ownerId} is not null`, where))
    .orderBy(...order)
    .limit(limit);
  return rows.filter((row) => toE164(row.recipient, row.country) === msisdn);
}

/** The account's last SMS sent to a number, preferring one from the sender the reply was written to. */
async function findLastSmsTo(ctx: AppContext, msisdn: string, to: string): Promise<{ ownerId: string; smsMessageId: string } | null> {
  const rows = await findSentTo(
    ctx,
    msisdn,
    eq(smsMessages.status, 'SENT'),
    [sql`${smsMessages.sender} = ${to} desc`, desc(smsMessages.sentAt)],
    50,
  );
  const row = rows[0];
  return row?.ownerId ? { ownerId: row.ownerId, smsMessageId: row.id } : null;
}

/**
 * Stores the reply once (a redelivered notification finds it stored and changes nothing), then applies its consent
 * keyword: STOP and the other stop words opt the contact out of SMS, START and the start words back in.
 */
async function keepReply(
  ctx: AppContext,
  target: { ownerId: string; smsMessageId: string; msisdn: string },
  sms: IncomingSms,
): Promise<SmsReply> {
  const [row] = await ctx.db
    .insert(smsReplies)
    .values({
      ownerId: target.ownerId,
      smsMessageId: target.smsMessageId,
      msisdn: target.msisdn,
      text: sms.text,
      provider: sms.provider,
      providerMessageId: sms.providerMessageId,
      receivedAt: ctx.now(),
    })
    .onConflictDoNothing()
    .returning();
  const kept = row ?? (await findStored(ctx, sms));
  const keyword = row ? readConsentKeyword(sms.text, null) : null;
  const changed =
    keyword &&
    (await changeConsent(ctx.db, { ownerId: target.ownerId, msisdn: target.msisdn }, 'sms', {
      status: keyword.status,
      at: ctx.now().toISOString(),
      source: 'keyword',
      detail: keyword.word,
    }));
  return { ...toSmsReply(kept), consent: changed ? keyword.status : null };
}

async function findStored(ctx: AppContext, sms: IncomingSms): Promise<typeof smsReplies.$inferSelect> {
  const [row] = await ctx.db
    .select()
    .from(smsReplies)
    .where(and(eq(smsReplies.provider, sms.provider), eq(smsReplies.providerMessageId, sms.providerMessageId)));
  return row!;
}

function toSmsReply(row: typeof smsReplies.$inferSelect): Omit<SmsReply, 'consent'> {
  return {
    id: row.id,
    smsMessageId: row.smsMessageId,
    msisdn: row.msisdn,
    text: row.text,
    provider: row.provider,
    receivedAt: row.receivedAt.toISOString(),
  };
}
