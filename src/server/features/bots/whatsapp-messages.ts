/**
 * The messages bots send on WhatsApp and their delivery statuses (docs/whatsapp-connectors.md, "Delivery
 * statuses"): recorded through the event sink after a connector's send (no round trip on the hop's path), moved
 * forward by the statuses the connectors report, never back, and only for the link they came for.
 */
import { and, eq, gte, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { whatsappMessages } from '../../../db/schema';
import type { ChatReply } from '../../../shared/whatsapp';
import { statusesBefore, type DeliveryStatus, type DeliveryUpdate, type SentMessage } from '../../../shared/whatsapp-status';
import type { AppContext } from '../../context';
import type { Environment } from '../../../shared/environment';

/** Whose sent messages a reply's are: the bot's account and app, where they ran and for whom. */
export interface SentBy {
  ownerId: string;
  appId: string;
  environment: Environment;
  /** The console's chat simulator: whose run it was. */
  caller?: string | null;
}

export type WhatsAppMessageRow = typeof whatsappMessages.$inferInsert;

/** The rows for one reply's sent messages, as the sink writes them (status `sent`, at `sentAt`). */
export function toSentRows(reply: ChatReply, sent: SentMessage[], by: SentBy, sentAt: Date): WhatsAppMessageRow[] {
  return sent.map(({ providerMessageId, message }) => ({
    userId: by.ownerId,
    appId: by.appId,
    linkId: reply.linkId,
    environment: by.environment,
    caller: by.caller ?? null,
    toNumber: reply.to,
    sessionId: reply.sessionId,
    providerMessageId,
    kind: message.type,
    status: 'sent',
    failureReason: '',
    sentAt,
  }));
}

const TIME_COLUMN: Record<DeliveryStatus, 'sentAt' | 'deliveredAt' | 'readAt' | 'failedAt'> = {
  sent: 'sentAt',
  delivered: 'deliveredAt',
  read: 'readAt',
  failed: 'failedAt',
};

/**
 * Moves the message `update` names forward, in one statement: only a message of the update's link (and, for the
 * console's chat simulator, of its caller), only from a state before the new one (shared/whatsapp-status.ts), so
 * a status repeated or out of order changes nothing. A state's time is kept from its first report. `found`:
 * whether the link has a message by that id at all (false: a message we never sent, or not yet written).
 */
export async function applyDeliveryUpdate(
  ctx: AppContext,
  update: DeliveryUpdate,
  caller?: string,
): Promise<{ found: boolean; changed: boolean }> {
  const at = new Date(update.at);
  const recent = await applyWithin(ctx, update, caller, sentAround(at));
  return recent.found ? recent : applyWithin(ctx, update, caller);
}

/**
 * A status nearly always comes within days of its message: the message is looked for among the messages sent
 * around then first, so on PostgreSQL the statements plan and read only those days' partitions rather than every
 * day's (docs/operations.md, "Day partitions on PostgreSQL"), and among all only when it is not there.
 */
const RECENT_MS = 2 * 86_400_000;
const sentAround = (at: Date) =>
  and(gte(whatsappMessages.sentAt, new Date(at.getTime() - RECENT_MS)), lte(whatsappMessages.sentAt, new Date(at.getTime() + RECENT_MS)));

async function applyWithin(
  ctx: AppContext,
  update: DeliveryUpdate,
  caller: string | undefined,
  within?: SQL,
): Promise<{ found: boolean; changed: boolean }> {
  const at = new Date(update.at);
  const scope = and(
    eq(whatsappMessages.linkId, update.linkId),
    eq(whatsappMessages.providerMessageId, update.providerMessageId),
    caller === undefined ? undefined : eq(whatsappMessages.caller, caller),
    within,
  );
  const column = whatsappMessages[TIME_COLUMN[update.status]];
  const from = statusesBefore(update.status);
  const changed =
    from.length === 0
      ? []
      : await ctx.db
          .update(whatsappMessages)
          .set({
            status: update.status,
            [TIME_COLUMN[update.status]]: sql`coalesce(${column}, ${at.toISOString()}::timestamptz)`,
            ...(update.status === 'failed' ? { failureCode: update.failureCode ?? null, failureReason: update.failureReason ?? '' } : {}),
          })
          .where(and(scope, inArray(whatsappMessages.status, from)))
          .returning({ id: whatsappMessages.id });
  if (changed.length > 0) return { found: true, changed: true };
  // Not moved: a state at or past this one keeps it, but a first report of a state passed over (a `delivered`
  // after `read`) still notes its time.
  if (update.status !== 'failed')
    await ctx.db
      .update(whatsappMessages)
      .set({ [TIME_COLUMN[update.status]]: at })
      .where(and(scope, isNull(column), sql`${whatsappMessages.status} <> 'failed'`));
  const [row] = await ctx.db.select({ id: whatsappMessages.id }).from(whatsappMessages).where(scope).limit(1);
  return { found: row !== undefined, changed: false };
}

/**
 * The server's `onStatus`: a status for a message not written yet (the sink writes every 250 ms, and the simulator
 * reports at once) is tried again once the sink has written; one still unknown is logged and ignored.
 */
export async function receiveDeliveryUpdate(
  ctx: AppContext,
  update: DeliveryUpdate,
  flush: () => Promise<void>,
  caller?: string,
): Promise<boolean> {
  let result = await applyDeliveryUpdate(ctx, update, caller);
  if (!result.found) {
    await flush();
    result = await applyDeliveryUpdate(ctx, update, caller);
  }
  if (!result.found)
    ctx.log.info(
      { linkId: update.linkId, providerMessageId: update.providerMessageId, status: update.status },
      'a WhatsApp delivery status for a message this link never sent was ignored',
    );
  return result.found;
}

/** A sent message's state as the console shows it. */
export interface MessageStatusView {
  id: string;
  status: DeliveryStatus;
  failureReason: string;
}

/** The statuses of the given provider ids of one link (and caller), for the console to show ticks. */
export async function findMessageStatuses(ctx: AppContext, linkId: string, ids: string[], caller?: string): Promise<MessageStatusView[]> {
  if (ids.length === 0) return [];
  const find = (wanted: string[], within?: SQL) =>
    ctx.db
      .select({ id: whatsappMessages.providerMessageId, status: whatsappMessages.status, failureReason: whatsappMessages.failureReason })
      .from(whatsappMessages)
      .where(
        and(
          eq(whatsappMessages.linkId, linkId),
          inArray(whatsappMessages.providerMessageId, wanted),
          caller === undefined ? undefined : eq(whatsappMessages.caller, caller),
          within,
        ),
      );
  // The chat's messages are mostly recent: those days first, then every day for the ids not found there.
  const rows = await find(ids, sentAround(ctx.now()));
  const found = new Set(rows.map((r) => r.id));
  const older = ids.filter((id) => !found.has(id));
  if (older.length > 0) rows.push(...(await find(older)));
  return rows.map((r) => ({ id: r.id, status: r.status as DeliveryStatus, failureReason: r.failureReason }));
}
