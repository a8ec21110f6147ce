import { and, eq, inArray, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { shortcodePurchases, users } from '../../../db/schema';
import { RESERVATION_MINUTES } from '../../../shared/api/shortcodes.schema';
import { getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import { sendMail } from '../../core/mail';
import { addMonths, formatDay } from '../../core/dates';
import type { AfterSettlement, SettledTransaction, ShortcodePaymentMetadata } from '../../core/settlements';

export const RESERVATION_MS = RESERVATION_MINUTES * 60_000;

/**
 * True when no other purchase reserves or holds the row's dial string: the condition under which the row may take
 * it (the holder index would refuse it otherwise, and abort the whole transaction).
 */
export function hasNoOtherHolder(row: { id: string; providerKey: string; dialString: string }): SQL {
  return sql`not exists (
    select 1 from ${shortcodePurchases} other
    where other.provider_key = ${row.providerKey} and other.dial_string = ${row.dialString}
      and other.status in ('reserved', 'active') and other.id <> ${row.id})`;
}

/**
 * A shortcode payment settled. SUCCESS makes the purchase active: from today for a first payment, and for a
 * renewal from the later of today and its current expiry, for the months paid. A purchase whose reservation
 * lapsed before the money came takes its dial string back when no one else has it, else it becomes `refund_due`
 * (never two holders). FAILED frees the reservation at once. Runs in the settlement's database transaction (buildApp
 * gives it to payments as the `shortcode` settlement handler).
 */
export async function settleShortcodePayment(
  ctx: AppContext,
  tx: Db,
  transaction: SettledTransaction,
): Promise<AfterSettlement | undefined> {
  const meta = transaction.metadata as Partial<ShortcodePaymentMetadata>;
  const [purchase] = meta.purchaseId
    ? await tx.select().from(shortcodePurchases).where(eq(shortcodePurchases.id, meta.purchaseId)).for('update')
    : [];
  if (!purchase) {
    ctx.log.error({ reference: transaction.reference }, 'a shortcode payment settled for a purchase that does not exist');
    return undefined;
  }
  const now = ctx.now();
  if (transaction.status !== 'SUCCESS') {
    await tx
      .update(shortcodePurchases)
      .set({ status: purchase.expiryDate ? 'expired' : 'lapsed', reservedUntil: null, updatedAt: now })
      .where(and(eq(shortcodePurchases.id, purchase.id), eq(shortcodePurchases.status, 'reserved')));
    return undefined;
  }

  const months = Math.min(12, Math.max(1, Math.trunc(Number(meta.leaseCount) || 1)));
  const from = purchase.expiryDate && purchase.expiryDate > now ? purchase.expiryDate : now;
  const expiryDate = addMonths(from, months);
  const startDate = purchase.startDate ?? now;
  const activated = await tx
    .update(shortcodePurchases)
    .set({ status: 'active', startDate, expiryDate, reservedUntil: null, updatedAt: now })
    .where(
      and(
        eq(shortcodePurchases.id, purchase.id),
        // Holding it already (reserved or active), or free again: nobody else reserved or holds the dial string.
        or(inArray(shortcodePurchases.status, ['reserved', 'active']), hasNoOtherHolder(purchase)),
      ),
    )
    .returning({ id: shortcodePurchases.id });
  if (activated.length === 0) {
    await tx
      .update(shortcodePurchases)
      .set({ status: 'refund_due', reservedUntil: null, updatedAt: now })
      .where(and(eq(shortcodePurchases.id, purchase.id), ne(shortcodePurchases.status, 'active')));
    ctx.log.error(
      { reference: transaction.reference, purchaseId: purchase.id, dialString: purchase.dialString },
      'a shortcode was paid after its reservation lapsed and another account took it: refund the payment',
    );
    return undefined;
  }
  const [owner] = await tx.select({ email: users.email, fullName: users.fullName }).from(users).where(eq(users.id, purchase.userId));
  return async () => {
    ctx.shortcodeRoutes.invalidate();
    if (!owner) return;
    ctx.background.run('shortcode receipt', () =>
      sendMail(ctx, {
        to: owner.email,
        subject: `Receipt: ${purchase.dialString} until ${formatDay(expiryDate)}`,
        text: [
          `Hello ${owner.fullName},`,
          '',
          `We received your payment of ${transaction.currency} ${transaction.amount} for ${months} ${months === 1 ? 'month' : 'months'} of the shortcode ${purchase.dialString}.`,
          `Reference: ${transaction.reference}`,
          `Active from ${formatDay(startDate)} until ${formatDay(expiryDate)}.`,
          '',
          `Connect it to an app or renew it from My USSD Extensions: ${getPublicOrigin(ctx.config)}/my-shortcodes`,
        ].join('\n'),
      }),
    );
  };
}

/**
 * Ends what has run out on a dial string before someone takes it: reservations past their time (`lapsed`, or
 * `expired` for a renewal's) and active purchases past expiry (`expired`). Answers whether a routed purchase
 * changed. Without `dialString`, every purchase (the timer).
 */
export async function releaseEnded(ctx: AppContext, db: Db, where?: { providerKey: string; dialString: string }): Promise<boolean> {
  const now = ctx.now();
  const scope = where
    ? and(eq(shortcodePurchases.providerKey, where.providerKey), eq(shortcodePurchases.dialString, where.dialString))
    : undefined;
  const ended = await db
    .update(shortcodePurchases)
    .set({
      status: sql`case when ${shortcodePurchases.expiryDate} is null then 'lapsed' else 'expired' end`,
      reservedUntil: null,
      updatedAt: now,
    })
    .where(
      and(
        scope,
        inArray(shortcodePurchases.status, ['reserved', 'active']),
        or(
          and(eq(shortcodePurchases.status, 'reserved'), lte(shortcodePurchases.reservedUntil, now)),
          and(eq(shortcodePurchases.status, 'active'), lte(shortcodePurchases.expiryDate, now)),
        ),
      ),
    )
    .returning({ id: shortcodePurchases.id, startDate: shortcodePurchases.startDate });
  return ended.some((row) => row.startDate !== null);
}
